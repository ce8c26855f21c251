import { applyGroupMappings } from '../groups/group-mappings.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock.js';
import { generateSecret, sha256Hex } from '../common/crypto/secrets.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { SignInService } from '../login/sign-in.service.js';
import { effectiveStatus } from '../system-domains/domain-status.js';
import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import type { LoginTokenDto, MultiDomainUserSystemDto } from '../tokens/dto/token.dto.js';
import { assertSeat, lockDomain } from '../users/seat-limits.js';
import { UserSystemDomainEntity } from '../users/user-system-domain.entity.js';
import { userView } from '../users/user-view.js';
import { UserEntity } from '../users/user.entity.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import { IdentityProviderEntity, SamlLoginCodeEntity } from './identity-provider.entity.js';
import { IdentityProvidersRepository } from './identity-providers.repository.js';
import { IdpErrors } from './identity-providers.errors.js';
import { spUrls } from './idp-view.js';
import { type AcceptedAssertion, SamlRefusal } from './saml.service.js';

/** How long the code the browser carries back may be exchanged. */
export const CODE_TTL_MS = 60_000;

/**
 * What follows a valid assertion: the person (a member of the IdP's domain by email, or provisioned just in
 * time when the IdP allows it), a single-use code for the web app, and its exchange for the Token through
 * SignInService. Also the routing of an email to the IdP that serves its domain.
 */
@Injectable()
export class SsoLoginService {
  private readonly logger = new Logger('SAML');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly signIn: SignInService,
    private readonly events: WebhookEventsService,
    private readonly repo: IdentityProvidersRepository,
  ) {}

  /** The IdP serving an email's domain (enabled, in a live domain), or null. */
  async idpForEmail(email: string): Promise<IdentityProviderEntity | null> {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    const id = await this.repo.routedIdpId(domain);
    return id !== undefined ? this.ds.getRepository(IdentityProviderEntity).findOneByOrFail({ id }) : null;
  }

  /** `{url}` that starts SSO for this email (404 when no IdP serves its domain). */
  async loginUrl(email: string, returnTo?: string): Promise<{ url: string }> {
    const idp = await this.idpForEmail(email);
    if (!idp) throw IdpErrors.NO_IDP_FOR_EMAIL();
    const sso = spUrls(this.config, idp.public_id).sso;
    return { url: returnTo ? `${sso}?return_to=${encodeURIComponent(returnTo)}` : sso };
  }

  /** The domains offering SSO to this email (at most one: a domain name is bound to one IdP). */
  async multiDomain(email: string): Promise<MultiDomainUserSystemDto[]> {
    const idp = await this.idpForEmail(email);
    if (!idp) return [];
    const d = await this.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: idp.system_domain_id });
    const sso = spUrls(this.config, idp.public_id).sso;
    return [
      {
        system_domain_id: d.id,
        system_domain_name: d.name,
        logo_url: null,
        platform_url: d.base_url,
        url: sso,
      },
    ];
  }

  /**
   * A return address the service trusts: its own origin, or the web app of the IdP's domain (its base_url's
   * origin); anything else (and nothing) becomes the domain's web app.
   */
  async safeReturn(idp: IdentityProviderEntity, wanted: string | null | undefined): Promise<string> {
    const d = await this.ds.getRepository(SystemDomainEntity).findOneBy({ id: idp.system_domain_id });
    const own = new URL(this.config.http.publicBaseUrl).origin;
    const app = originOf(d?.base_url ?? '');
    const fallback = app ? d!.base_url : `${own}/`;
    if (!wanted || wanted.length > 2000) return fallback;
    if (wanted.startsWith('/') && !wanted.startsWith('//') && !wanted.includes('\\'))
      return `${own}${wanted}`;
    const origin = originOf(wanted);
    return origin && (origin === own || origin === app) ? wanted : fallback;
  }

  /** After a valid assertion: the person, then the single-use code and where the browser goes with it. */
  async complete(
    idp: IdentityProviderEntity,
    a: AcceptedAssertion,
    requestId: string | null,
  ): Promise<string> {
    // an identity the domain's administrator gave a user (users/{id}/saml/) names that user outright;
    // otherwise the asserted email's domain must be bound to this IdP
    const linked = await this.repo.linkedUserId(idp.id, a.email.toLowerCase());
    const domainPart = a.email.slice(a.email.lastIndexOf('@') + 1);
    if (!linked && !(await this.repo.isDomainBound(domainPart, idp.id)))
      throw new SamlRefusal(`email domain ${domainPart} is not bound to this identity provider`);
    const domain = await this.ds.getRepository(SystemDomainEntity).findOneBy({ id: idp.system_domain_id });
    if (!domain || effectiveStatus(domain, this.clock.now()) === 'DEACTIVATED') {
      throw new SamlRefusal('the system domain is deactivated');
    }
    const userId = await this.person(idp, a, requestId, linked ?? null);
    await this.ds.transaction((em) =>
      applyGroupMappings(em, this.events, {
        systemDomainId: idp.system_domain_id,
        userId,
        names: a.groups,
        requestId,
      }),
    );
    const code = generateSecret();
    await this.ds.getRepository(SamlLoginCodeEntity).insert({
      code_sha256: sha256Hex(code),
      user_id: userId,
      system_domain_id: idp.system_domain_id,
      identity_provider_id: idp.id,
      expires: new Date(this.clock.now().getTime() + CODE_TTL_MS),
    });
    const back = await this.safeReturn(idp, a.returnTo);
    return `${back}${back.includes('?') ? '&' : '?'}saml_code=${encodeURIComponent(code)}`;
  }

  /** The code → the Token; it works once, for a minute, and only while user, domain and IdP still may. */
  async exchange(code: string): Promise<LoginTokenDto> {
    const row = await this.repo.takeLoginCode(sha256Hex(code));
    if (!row || new Date(row.expires).getTime() <= this.clock.now().getTime()) throw IdpErrors.CODE_INVALID();
    const idp = await this.ds
      .getRepository(IdentityProviderEntity)
      .findOneBy({ id: row.identity_provider_id });
    const user = await this.ds.getRepository(UserEntity).findOneBy({ id: row.user_id });
    if (!idp?.enabled || !user) throw IdpErrors.CODE_INVALID();
    return this.signIn.signInToDomain(user, row.system_domain_id, () => IdpErrors.CODE_INVALID());
  }

  /**
   * The user the assertion names (`linkedUserId`: by the identity set on them), an existing ACTIVE member of
   * the IdP's domain, or a new user when the IdP provisions just in time.
   */
  private async person(
    idp: IdentityProviderEntity,
    a: AcceptedAssertion,
    requestId: string | null,
    linkedUserId: string | null,
  ): Promise<string> {
    return this.ds.transaction(async (em) => {
      await lockDomain(em, idp.system_domain_id);
      const user = await em
        .getRepository(UserEntity)
        .findOneBy(linkedUserId ? { id: linkedUserId } : { email: a.email });
      if (user) {
        const member = await em.existsBy(UserSystemDomainEntity, {
          user_id: user.id,
          system_domain_id: idp.system_domain_id,
        });
        if (!member)
          throw new SamlRefusal('the user exists but is not a member of the identity provider’s domain');
        if (user.status !== 'ACTIVE') throw new SamlRefusal('the user is not active');
        return user.id;
      }
      if (idp.settings.jit_provisioning !== true)
        throw new SamlRefusal('unknown user, and just-in-time provisioning is off');
      try {
        await assertSeat(em, idp.system_domain_id, 'STANDARD', { now: this.clock.now(), countPending: true });
      } catch {
        throw new SamlRefusal('no seat left in the domain for a new user');
      }
      const created = em.create(UserEntity, {
        email: a.email,
        first_name: a.firstName,
        last_name: a.lastName,
        password_hash: null,
        status: 'ACTIVE',
        type: 'STANDARD',
        is_super_admin: false,
        system_domain_id: idp.system_domain_id,
        last_login: null,
      });
      await em.insert(UserEntity, created);
      await em.insert(UserSystemDomainEntity, {
        user_id: created.id,
        system_domain_id: idp.system_domain_id,
        is_admin: false,
      });
      this.logger.log(
        { identity_provider_id: idp.id, user_id: created.id },
        'SAML: user provisioned just in time',
      );
      await this.events.record(em, {
        systemDomainId: idp.system_domain_id,
        objectId: created.id,
        realm: 'user',
        operation: 'create',
        eventType: 'users',
        data: { ...userView(created, idp.system_domain_id, false) },
        requestId,
      });
      return created.id;
    });
  }
}

function originOf(u: string): string | null {
  try {
    const url = new URL(u);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}
