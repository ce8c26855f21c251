import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager } from 'typeorm';
import { returningRows } from '../../base/database/returning-rows.js';

/** A new signup nonce (its SHA-256 only) for a verified marketplace token. */
export interface NonceValues {
  cloud: string;
  jti: string;
  nonceSha256: string;
  customerId: string;
  entitlementId: string;
  tokenExpires: Date;
  expires: Date;
  at: Date;
}

/** What a claimed nonce records on a domain. */
export interface ClaimedNonce {
  cloud: string;
  customer_id: string;
  entitlement_id: string;
}

/**
 * Every statement of marketplace signup (marketplace_nonces and the domains' marketplace ids), so
 * MarketplaceService holds the rules (single use, cloud match, one customer per domain) and can be unit-tested
 * with a fake of this class. Writes that belong to a larger change take the transaction's EntityManager.
 */
@Injectable()
export class MarketplaceRepository extends FeatureRepository {
  /** Stores a nonce; throws the unique violation when the token (cloud, jti) was exchanged before. */
  async insertNonce(v: NonceValues): Promise<void> {
    // raw: the caller tells a replayed token by the unique violation this INSERT raises (isUniqueViolation)
    await this.ds.query(
      `INSERT INTO marketplace_nonces
         (cloud, jti, nonce_sha256, customer_id, entitlement_id, token_expires, expires, date_created)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [v.cloud, v.jti, v.nonceSha256, v.customerId, v.entitlementId, v.tokenExpires, v.expires, v.at],
    );
  }

  /** Deletes unused nonces whose nonce and token both ended before `before`. */
  async deleteEnded(before: Date): Promise<void> {
    // raw: two columns compared with one parameter, a plain DELETE kept beside the INSERT it follows
    await this.ds.query(
      'DELETE FROM marketplace_nonces WHERE used_at IS NULL AND expires < $1 AND token_expires < $1',
      [before],
    );
  }

  async isUsable(nonceSha256: string, now: Date): Promise<boolean> {
    // raw: an existence test (SELECT 1) on the unique hash, no entity materialised
    const rows: unknown[] = await this.ds.query(
      'SELECT 1 FROM marketplace_nonces WHERE nonce_sha256 = $1 AND used_at IS NULL AND expires > $2',
      [nonceSha256, now],
    );
    return rows.length > 0;
  }

  /** Claims a live nonce for a domain: what it carries, or undefined when it cannot be claimed. */
  async claim(
    em: EntityManager,
    nonceSha256: string,
    now: Date,
    systemDomainId: string,
  ): Promise<ClaimedNonce | undefined> {
    // raw: a compare-and-set UPDATE … RETURNING (of two racing consumers exactly one gets the row)
    const [claimed] = returningRows<ClaimedNonce>(
      await em.query(
        `UPDATE marketplace_nonces SET used_at = $2, system_domain_id = $3
          WHERE nonce_sha256 = $1 AND used_at IS NULL AND expires > $2
          RETURNING cloud, customer_id, entitlement_id`,
        [nonceSha256, now, systemDomainId],
      ),
    );
    return claimed;
  }

  /** The domain's marketplace customer, its row locked for the transaction; undefined: no such domain. */
  async lockDomainCustomer(
    em: EntityManager,
    systemDomainId: string,
  ): Promise<{ marketplace_customer_id: string | null } | undefined> {
    // raw: SELECT … FOR UPDATE of one column
    const [domain] = (await em.query(
      'SELECT marketplace_customer_id FROM system_domains WHERE id = $1 FOR UPDATE',
      [systemDomainId],
    )) as { marketplace_customer_id: string | null }[];
    return domain;
  }

  async linkDomain(
    em: EntityManager,
    systemDomainId: string,
    claimed: ClaimedNonce,
    at: Date,
  ): Promise<void> {
    // raw: date_modified set to the service clock's time explicitly (the repository API would write now())
    await em.query(
      `UPDATE system_domains
          SET marketplace_customer_id = $2, marketplace_entitlement_id = $3, date_modified = $4
        WHERE id = $1`,
      [systemDomainId, claimed.customer_id, claimed.entitlement_id, at],
    );
  }

  /** Whether the user administers the domain (super administrators administer every domain). */
  async administers(em: EntityManager, userId: string, domainId: string): Promise<boolean> {
    // raw: a LEFT JOIN answering false for a non-member in one round trip
    const [row] = (await em.query(
      `SELECT (u.is_super_admin OR COALESCE(m.is_admin, false)) AS admin FROM users u
         LEFT JOIN user_system_domains m ON m.user_id = u.id AND m.system_domain_id = $2 WHERE u.id = $1`,
      [userId, domainId],
    )) as { admin: boolean }[];
    return row?.admin === true;
  }

  /** Whether the domain is linked to a customer other than the nonce's. */
  async linkedElsewhere(em: EntityManager, nonceSha256: string, domainId: string): Promise<boolean> {
    // raw: a join on a parameter (d.id = $2) comparing two tables' customer ids, existence only
    const [conflict] = (await em.query(
      `SELECT 1 FROM marketplace_nonces n JOIN system_domains d ON d.id = $2
        WHERE n.nonce_sha256 = $1 AND d.marketplace_customer_id IS NOT NULL
          AND d.marketplace_customer_id <> n.customer_id`,
      [nonceSha256, domainId],
    )) as unknown[];
    return conflict !== undefined;
  }
}
