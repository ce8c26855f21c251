import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorsDto } from '../errors/errors.dto.js';
import type { Role } from './roles.js';

export type AccessEntity = 'app' | 'token' | 'user' | 'group';

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
}

export const AUTH_OPTIONS = 'portcullis:auth';
export const IS_PUBLIC = 'portcullis:public';

/** A route anyone may call. Every route is either this or `@Authenticated`; the guard denies the rest. */
export function Public(): MethodDecorator & ClassDecorator {
  return SetMetadata(IS_PUBLIC, true);
}

/** Requires a valid credential and the given roles/scopes/ACL; documents the security and 401/403 too. */
export function Authenticated(options: AuthenticatedOptions = {}): MethodDecorator & ClassDecorator {
  const needs = [
    ...(options.superAdmin ? ['super administrator'] : options.admin ? ['administrator'] : []),
    ...(options.roles ?? []),
  ];
  return applyDecorators(
    SetMetadata(AUTH_OPTIONS, options),
    ApiBearerAuth('bearer'),
    ApiSecurity('legacy'),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, expired or revoked token', type: ErrorsDto }),
    ApiForbiddenResponse({
      description: needs.length ? `Requires: ${needs.join(', ')}` : 'Not allowed for this caller',
      type: ErrorsDto,
    }),
  );
}
