import { applyDecorators, Header, HttpCode } from '@nestjs/common';
import { ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { SCIM_CONTENT_TYPE } from '../../base/common/errors/scim-error.js';
import { ScimErrorDto } from './dto/scim.dto.js';

/** The SCIM service's base URL (`{PUBLIC_BASE_URL}/API/scim/v2`), for locations and references. */
export const SCIM_BASE = 'SCIM_BASE';

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request, filter, PatchOp or value (scimType says which)',
  401: 'Missing, revoked or expired provisioning token, or another kind of token',
  403: 'The token’s administrator is no longer one, the domain is frozen, or the change is not allowed',
  404: 'No such resource in the token’s domain (or one the domain does not own)',
  409: 'uniqueness: the userName (email) or displayName is taken',
  412: 'If-Match names a version that is no longer current',
  413: 'Body over 100 kB',
  429: 'Rate limit reached; Retry-After says when to try again',
  503: 'The database cannot be reached; retry after Retry-After seconds',
};

/**
 * One SCIM operation: only a provisioning token (kind SCIM) of an administrator of its domain; answers in
 * application/scim+json, errors in RFC 7644's form (the global filter renders them on /API/scim/v2), each
 * declared here over the platform's `{errors}` ones. `ok`: the success status and its body's type.
 */
export function ScimRoute(ok: { status: number; type?: unknown; description?: string }, ...errors: number[]) {
  return applyDecorators(
    ApiTags('scim'),
    Authenticated({ kinds: ['SCIM'], admin: true }),
    HttpCode(ok.status),
    Header('Content-Type', SCIM_CONTENT_TYPE),
    ApiProduces('application/scim+json'),
    ApiResponse({
      status: ok.status,
      description: ok.description ?? 'Done',
      ...(ok.type ? { type: ok.type as never } : {}),
    }),
    ...[...new Set([401, 403, 429, 503, ...errors])].map((status) =>
      ApiResponse({ status, type: ScimErrorDto, description: ERROR_TEXT[status] }),
    ),
  );
}

/** A single resource's answer headers: its version (RFC 7644 §3.14) and, when created, its location. */
export function resourceHeaders(
  res: Response,
  written: { resource: Record<string, unknown>; version: string },
  created = false,
) {
  res.setHeader('ETag', written.version);
  const meta = written.resource.meta as { location?: string } | undefined;
  if (created && meta?.location) res.setHeader('Location', meta.location);
  return written.resource;
}
