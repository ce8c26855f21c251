import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { AccessService } from '../../base/common/auth/access.service.js';
import { generateSecret } from '../../base/common/crypto/secrets.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { fromAuth } from '../../delivery/audit/audit-origin.js';
import type { DomainBindingDto, DomainIdentityProviderMapDto } from './dto/identity-provider.dto.js';
import { DnsTxt, DnsUnavailableError } from './dns-txt.js';
import type { IdentityProviderDomainEntity } from '../../base/model/identity-provider.entity.js';
import {
  AUTHENTICATOR_COLUMNS,
  type BindingKey,
  DomainBindingsRepository,
} from './domain-bindings.repository.js';
import { IdpErrors } from './identity-providers.errors.js';
import { bindingView, CHALLENGE_PREFIX, CHALLENGE_VALUE } from './idp-view.js';

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * The email domains routed to IdPs (docs/saml.md, Domain verification). A domain administrator claims a name
 * for one of the domain's IdPs and gets a DNS challenge; the binding routes people and provisions them only
 * once verified, by the TXT record or by a super administrator's decision (`force`). A name that people of
 * other domains, or a super administrator, use is bound by that decision only; a super administrator may
 * remove any binding.
 */
@Injectable()
export class DomainBindingsService {
  private readonly logger = new Logger('SAML');

  constructor(
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly repo: DomainBindingsRepository,
    private readonly dns: DnsTxt,
  ) {}

  /**
   * Binds an email domain name to one of the caller's authenticators (a SAML IdP, a directory or an OpenID
   * provider): unverified, with its challenge (or forced).
   */
  async bind(auth: AuthContext, body: DomainIdentityProviderMapDto): Promise<DomainBindingDto> {
    const domain = domainName(body.domain);
    if (body.force && !auth.isSuperAdmin) throw IdpErrors.FORCE_FORBIDDEN();
    const named = AUTHENTICATOR_COLUMNS.filter((c) => body[c] !== undefined);
    if (named.length !== 1) {
      const why = 'name exactly one of identity_provider_id, directory_id, oidc_provider_id';
      throw IdpErrors.INVALID({ [named[1] ?? 'identity_provider_id']: why });
    }
    const column = named[0];
    const id = body[column]!;
    if (column === 'identity_provider_id') await this.access.require(auth, 'identity_provider', [id]);
    const owner = await this.repo.authenticatorOfDomain(column, id, auth.systemDomainId);
    if (!owner) throw IdpErrors.NOT_FOUND();
    if (body.system_domain_id !== undefined && body.system_domain_id !== owner.system_domain_id) {
      throw IdpErrors.INVALID({ system_domain_id: 'must be the authenticator’s system domain' });
    }
    const forced = body.force === true;
    return this.repo.transaction(async (em) => {
      const key = { domain, system_domain_id: owner.system_domain_id };
      const own = await this.repo.binding(key, em);
      if (own && own[column] !== id) throw IdpErrors.DOMAIN_TAKEN();
      if (!own || (forced && !own.verified_at)) {
        if (await this.repo.verifiedElsewhere(em, domain, owner.system_domain_id))
          throw IdpErrors.DOMAIN_FOREIGN();
      }
      if (!own) {
        // the name reaches people this domain does not hold alone: not its administrators' to claim
        if (!forced && (await this.repo.contestedUsers(em, domain, owner.system_domain_id)) > 0)
          throw IdpErrors.DOMAIN_CONTESTED();
        await this.repo.claim(em, {
          ...key,
          identity_provider_id: null,
          directory_id: null,
          oidc_provider_id: null,
          [column]: id,
          verified_at: null,
          challenge_token: generateSecret(),
        });
        await this.record(em, auth, key, { operation: 'bind', [column]: id });
      }
      if (forced && !own?.verified_at) await this.verified(em, auth, key, 'decision');
      return bindingView(await this.repo.bindingOrFail(em, key));
    });
  }

  /**
   * Verifies a binding: the TXT record `_portcullis-challenge.<domain>` must carry its value, or a super
   * administrator decides (`force`). The caller's domain's binding, or (super administrators) another's.
   */
  async verify(
    auth: AuthContext,
    name: string,
    body: { force?: boolean; system_domain_id?: string },
  ): Promise<DomainBindingDto> {
    if (body.force && !auth.isSuperAdmin) throw IdpErrors.FORCE_FORBIDDEN();
    const key = {
      domain: name.trim().toLowerCase(),
      system_domain_id: this.whose(auth, body.system_domain_id),
    };
    const binding = await this.repo.binding(key);
    if (!binding) throw IdpErrors.DOMAIN_NOT_FOUND();
    if (binding.verified_at) return bindingView(binding);
    if (await this.repo.verifiedElsewhere(this.repo.manager, key.domain, key.system_domain_id))
      throw IdpErrors.DOMAIN_FOREIGN();
    if (!body.force) await this.proven(binding);
    return this.repo.transaction(async (em) => {
      await this.verified(em, auth, key, body.force ? 'decision' : 'dns');
      return bindingView(await this.repo.bindingOrFail(em, key));
    });
  }

  /**
   * Unbinds a name: the caller's domain's binding; a super administrator's call, any domain's named by
   * `system_domain_id`, or without it the name's bindings in every domain.
   */
  async unbind(auth: AuthContext, domain: string, systemDomainId?: string): Promise<void> {
    const name = domain.trim().toLowerCase();
    const everywhere = auth.isSuperAdmin && systemDomainId === undefined;
    await this.repo.transaction(async (em) => {
      const rows = await this.repo.bindingsNamed(
        em,
        name,
        everywhere ? undefined : this.whose(auth, systemDomainId),
      );
      if (!rows.length) throw IdpErrors.DOMAIN_NOT_FOUND();
      for (const row of rows) {
        await this.repo.removeBinding(em, { domain: name, system_domain_id: row.system_domain_id });
        await this.record(em, auth, row, { operation: 'unbind' });
      }
    });
  }

  /** The domain whose binding a call names: the caller's, or any for a super administrator (else not found). */
  private whose(auth: AuthContext, systemDomainId: string | undefined): string {
    if (systemDomainId === undefined || systemDomainId === auth.systemDomainId) return auth.systemDomainId;
    if (!auth.isSuperAdmin) throw IdpErrors.DOMAIN_NOT_FOUND();
    return systemDomainId;
  }

  /** The TXT record is there, or the right refusal: not (yet) published (409), the resolvers failed (503). */
  private async proven(binding: IdentityProviderDomainEntity): Promise<void> {
    const record = `${CHALLENGE_PREFIX}${binding.domain}`;
    let values: string[];
    try {
      values = await this.dns.lookup(record);
    } catch (e) {
      if (!(e instanceof DnsUnavailableError)) throw e;
      this.logger.warn({ record, reason: e.message }, 'SAML: domain verification lookup failed');
      throw IdpErrors.DNS_UNAVAILABLE();
    }
    if (!values.some((v) => v.trim() === `${CHALLENGE_VALUE}${binding.challenge_token}`))
      throw IdpErrors.NOT_VERIFIED(record);
  }

  /** Marks it verified, with the audit record; another domain's verified binding of the name wins (409). */
  private async verified(
    em: EntityManager,
    auth: AuthContext,
    key: BindingKey,
    method: 'dns' | 'decision',
  ): Promise<void> {
    try {
      await this.repo.markVerified(em, key.domain, key.system_domain_id);
    } catch (e) {
      throw isUniqueViolation(e) ? IdpErrors.DOMAIN_FOREIGN() : e;
    }
    await this.record(em, auth, key, { operation: 'verify', method });
  }

  /** The audit record, in the binding's own domain's trail (a super administrator's change shows there). */
  private record(
    em: EntityManager,
    auth: AuthContext,
    key: BindingKey,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(em, fromAuth(auth), {
      systemDomainId: key.system_domain_id,
      action: 'identity_provider.changed',
      targetType: 'email_domain',
      targetId: key.domain,
      outcome: 'success',
      details,
    });
  }
}

function domainName(raw: string): string {
  const domain = raw.trim().toLowerCase();
  if (!DOMAIN_NAME.test(domain))
    throw IdpErrors.INVALID({ domain: 'must be a domain name, e.g. example.com' });
  return domain;
}
