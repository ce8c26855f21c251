import { applyGroupMappings } from '../../accounts/groups/group-mappings.js';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../base/common/clock.js';
import { generateSecret, sha256Hex } from '../../base/common/crypto/secrets.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { SignInAuthority, SignInRefusal, type TenantAuthenticator } from '../login/sign-in-authority.js';
import { effectiveStatus } from '../../base/model/domain-status.js';
import type { LoginTokenDto, MultiDomainUserSystemDto } from '../../credentials/tokens/dto/token.dto.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type { IdentityProviderEntity } from '../../base/model/identity-provider.entity.js';
import { IdentityProvidersRepository } from './identity-providers.repository.js';
import { IdpErrors } from './identity-providers.errors.js';
import { spUrls } from './idp-view.js';
import { trustedReturn, withParam } from '../federation/return-address.js';
import { type AcceptedAssertion, SamlRefusal } from './saml.service.js';

/** How long the code the browser carries back may be exchanged. */
export const CODE_TTL_MS = 60_000;

/**
 * What follows a valid assertion: the SignInAuthority's decision on the person (a linked account, an account
 * of the IdP's domain by a verified email domain, or one provisioned just in time), a single-use code for
 * the web app, and its exchange for the Token through the authority. Also the routing of an email to the IdP
 * that serves its domain.
 */
@Injectable()
export class SsoLoginService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly clock: Clock,
    private readonly authority: SignInAuthority,
    private readonly events: WebhookEventsService,
    private readonly repo: IdentityProvidersRepository,
  ) {}

  /** The IdP serving an email's domain (enabled, in a live domain), or null. */
  async idpForEmail(email: string): Promise<IdentityProviderEntity | null> {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    const id = await this.repo.routedIdpId(domain);
    return id !== undefined ? this.repo.idp(id) : null;
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
    const d = await this.repo.domainOf(idp);
    if (!d) return [];
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
    return this.returnWithin(await this.repo.domainOf(idp), wanted);
  }

  /** safeReturn for the IdP's domain already read. */
  private returnWithin(d: { base_url: string } | null, wanted: string | null | undefined): string {
    return trustedReturn(this.config.http.publicBaseUrl, d?.base_url ?? null, wanted);
  }

  /**
   * After a valid assertion: the SignInAuthority decides which account it names (if any), then the single-use
   * code and where the browser goes with it. The IdP is its domain's: it vouches only for what that domain
   * owns, or for an account whose person linked this identity themselves.
   */
  async complete(
    idp: IdentityProviderEntity,
    a: AcceptedAssertion,
    requestId: string | null,
  ): Promise<string> {
    const domain = await this.repo.domainOf(idp);
    if (!domain || effectiveStatus(domain, this.clock.now()) === 'DEACTIVATED') {
      throw new SamlRefusal('the system domain is deactivated');
    }
    const email = a.email.toLowerCase();
    const emailDomain = email.slice(email.lastIndexOf('@') + 1);
    const [link, bound] = await Promise.all([
      this.repo.linkedUser(idp.id, email),
      this.repo.isDomainBound(emailDomain, idp.id),
    ]);
    const { userId } = await this.authority
      .vouch({
        by: this.authenticator(idp),
        email,
        firstName: a.firstName,
        lastName: a.lastName,
        link: link ?? null,
        emailDomainVerified: bound,
        provision: idp.settings.jit_provisioning === true,
        requestId,
      })
      .catch((e: unknown) => {
        throw e instanceof SignInRefusal ? new SamlRefusal(e.message) : e;
      });
    await this.repo.transaction((em) =>
      applyGroupMappings(em, this.events, {
        systemDomainId: idp.system_domain_id,
        userId,
        names: a.groups,
        requestId,
      }),
    );
    const code = generateSecret();
    await this.repo.insertLoginCode({
      code_sha256: sha256Hex(code),
      user_id: userId,
      system_domain_id: idp.system_domain_id,
      identity_provider_id: idp.id,
      expires: new Date(this.clock.now().getTime() + CODE_TTL_MS),
    });
    const back = this.returnWithin(domain, a.returnTo);
    return withParam(back, 'saml_code', code);
  }

  /**
   * The code → the Token; it works once, for a minute, and only while the IdP is enabled and the authority
   * still lets it vouch for the user (judged again now: membership, status, ownership or the person's link).
   */
  async exchange(code: string): Promise<LoginTokenDto> {
    const row = await this.repo.takeLoginCode(sha256Hex(code));
    if (!row || new Date(row.expires).getTime() <= this.clock.now().getTime()) throw IdpErrors.CODE_INVALID();
    const idp = await this.repo.idp(row.identity_provider_id);
    if (!idp?.enabled) throw IdpErrors.CODE_INVALID();
    const selfLinked = await this.repo.selfLinked(idp.id, row.user_id);
    return this.authority.tenantSession(this.authenticator(idp), row.user_id, selfLinked, () =>
      IdpErrors.CODE_INVALID(),
    );
  }

  private authenticator(idp: IdentityProviderEntity): TenantAuthenticator {
    return { kind: 'saml', id: idp.id, systemDomainId: idp.system_domain_id };
  }
}
