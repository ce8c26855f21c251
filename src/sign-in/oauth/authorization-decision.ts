import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { RequestErrors } from '../../base/common/errors/request.errors.js';
import { flattenValidationErrors } from '../../base/common/errors/validation-exception.factory.js';
import {
  AUTHORIZATION_PARAMS,
  AuthorizationDecisionDto,
  AuthorizationQueryDto,
} from './dto/authorize.dto.js';

/**
 * The decision of `POST /API/auth/v1/oauth/authorize` (AuthorizeApiController): the query string and the body
 * merged into one request, the allow or deny it carries, and the authorization request it names.
 */

const MERGED_FIELDS = [...AUTHORIZATION_PARAMS, 'confirm', 'decision'] as const;

/**
 * One request out of the query string and the body: each field from wherever it was given. A field given in
 * both with different values is refused rather than one silently winning (which would let a query string
 * the user never saw steer what the body approved).
 */
export function mergeDecision(
  query: AuthorizationDecisionDto,
  body: AuthorizationDecisionDto,
): AuthorizationDecisionDto {
  const merged: Record<string, string | undefined> = {};
  const conflicts: Record<string, string> = {};
  for (const f of MERGED_FIELDS) {
    const a = query[f];
    const b = body[f];
    if (a !== undefined && b !== undefined && a !== b) {
      conflicts[f] = 'given in the query string and in the body with different values';
    }
    merged[f] = b ?? a;
  }
  if (Object.keys(conflicts).length) throw RequestErrors.INVALID(conflicts);
  return merged as AuthorizationDecisionDto;
}

/** `confirm` present allows, absent denies; `decision` (the earlier form) must agree when both are given. */
export function decisionOf(d: AuthorizationDecisionDto): boolean {
  const confirmed = d.confirm !== undefined;
  if (d.decision === undefined) return confirmed;
  if (confirmed && d.decision !== 'allow') {
    throw RequestErrors.INVALID({ decision: 'disagrees with confirm (present means allow)' });
  }
  return d.decision === 'allow';
}

/** The merged request must be complete, with the same field errors GET answers for a missing parameter. */
export function requestOf(d: AuthorizationDecisionDto): AuthorizationQueryDto {
  const fields = Object.fromEntries(
    AUTHORIZATION_PARAMS.filter((f) => d[f] !== undefined).map((f) => [f, d[f]]),
  );
  const request = plainToInstance(AuthorizationQueryDto, fields);
  const errors = validateSync(request, { validationError: { target: false, value: false } });
  if (errors.length) throw RequestErrors.INVALID(flattenValidationErrors(errors));
  return request;
}
