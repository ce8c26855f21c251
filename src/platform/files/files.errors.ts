import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const FilesErrors = defineErrors('files', {
  STORAGE_NOT_FOUND: message(404, 'Storage not found'),
  NO_MATCHING_STORAGE: { status: 404, body: (purpose: string) => [`No storage for purpose ${purpose}`] },
  STORAGE_NOT_WRITABLE: {
    status: 400,
    body: (why: string) => [`This storage cannot take files: ${why}`],
  },
  BUILTIN_STORAGE: message(403, 'Built-in storages are changed by super administrators only'),
  /** An S3 storage's settings name a bucket outside S3_ALLOWED_BUCKETS, and the caller is no super administrator. */
  BUCKET_NOT_ALLOWED: {
    status: 403,
    body: (bucket: string) => [
      `The bucket "${bucket}" is not one this deployment lets a domain use (S3_ALLOWED_BUCKETS): only a super administrator may name it`,
    ],
  },
  FORMAT_NOT_FOUND: message(404, 'Format not found'),
  FILE_SET_NOT_FOUND: message(404, 'File set not found'),
  FILE_NOT_FOUND: message(404, 'File not found'),
  KEYFRAME_NOT_FOUND: message(404, 'Keyframe not found'),
  INVALID: fields(),
  /** PATCH to CLOSED before every declared byte arrived (the file stays OPEN). */
  SIZE_MISMATCH: {
    status: 400,
    body: (received: number, size: number) => [
      `The file is not complete: ${received} of ${size} bytes were received`,
    ],
  },
  NOT_OPEN: { status: 400, body: (status: string) => [`The file is ${status}, not OPEN`] },
  NOT_CLOSED: message(400, 'The file is not CLOSED yet'),
  /** The signed link is absent, tampered with, expired, or names another object. */
  BAD_LINK: message(403, 'The link is invalid or has expired'),
  BAD_RANGE: { status: 400, body: (why: string) => [`Bad Content-Range: ${why}`] },
  TOO_LARGE: { status: 413, body: (why: string) => [why] },
  /** Another chunk of the same upload is being written. */
  BUSY: message(409, 'Another chunk of this upload is in progress; query the status and resume'),
  UNSATISFIABLE: message(416, 'Range not satisfiable'),
  STORAGE_FAILED: message(502, 'The storage did not take the bytes; retry the chunk'),
});
