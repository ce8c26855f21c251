import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { trustedReturn } from './return-address.js';
import { applyGroupMappings } from '../../accounts/groups/group-mappings.js';
import { normalizeEmail } from '../../base/common/validation/email-rules.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import type { AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { SignInAuthority, SignInRefusal, type TenantAuthenticator } from '../login/sign-in-authority.js';
import { type EmailRoute, FederationRepository } from './federation.repository.js';

/** The authenticator an email routes to, for the features that ask (their own repositories are their doors). */
export type { EmailRoute };

/** What a directory or an OpenID provider says of the person it verified. */
export interface FederatedIdentity {
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** Group names as the authenticator gives them (a directory's group DNs and their CNs, a claim's values). */
  groups: string[];
}

/**
 * What every federated authenticator (a domain's directory, its OpenID provider) does once it verified a
 * person: the SignInAuthority decides which account that is (an account the domain owns, by an email whose
 * domain the tenant verified, or one provisioned just in time), then the domain's group mappings apply. A
 * refusal is said to the log and the audit trail, never to the person (one answer for every failure).
 */
@Injectable()
export class FederatedSignIn {
  private readonly logger = new Logger('FederatedSignIn');

  constructor(
    private readonly authority: SignInAuthority,
    private readonly repo: FederationRepository,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) config: BaseConfig,
  ) {
    this.publicBaseUrl = config.http.publicBaseUrl;
  }

  private readonly publicBaseUrl: string;

  /** The account the authenticator may sign in (its id), or SignInRefusal with the reason. */
  async admit(
    by: TenantAuthenticator,
    who: FederatedIdentity,
    provision: boolean,
    origin: AuditOrigin,
  ): Promise<string> {
    if (!(await this.repo.domainLive(by.systemDomainId))) {
      await this.refused(by, 'the system domain is deactivated', origin);
      throw new SignInRefusal('the system domain is deactivated');
    }
    const email = normalizeEmail(who.email);
    const emailDomain = email.slice(email.lastIndexOf('@') + 1);
    const verified = await this.repo.emailDomainVerified(emailDomain, by.systemDomainId);
    try {
      const { userId } = await this.authority.vouch({
        by,
        email,
        firstName: who.firstName,
        lastName: who.lastName,
        link: null,
        emailDomainVerified: verified,
        provision,
        requestId: origin.requestId,
      });
      await this.repo.transaction((em) =>
        applyGroupMappings(em, this.events, {
          systemDomainId: by.systemDomainId,
          userId,
          names: who.groups,
          requestId: origin.requestId,
        }),
      );
      return userId;
    } catch (e) {
      if (e instanceof SignInRefusal) await this.refused(by, e.message, origin);
      throw e;
    }
  }

  /** A refusal on record: the log and the audit trail of the authenticator's domain, never the answer. */
  async refused(by: TenantAuthenticator, reason: string, origin: AuditOrigin): Promise<void> {
    this.logger.warn({ authenticator: by.id, kind: by.kind, reason }, 'federated sign-in refused');
    await this.audit.recordAlone(origin, {
      systemDomainId: by.systemDomainId,
      action: 'signin.failure',
      targetType: by.kind === 'directory' ? 'directory' : 'oidc_provider',
      targetId: by.id,
      outcome: 'failure',
      details: { method: by.kind, reason },
    });
  }

  /**
   * A return address the service trusts for a sign-in of this domain: a path of the service, its own origin,
   * or the domain's web app (its base_url's origin); anything else (and nothing) becomes the domain's web app.
   */
  async safeReturn(systemDomainId: string, wanted: string | null | undefined): Promise<string> {
    return trustedReturn(this.publicBaseUrl, await this.repo.domainBaseUrl(systemDomainId), wanted);
  }

  /** The authenticator an email's domain routes to (a verified binding, enabled, in a live domain), or null. */
  route(email: string): Promise<EmailRoute | null> {
    const at = email.lastIndexOf('@');
    return at > 0 ? this.repo.route(email.slice(at + 1).trim()) : Promise.resolve(null);
  }
}
