import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { generateSecret, sha256Hex } from '../common/crypto/secrets.js';
import { wireDate } from '../common/http/wire-date.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { returningRows } from '../database/returning-rows.js';
import { isUniqueViolation } from '../database/sql-helpers.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import type { MarketplaceLinkResultDto, MarketplaceSignupResultDto } from './dto/marketplace.dto.js';
import { MarketplaceErrors } from './marketplace.errors.js';
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
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly verifier: MarketplaceTokenVerifier,
    private readonly events: WebhookEventsService,
  ) {}

  /** Verifies a marketplace token for `cloud` and hands back a fresh signup nonce. */
  async signup(cloud: string, token: string): Promise<MarketplaceSignupResultDto> {
    const claims = await this.verifier.verify(cloud, token);
    const now = this.clock.now();
    const nonce = generateSecret();
    const expires = new Date(now.getTime() + this.config.marketplace.nonceTtlSeconds * 1000);
    try {
      await this.ds.query(
        `INSERT INTO marketplace_nonces
           (cloud, jti, nonce_sha256, customer_id, entitlement_id, token_expires, expires, date_created)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          cloud,
          claims.jti,
          sha256Hex(nonce),
          claims.customerId,
          claims.entitlementId,
          claims.expires,
          expires,
          now,
        ],
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw MarketplaceErrors.TOKEN_REPLAYED();
      throw e;
    }
    const old = new Date(now.getTime() - CLEANUP_AFTER_MS);
    await this.ds.query(
      'DELETE FROM marketplace_nonces WHERE used_at IS NULL AND expires < $1 AND token_expires < $1',
      [old],
    );
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
    const rows: unknown[] = await this.ds.query(
      'SELECT 1 FROM marketplace_nonces WHERE nonce_sha256 = $1 AND used_at IS NULL AND expires > $2',
      [sha256Hex(nonce), this.clock.now()],
    );
    if (rows.length === 0) throw MarketplaceErrors.NONCE_INVALID();
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
    const [claimed] = returningRows<{ cloud: string; customer_id: string; entitlement_id: string }>(
      await em.query(
        `UPDATE marketplace_nonces SET used_at = $2, system_domain_id = $3
          WHERE nonce_sha256 = $1 AND used_at IS NULL AND expires > $2
          RETURNING cloud, customer_id, entitlement_id`,
        [nonceSha256, now, systemDomainId],
      ),
    );
    if (!claimed) throw MarketplaceErrors.NONCE_INVALID();
    if (options.cloud !== undefined && options.cloud !== claimed.cloud)
      throw MarketplaceErrors.CLOUD_MISMATCH();
    const [domain] = (await em.query(
      'SELECT marketplace_customer_id FROM system_domains WHERE id = $1 FOR UPDATE',
      [systemDomainId],
    )) as { marketplace_customer_id: string | null }[];
    if (!domain) throw MarketplaceErrors.NONCE_INVALID();
    if (domain.marketplace_customer_id !== null && domain.marketplace_customer_id !== claimed.customer_id) {
      throw MarketplaceErrors.ALREADY_LINKED();
    }
    await em.query(
      `UPDATE system_domains
          SET marketplace_customer_id = $2, marketplace_entitlement_id = $3, date_modified = $4
        WHERE id = $1`,
      [systemDomainId, claimed.customer_id, claimed.entitlement_id, now],
    );
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
    const [row] = (await em.query(
      `SELECT (u.is_super_admin OR COALESCE(m.is_admin, false)) AS admin FROM users u
         LEFT JOIN user_system_domains m ON m.user_id = u.id AND m.system_domain_id = $2 WHERE u.id = $1`,
      [userId, domainId],
    )) as { admin: boolean }[];
    if (!row?.admin) return false;
    // a domain linked to another customer keeps its link and the nonce stays usable (the link route says 409)
    const [conflict] = (await em.query(
      `SELECT 1 FROM marketplace_nonces n JOIN system_domains d ON d.id = $2
        WHERE n.nonce_sha256 = $1 AND d.marketplace_customer_id IS NOT NULL
          AND d.marketplace_customer_id <> n.customer_id`,
      [sha256Hex(nonce), domainId],
    )) as unknown[];
    if (conflict) return false;
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
    return this.ds.transaction((em) => this.consume(em, nonce, systemDomainId, { cloud, requestId }));
  }
}
