import { Injectable } from '@nestjs/common';
import type { LoginTokenDto } from '../../../credentials/tokens/dto/token.dto.js';
import type { AuditOrigin } from '../../../delivery/audit/audit-origin.js';
import { DirectoryLoginService } from '../../directories/directory-login.service.js';
import { FederatedSignIn } from '../../federation/federated-sign-in.service.js';
import { SsoLoginService } from '../../identity-providers/sso-login.service.js';
import { OidcLoginService } from '../../oidc-providers/oidc-login.service.js';

/** Where the email step of the consent page goes: away to an IdP or provider, or the directory's password form. */
export type EmailStep = { url: string } | { directory: string } | null;

/** The sign-in choices of an application's domain on its consent page ("Continue with …"). */
export interface FederatedChoices {
  providers: { id: string; name: string }[];
  directories: { name: string }[];
}

/**
 * The consent page's federated sign-in (docs/federated-login.md): the email step routed by the email's
 * verified domain (its SAML IdP, its OpenID provider, or its directory's password form), the "Continue with …"
 * choices of the application's domain, and the returns and password checks that end in a Token. Every refusal
 * comes back as null or an ApiError for ConsentFlow to show on the page.
 */
@Injectable()
export class ConsentFederation {
  constructor(
    private readonly federated: FederatedSignIn,
    private readonly sso: SsoLoginService,
    private readonly oidc: OidcLoginService,
    private readonly directories: DirectoryLoginService,
  ) {}

  /** The email's single sign-on: a URL to send the browser to, a directory's name (its form), or null. */
  async emailStep(email: string, back: string): Promise<EmailStep> {
    const route = await this.federated.route(email);
    if (route?.kind === 'saml') return this.sso.loginUrl(email, back);
    if (route?.kind === 'oidc') return this.oidc.start({ email, returnTo: back });
    if (route?.kind === 'directory') {
      const d = await this.directories.directoryOf(route);
      return d ? { directory: d.name } : null;
    }
    return null;
  }

  /** The application's domain's OpenID providers and directories, for its "Continue with …" buttons. */
  async choices(systemDomainId: string): Promise<FederatedChoices> {
    const [providers, directories] = await Promise.all([
      this.oidc.providersOf(systemDomainId),
      this.directories.enabledOf(systemDomainId),
    ]);
    return {
      providers: providers.map((p) => ({ id: p.id, name: p.name })),
      directories: directories.slice(0, 1).map((d) => ({ name: d.name })),
    };
  }

  /** "Continue with" one of the application's domain's providers: its authorization URL (null: not one). */
  async startProvider(
    providerId: string,
    systemDomainId: string,
    back: string,
  ): Promise<{ url: string } | null> {
    const ours = (await this.oidc.providersOf(systemDomainId)).some((p) => p.id === providerId);
    return ours ? this.oidc.start({ providerId, returnTo: back }) : null;
  }

  /**
   * The directory's password form: the directory the email routes to, else the application's domain's. The
   * Token form (a temporary token where the domain's second factor is owed).
   */
  directoryLogin(
    email: string,
    password: string,
    appDomainId: string,
    origin: AuditOrigin,
  ): Promise<LoginTokenDto> {
    return this.directories.login({ email, password }, origin, appDomainId);
  }

  /** The OpenID provider's return: its single-use code → the Token form. */
  oauthReturn(code: string, origin: AuditOrigin): Promise<LoginTokenDto> {
    return this.oidc.exchange(code, origin);
  }
}
