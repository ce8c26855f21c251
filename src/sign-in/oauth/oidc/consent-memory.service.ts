import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OPENID_SCOPE } from '../../../base/common/auth/scopes.js';
import { OidcRepository } from './oidc.repository.js';

/**
 * Remembered consent (OpenID Connect Core §3.1.2.4): once a person allowed an app some scopes in a request
 * with `openid`, a later such request for the same or fewer scopes is approved without the screen, unless it
 * says `prompt=consent`. Plain OAuth requests (no `openid`) show the screen every time, as they always did.
 */
@Injectable()
export class ConsentMemoryService {
  constructor(private readonly repo: OidcRepository) {}

  /** Whether the person already allowed the app every scope of this OpenID Connect request. */
  async covers(userId: string, appId: string, scopes: readonly string[]): Promise<boolean> {
    if (!scopes.includes(OPENID_SCOPE)) return false;
    const allowed = await this.repo.rememberedScopes(userId, appId);
    return scopes.every((s) => allowed.includes(s));
  }

  /** An allowed OpenID Connect request: its scopes join what the person allowed the app before. */
  async remember(em: EntityManager, userId: string, appId: string, scopes: readonly string[]): Promise<void> {
    if (scopes.includes(OPENID_SCOPE)) await this.repo.rememberConsent(em, userId, appId, [...scopes]);
  }
}
