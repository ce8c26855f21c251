import { Injectable } from '@nestjs/common';
import { IsNull, Not } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { liveDomainSql } from '../../base/model/domain-status.js';
import { IdentityProviderDomainEntity } from '../../base/model/identity-provider.entity.js';

/** The authenticator a verified email domain routes to (enabled, in a live domain). */
export type EmailRoute =
  | { kind: 'saml'; id: string; systemDomainId: string }
  | { kind: 'directory'; id: string; systemDomainId: string }
  | { kind: 'oidc'; id: string; systemDomainId: string };

/** What federated sign-in reads of email domain bindings (the bindings themselves: DomainBindingsService). */
@Injectable()
export class FederationRepository extends FeatureRepository {
  /**
   * Whether `emailDomain` is bound to `systemDomainId` and verified (DNS, or a super administrator's
   * decision): the tenant proved the name is its own, whichever of its authenticators the name routes to.
   */
  emailDomainVerified(emailDomain: string, systemDomainId: string): Promise<boolean> {
    return this.ds.getRepository(IdentityProviderDomainEntity).existsBy({
      domain: emailDomain.toLowerCase(),
      system_domain_id: systemDomainId,
      verified_at: Not(IsNull()),
    });
  }

  /** Whether a system domain is live (not deactivated, also by date). */
  async domainLive(systemDomainId: string): Promise<boolean> {
    // raw: the deactivation date compared to the database's now(), as every sign-in's domain list does
    const rows = (await this.ds.query(
      `SELECT 1 FROM system_domains d WHERE d.id = $1 AND ${liveDomainSql('d')}`,
      [systemDomainId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** A domain's web app address (base_url), for the return addresses its authenticators may send people to. */
  async domainBaseUrl(systemDomainId: string): Promise<string | null> {
    const rows = (await this.ds.query('SELECT base_url FROM system_domains WHERE id = $1', [
      systemDomainId,
    ])) as {
      base_url: string | null;
    }[];
    return rows[0]?.base_url ?? null;
  }

  /** The authenticator an email domain routes to: its verified binding's, if enabled in a live domain. */
  async route(emailDomain: string): Promise<EmailRoute | null> {
    // raw: one binding joined to whichever of three authenticator tables it names, and the domain's status
    const rows = (await this.ds.query(
      `SELECT CASE WHEN b.identity_provider_id IS NOT NULL THEN 'saml'
                   WHEN b.directory_id IS NOT NULL THEN 'directory' ELSE 'oidc' END AS kind,
              coalesce(b.identity_provider_id, b.directory_id, b.oidc_provider_id) AS id,
              b.system_domain_id AS "systemDomainId"
         FROM identity_provider_domains b
         JOIN system_domains d ON d.id = b.system_domain_id
         LEFT JOIN identity_providers i ON i.id = b.identity_provider_id
         LEFT JOIN directories r ON r.id = b.directory_id
         LEFT JOIN oidc_providers o ON o.id = b.oidc_provider_id
        WHERE b.domain = $1 AND b.verified_at IS NOT NULL AND ${liveDomainSql('d')}
          AND coalesce(i.enabled, r.enabled, o.enabled)`,
      [emailDomain.toLowerCase()],
    )) as EmailRoute[];
    return rows[0] ?? null;
  }
}
