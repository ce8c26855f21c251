import { timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../../base/common/crypto/secrets.js';

/** Whether an Authorization header carries the metrics token (compared in constant time, as hashes). */
export function bearerMatches(authorization: string | string[] | undefined, token: string): boolean {
  const value = Array.isArray(authorization) ? authorization[0] : authorization;
  const m = /^Bearer\s+(\S{1,512})$/i.exec(value ?? '');
  if (!m) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(m[1])), Buffer.from(sha256Hex(token)));
}
