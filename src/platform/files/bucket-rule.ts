import type { JsonObject } from '../../base/model/file.entity.js';

/**
 * The bucket an S3 storage's settings name, when the caller may not name it (else null). The deployment's
 * credentials reach every bucket they are granted, so a domain's administrators name only a bucket the
 * operator listed in S3_ALLOWED_BUCKETS (none when unset); a super administrator names any. Settings that
 * name no bucket use the deployment's own S3_BUCKET, which the operator chose.
 */
export function refusedBucket(
  settings: JsonObject,
  allowed: readonly string[],
  isSuperAdmin: boolean,
): string | null {
  const bucket = settings.bucket;
  if (isSuperAdmin || typeof bucket !== 'string' || bucket === '') return null;
  return allowed.includes(bucket) ? null : bucket;
}
