import { applyDecorators, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtension,
  ApiForbiddenResponse,
  ApiSecurity,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { ApiError } from '../errors/api-error.js';
import { ErrorsDto } from '../errors/errors.dto.js';
import type { TokenKind } from '../../model/token.entity.js';
import type { Role } from './roles.js';

/** The kinds a route accepts unless it names others: a new kind is refused everywhere until a route lists it. */
export const DEFAULT_KINDS: readonly TokenKind[] = ['LOGIN', 'PAT', 'OAUTH'];

/** An entity type some feature registered an access checker for (see AccessService). */
export type AccessEntity = string;

export interface AuthenticatedOptions {
  /** Roles the caller must hold (all of them). OAuth tokens also need scopes that bundle them. */
  roles?: Role[];
  /** Caller must be an administrator of the domain (or a super administrator). */
  admin?: boolean;
  superAdmin?: boolean;
  /** Scopes an OAuth token must carry, beyond what `roles` implies. */
  scopes?: string[];
  /**
   * Lets an OAuth token with any scopes through a route that needs no role (the token describing or revoking
   * itself, the caller's own profile). Without it such a route needs user_impersonation: a narrow
   * assets:read token must not manage the user's other credentials or account.
   */
  anyScope?: boolean;
  /** The entity named by a route parameter that the caller must be allowed to reach. */
  access?: { entity: AccessEntity; param: string };
  /** Credential kinds the route accepts; default LOGIN, PAT and OAUTH (see CredentialKindStep). */
  kinds?: TokenKind[];
  /**
   * The refusal of a default kind (LOGIN, PAT, OAUTH) that `kinds` leaves out, where the route's answer says
   * why (only a person's sign-in may approve an app: authorize.LOGIN_ONLY, 403); any other kind, and routes
   * without it, get auth.KIND_NOT_ACCEPTED (401).
   */
  kindRefused?: () => ApiError;
  /**
   * A write that a FROZEN domain still allows (see TenantStatusStep): signing in and out, renewing one's own
   * token, granting an app a sign-in. Reads are always allowed.
   */
  whileFrozen?: boolean;
  /**
   * Changes the person's account factors (second factors, recovery codes): only their own sign-in token,
   * recent or with a passed second factor (see AccountChangeStep).
   */
  accountChange?: boolean;
}

export const AUTH_OPTIONS = 'portcullis:auth';
export const IS_PUBLIC = 'portcullis:public';

/** The per-address budgets a public route can draw on (see RateLimiter); `anonymous` unless named. */
export type PublicBudget = 'anonymous' | 'signin' | 'oauth' | 'registration';

const TOO_MANY = ApiTooManyRequestsResponse({
  description: 'Rate limit reached; Retry-After says when to try again',
  type: ErrorsDto,
});

/**
 * A route anyone may call. Every route is either this or `@Authenticated`; the guard denies the rest. Its
 * requests are rate limited per client address, from `budget`.
 */
export function Public(budget: PublicBudget = 'anonymous'): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(IS_PUBLIC, budget), TOO_MANY);
}

/** Requires a valid credential and the given roles/scopes/ACL; documents the security and 401/403 too. */
export function Authenticated(options: AuthenticatedOptions = {}): MethodDecorator & ClassDecorator {
  const needs = [
    ...(options.superAdmin ? ['super administrator'] : options.admin ? ['administrator'] : []),
    ...(options.roles ?? []),
  ];
  return applyDecorators(
    SetMetadata(AUTH_OPTIONS, options),
    // the policy, readable in the OpenAPI document (and in the route-policy snapshot)
    ApiExtension('x-portcullis-policy', describePolicy(options)),
    // the temporary sign-in token travels in its own header, and opens nothing else
    ...(isTempOnly(options) ? [ApiSecurity('temp')] : [ApiBearerAuth('bearer'), ApiSecurity('legacy')]),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, expired or revoked token', type: ErrorsDto }),
    ApiForbiddenResponse({
      description: needs.length ? `Requires: ${needs.join(', ')}` : 'Not allowed for this caller',
      type: ErrorsDto,
    }),
    TOO_MANY,
  );
}

function isTempOnly(o: AuthenticatedOptions): boolean {
  return o.kinds !== undefined && o.kinds.length > 0 && o.kinds.every((k) => k === 'TEMP');
}

/** A route's policy as plain data: what the OpenAPI document and the route-policy snapshot show. */
export function describePolicy(o: AuthenticatedOptions): Record<string, unknown> {
  return {
    kinds: [...(o.kinds ?? DEFAULT_KINDS)],
    ...(o.superAdmin ? { super_admin: true } : {}),
    ...(o.admin ? { admin: true } : {}),
    roles: [...(o.roles ?? [])],
    ...(o.scopes?.length ? { scopes: [...o.scopes] } : {}),
    ...(o.anyScope ? { any_scope: true } : {}),
    ...(o.access ? { access: `${o.access.entity}:${o.access.param}` } : {}),
    ...(o.whileFrozen ? { while_frozen: true } : {}),
    ...(o.accountChange ? { account_change: true } : {}),
  };
}
