import { Injectable } from '@nestjs/common';
import { unsupportedGrantType } from '../oauth.errors.js';
import { AuthorizationCodeGrant } from './authorization-code.grant.js';
import { ClientCredentialsGrant } from './client-credentials.grant.js';
import type { GrantHandler } from './grant.js';
import { RefreshTokenGrant } from './refresh-token.grant.js';

/** grant_type → handler. Each handler receives only the parameters it declares (the allowlist). */
@Injectable()
export class GrantRegistry {
  private readonly handlers: Map<string, GrantHandler>;

  constructor(cc: ClientCredentialsGrant, code: AuthorizationCodeGrant, refresh: RefreshTokenGrant) {
    this.handlers = new Map<string, GrantHandler>([cc, code, refresh].map((h) => [h.grantType, h]));
  }

  get(grantType: string | undefined): GrantHandler {
    const h = grantType ? this.handlers.get(grantType) : undefined;
    if (!h) {
      throw unsupportedGrantType(
        `grant_type must be one of ${[...this.handlers.keys()].join(', ')} (implicit and password grants are not offered)`,
      );
    }
    return h;
  }

  grantTypes(): string[] {
    return [...this.handlers.keys()];
  }

  static pick(
    params: Record<string, string | undefined>,
    allowed: readonly string[],
  ): Record<string, string | undefined> {
    return Object.fromEntries(allowed.map((k) => [k, params[k]]));
  }
}
