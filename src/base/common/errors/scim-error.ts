import { ApiError, type ErrorBody } from './api-error.js';

/** The path of the SCIM 2.0 service (sign-in/scim/): every answer there, errors included, is RFC 7644's. */
export const SCIM_PATH = /^\/API\/scim\/v2(\/|$)/;
/**
 * A request to the SCIM service, answered in its form: a path that does not decode (invalid percent-encoding,
 * refused before any route) names no operation, and gets the platform's `{errors}` like any other.
 */
export function isScimRequest(path: string): boolean {
  if (!SCIM_PATH.test(path)) return false;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.12's detail keywords. */
export type ScimType =
  | 'uniqueness'
  | 'tooMany'
  | 'invalidFilter'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

/** An error of the SCIM service with its RFC 7644 `scimType`; rendered by the global filter on SCIM_PATH. */
export class ScimError extends ApiError {
  constructor(
    status: number,
    detail: string,
    public readonly scimType?: ScimType,
    code?: string,
  ) {
    super(status, [detail], {}, code);
  }
}

/** RFC 7644 §3.12's error body: `status` is a string; `scimType` where the error has one. */
export function scimErrorBody(
  status: number,
  errors: ErrorBody,
  scimType?: ScimType,
): { schemas: string[]; status: string; scimType?: ScimType; detail: string } {
  const detail = Array.isArray(errors)
    ? errors.join('; ')
    : Object.entries(errors)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ');
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}
