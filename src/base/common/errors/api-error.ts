import { HttpStatus } from '@nestjs/common';

export type ErrorBody = string[] | Record<string, string>;

/**
 * The one error type services throw. Rendered as the spec's `{errors: [...]}` or `{errors: {field: msg}}`
 * by the global filter. `headers` carries e.g. Retry-After or Allow.
 */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly errors: ErrorBody,
    public readonly headers: Record<string, string> = {},
    /** `feature.CODE` from the feature's error catalogue (see error-codes.ts); absent for framework errors. */
    public readonly code?: string,
  ) {
    super(Array.isArray(errors) ? errors.join('; ') : Object.values(errors).join('; '));
  }

  static badRequest(message: string | Record<string, string>): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, typeof message === 'string' ? [message] : message);
  }
  static unauthorized(message = 'Authentication credentials were not provided or are invalid'): ApiError {
    return new ApiError(HttpStatus.UNAUTHORIZED, [message], { 'WWW-Authenticate': 'Bearer' });
  }
  static forbidden(message = 'You do not have permission to perform this action'): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, [message]);
  }
  static notFound(what = 'Resource'): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, [`${what} not found`]);
  }
  static conflict(message: string): ApiError {
    return new ApiError(HttpStatus.CONFLICT, [message]);
  }
}
