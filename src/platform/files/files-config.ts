import { join } from 'node:path';
import { configNamespace } from '../../base/config/namespace.js';
import { envReader } from '../../base/config/env-reader.js';
import { type FfmpegConfig, loadFfmpegConfig } from './ffmpeg-binary.js';

/**
 * Files (src/files): where the built-in storages keep bytes, how long signed links work, the largest file,
 * and the files worker's pace: the namespace FILES_CONFIG (`loadFilesConfig`).
 *
 * - FILES_STORAGE: FILE (default; bytes under STORAGE_DIR, default DATA_DIR/files, or a temporary directory
 *   with DATA_DIR=memory://) or S3 (S3_BUCKET, S3_REGION, optional S3_ENDPOINT for an S3-compatible server,
 *   S3_FORCE_PATH_STYLE, S3_PREFIX; credentials from the SDK's usual environment: AWS_ACCESS_KEY_ID, …).
 * - S3_ALLOWED_BUCKETS: the buckets a domain's administrators may name in an S3 storage's settings
 *   (comma-separated; unset: none, only super administrators name a bucket).
 */
export interface FilesConfig {
  method: 'FILE' | 'S3';
  /** null: a temporary directory made at start (DATA_DIR=memory://). */
  storageDir: string | null;
  s3: { bucket: string; region: string; endpoint: string | null; forcePathStyle: boolean; prefix: string };
  /** Buckets a storage's settings may name when a super administrator does not set them (S3_ALLOWED_BUCKETS). */
  allowedBuckets: string[];
  uploadUrlTtlSeconds: number;
  downloadUrlTtlSeconds: number;
  maxFileBytes: number;
  workerIntervalMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  /** Keyframes extracted per file (one per second of video from the start, at most this many). */
  keyframes: number;
  /** The ffmpeg that extracts them and the prlimit that confines it (FFMPEG_PATH, ffmpeg-binary.ts). */
  ffmpeg: FfmpegConfig;
}

export function loadFilesConfig(env: NodeJS.ProcessEnv, problems: string[], dataDir: string): FilesConfig {
  const { str, int, bool, url } = envReader(env, problems);
  const method = (str('FILES_STORAGE') ?? 'FILE').toUpperCase();
  if (method !== 'FILE' && method !== 'S3') problems.push('FILES_STORAGE must be FILE or S3');
  const bucket = str('S3_BUCKET') ?? '';
  if (method === 'S3' && !bucket) problems.push('S3_BUCKET is required with FILES_STORAGE=S3');
  const c: FilesConfig = {
    method: method === 'S3' ? 'S3' : 'FILE',
    storageDir: str('STORAGE_DIR') ?? (dataDir === 'memory://' ? null : join(dataDir, 'files')),
    s3: {
      bucket,
      region: str('S3_REGION') ?? 'us-east-1',
      endpoint: url('S3_ENDPOINT', ['http:', 'https:']),
      forcePathStyle: bool('S3_FORCE_PATH_STYLE', false),
      prefix: str('S3_PREFIX') ?? '',
    },
    allowedBuckets: bucketList(str('S3_ALLOWED_BUCKETS'), problems),
    uploadUrlTtlSeconds: int('UPLOAD_URL_TTL', 3600, 60, 7 * 86_400),
    downloadUrlTtlSeconds: int('DOWNLOAD_URL_TTL', 900, 10, 86_400),
    maxFileBytes: int('FILES_MAX_BYTES', 5 * 1024 ** 4, 1, Number.MAX_SAFE_INTEGER),
    workerIntervalMs: int('FILES_WORKER_INTERVAL_MS', 1_000, 10, 60_000),
    retryBaseMs: int('FILES_RETRY_BASE_MS', 5_000, 10, 3_600_000),
    retryMaxMs: int('FILES_RETRY_MAX_MS', 600_000, 10, 86_400_000),
    maxAttempts: int('FILES_MAX_ATTEMPTS', 3, 1, 100),
    keyframes: int('KEYFRAMES_PER_FILE', 5, 1, 100),
    ffmpeg: loadFfmpegConfig(env, problems),
  };
  if (c.retryMaxMs < c.retryBaseMs) problems.push('FILES_RETRY_MAX_MS must not be below FILES_RETRY_BASE_MS');
  return c;
}

/** A comma-separated list of bucket names (letters, digits, ".", "_", "-"; the names storage settings accept). */
function bucketList(value: string | null, problems: string[]): string[] {
  if (value === null) return [];
  const names = value
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  const bad = names.filter((b) => b.length > 200 || !/^[A-Za-z0-9._-]+$/.test(b) || b.includes('..'));
  if (bad.length) {
    problems.push(
      `S3_ALLOWED_BUCKETS must be a comma-separated list of bucket names (got ${bad.map((b) => `"${b}"`).join(', ')})`,
    );
    return [];
  }
  return [...new Set(names)];
}

export const FILES_CONFIG = configNamespace('files', (env, problems, base) =>
  loadFilesConfig(env, problems, base.database.dataDir),
);
