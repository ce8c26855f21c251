import { ApiError } from '../errors/api-error.js';

/**
 * 429 with Retry-After (seconds), in the spec's error shape. Built here rather than through defineErrors:
 * the Retry-After value is part of each answer.
 */
export function rateLimited(retryAfter: number): ApiError {
  return new ApiError(
    429,
    [`Rate limit reached: retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}`],
    { 'Retry-After': String(retryAfter) },
    'rate_limit.EXCEEDED',
  );
}
