import type { ConfigOf } from '../../base/config/namespace.js';
import { MARKETPLACE_CONFIG } from './marketplace-config.js';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../base/common/clock.js';
import { generateSecret, sha256Hex } from '../../base/common/crypto/secrets.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type { MarketplaceLinkResultDto, MarketplaceSignupResultDto } from './dto/marketplace.dto.js';
import { MarketplaceErrors } from './marketplace.errors.js';
import { MarketplaceRepository } from './marketplace.repository.js';
import { MarketplaceTokenVerifier } from './marketplace-token-verifier.js';

/** A nonce is 256 random bits in base64url: anything else is refused before any query. */
const NONCE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** Unused nonces whose token and nonce both ended this long ago are deleted (the jti no longer needs them). */
const CLEANUP_AFTER_MS = 24 * 3600 * 1000;

export interface ConsumeOptions {
  /** The cloud the caller named (`/v1/marketplace/{cloud}/link/`): the nonce must come from it. */
  cloud?: string;
  /** The request that consumes it, for the webhook event; null outside a request. */
  requestId?: string | null;
}

/**
 * Cloud-marketplace signup. A marketplace posts a signed JWT (its token) for a buyer; once verified, it is
 * exchanged for a single-use `marketplace_signup_nonce` (256 bits, stored as SHA-256, 1 hour by default)
 * that registration, sign-in or an administrator's link then consumes to record the marketplace customer
 * and entitlement ids on one domain. A token (its `jti` per cloud) is exchanged once.
 */
@Injectable()
export class MarketplaceService {
  constructor(
    private readonly repo: MarketplaceRepository,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    @Inject(MARKETPLACE_CONFIG.token) private readonly marketplaceConfig: ConfigOf<typeof MARKETPLACE_CONFIG>,
    private readonly clock: Clock,
    private readonly verifier: MarketplaceTokenVerifier,
    private readonly events: WebhookEventsService,
  ) {}

  /** Verifies a marketplace token for `cloud` and hands back a fresh signup nonce. */
  async signup(cloud: string, token: string): Promise<MarketplaceSignupResultDto> {
    const claims = await this.verifier.verify(cloud, token);
    const now = this.clock.now();
    const nonce = generateSecret();
    const expires = new Date(now.getTime() + this.marketplaceConfig.nonceTtlSeconds * 1000);
    try {
      await this.repo.insertNonce({
        cloud,
        jti: claims.jti,
        nonceSha256: sha256Hex(nonce),
        customerId: claims.customerId,
        entitlementId: claims.entitlementId,
        tokenExpires: claims.expires,
        expires,
        at: now,
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw MarketplaceErrors.TOKEN_REPLAYED();
      throw e;
    }
    const old = new Date(now.getTime() - CLEANUP_AFTER_MS);
    await this.repo.deleteEnded(old);
    return {
      marketplace_signup_nonce: nonce,
      cloud,
      expires: wireDate(expires),
      registration_url: this.registrationUrl(nonce),
    };
  }

  /** The registration page, with the nonce (or, for a refused form post, `marketplace_error`). */
  registrationUrl(nonce: string | null, error?: string): string {
    const q =
      nonce !== null ? `marketplace_signup_nonce=${nonce}` : `marketplace_error=${error ?? 'invalid_token'}`;
    return `${this.config.http.publicBaseUrl}/registrations?${q}`;
  }

  /** 400 unless the nonce exists, is unused and has not expired (registration checks before it starts). */
  async assertUsable(nonce: string): Promise<void> {
    if (typeof nonce !== 'string' || !NONCE_SHAPE.test(nonce)) throw MarketplaceErrors.NONCE_INVALID();
    if (!(await this.repo.isUsable(sha256Hex(nonce), this.clock.now())))
      throw MarketplaceErrors.NONCE_INVALID();
  }

  /**
   * Inside the caller's transaction: claims the nonce (one atomic UPDATE, so of two racing consumers one
   * wins), records the marketplace ids on the domain and emits `system_domains` / `system_domain` /
   * `update`. 400 when the nonce cannot be claimed, 409 when the domain is already linked to another
   * marketplace customer (the caller's transaction must roll back then: the claim is part of it).
   */
  async consume(
    em: EntityManager,
    nonce: string,
    systemDomainId: string,
    options: ConsumeOptions = {},
  ): Promise<MarketplaceLinkResultDto> {
    if (typeof nonce !== 'string' || !NONCE_SHAPE.test(nonce)) throw MarketplaceErrors.NONCE_INVALID();
    return this.consumeHashed(em, sha256Hex(nonce), systemDomainId, options);
  }

  /**
   * `consume` by the nonce's SHA-256, for a caller that kept only that (a pending registration stores no
   * secret in the clear).
   */
  async consumeHashed(
    em: EntityManager,
    nonceSha256: string,
    systemDomainId: string,
    options: ConsumeOptions = {},
  ): Promise<MarketplaceLinkResultDto> {
    const now = this.clock.now();
    const claimed = await this.repo.claim(em, nonceSha256, now, systemDomainId);
    if (!claimed) throw MarketplaceErrors.NONCE_INVALID();
    if (options.cloud !== undefined && options.cloud !== claimed.cloud)
      throw MarketplaceErrors.CLOUD_MISMATCH();
    const domain = await this.repo.lockDomainCustomer(em, systemDomainId);
    if (!domain) throw MarketplaceErrors.NONCE_INVALID();
    if (domain.marketplace_customer_id !== null && domain.marketplace_customer_id !== claimed.customer_id) {
      throw MarketplaceErrors.ALREADY_LINKED();
    }
    await this.repo.linkDomain(em, systemDomainId, claimed, now);
    const result: MarketplaceLinkResultDto = {
      system_domain_id: systemDomainId,
      cloud: claimed.cloud,
      marketplace_customer_id: claimed.customer_id,
      marketplace_entitlement_id: claimed.entitlement_id,
    };
    await this.events.record(em, {
      systemDomainId,
      objectId: systemDomainId,
      realm: 'system_domain',
      operation: 'update',
      eventType: 'system_domains',
      data: { id: systemDomainId, reason: 'marketplace_link', ...result },
      requestId: options.requestId ?? null,
    });
    return result;
  }

  /**
   * Sign-in consumption (simple login with one domain token, or the multidomain/login step), inside the
   * sign-in's transaction: the nonce goes to `domainId` only when the user administers it (a domain
   * administrator, or a super administrator, as for the link route); otherwise it is left untouched for a
   * later sign-in, registration or link (also when the domain is linked to another customer). Returns
   * whether it was consumed.
   */
  async consumeAtSignIn(
    em: EntityManager,
    nonce: string,
    userId: string,
    domainId: string,
    requestId: string | null,
  ): Promise<boolean> {
    if (!(await this.repo.administers(em, userId, domainId))) return false;
    // a domain linked to another customer keeps its link and the nonce stays usable (the link route says 409)
    if (await this.repo.linkedElsewhere(em, sha256Hex(nonce), domainId)) return false;
    await this.consume(em, nonce, domainId, { requestId });
    return true;
  }

  /** An administrator links their own domain (`/v1/marketplace/[{cloud}/]link/`). */
  link(
    systemDomainId: string,
    nonce: string,
    requestId: string,
    cloud?: string,
  ): Promise<MarketplaceLinkResultDto> {
    if (cloud !== undefined && !this.verifier.isConfigured(cloud)) {
      throw MarketplaceErrors.UNKNOWN_CLOUD(cloud.slice(0, 64));
    }
    return this.repo.transaction((em) => this.consume(em, nonce, systemDomainId, { cloud, requestId }));
  }
}
