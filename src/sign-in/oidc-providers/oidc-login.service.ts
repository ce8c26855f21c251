import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomPKCECodeVerifier } from 'openid-client';
import { Clock } from '../../base/common/clock.js';
import { generateSecret, sha256Hex } from '../../base/common/crypto/secrets.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import type { ConfigOf } from '../../base/config/namespace.js';
import { KeyEncryption } from '../../base/keys/key-encryption.js';
import type { OidcProviderEntity } from '../../base/model/federation.entity.js';
import type { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import type { AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { FederatedSignIn } from '../federation/federated-sign-in.service.js';
import { FEDERATION_CONFIG } from '../federation/federation-config.js';
import { withParam } from '../federation/return-address.js';
import { SignInAuthority, SignInRefusal, type TenantAuthenticator } from '../login/sign-in-authority.js';
import { OidcProvidersRepository } from './oidc-providers.repository.js';
import { OidcProviderErrors } from './oidc-providers.errors.js';
import { OidcProvidersService } from './oidc-providers.service.js';
import { OidcRelyingParty, ProviderRefusal, ProviderUnavailable } from './oidc-relying-party.js';

/** How long a sign-in sent to a provider may take to come back. */
const STATE_TTL_MS = 10 * 60_000;
/** How long the code the browser carries back may be exchanged. */
const CODE_TTL_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sign-in through a domain's external OpenID provider (docs/federated-login.md): the start (the provider the
 * email's verified domain routes to, or the one named) sends the browser to the provider with PKCE S256, a
 * state and a nonce, kept server-side (the state hashed, the verifier sealed) and taken once; the callback
 * checks everything (openid-client: the code exchange, the id_token's signature from the provider's JWKS, iss,
 * aud, exp, nonce; here: `email_verified`), lets the SignInAuthority decide the account, and returns the
 * browser with a single-use code, which POST auth/oauth/login/ {code} exchanges for the Token.
 */
@Injectable()
export class OidcLoginService {
  private readonly logger = new Logger('OidcLogin');
  private readonly rp: OidcRelyingParty;
  private readonly sealer: KeyEncryption;
  private swept = 0;

  constructor(
    @Inject(APP_CONFIG) config: BaseConfig,
    @Inject(FEDERATION_CONFIG.token) federation: ConfigOf<typeof FEDERATION_CONFIG>,
    private readonly providers: OidcProvidersService,
    private readonly repo: OidcProvidersRepository,
    private readonly federated: FederatedSignIn,
    private readonly authority: SignInAuthority,
    private readonly clock: Clock,
  ) {
    this.rp = new OidcRelyingParty({
      allowPrivate: federation.allowPrivate,
      allowHttp: federation.allowHttpIssuers,
      timeoutMs: 10_000,
    });
    this.sealer = KeyEncryption.fromConfig(config, 'oidc-login-state');
  }

  /** The enabled provider an email's verified domain routes to, or null. */
  async providerForEmail(email: string): Promise<OidcProviderEntity | null> {
    const route = await this.federated.route(email);
    if (route?.kind !== 'oidc') return null;
    const p = await this.repo.withSecret({ id: route.id });
    return p?.enabled ? p : null;
  }

  /** The domain's enabled providers (the sign-in pages' "Continue with …" buttons). */
  providersOf(systemDomainId: string): Promise<OidcProviderEntity[]> {
    return this.repo.enabledOf(systemDomainId);
  }

  /** `{url}` of the provider's authorization endpoint for a new sign-in (404: no such provider). */
  async start(o: {
    email?: string;
    providerId?: string;
    returnTo?: string | null;
  }): Promise<{ url: string }> {
    const provider = o.providerId
      ? await this.repo.withSecret({ id: o.providerId })
      : await this.providerForEmail(o.email ?? '');
    if (!provider?.enabled) throw OidcProviderErrors.NO_PROVIDER();
    await this.sweep();
    const state = generateSecret();
    const nonce = generateSecret();
    const codeVerifier = randomPKCECodeVerifier();
    await this.repo.insertState({
      state_sha256: sha256Hex(state),
      oidc_provider_id: provider.id,
      code_verifier_sealed: this.sealer.encrypt(codeVerifier),
      nonce,
      return_to: o.returnTo ?? null,
      expires: new Date(this.clock.now().getTime() + STATE_TTL_MS),
    });
    try {
      const url = await this.rp.authorizationUrl(this.client(provider), {
        redirectUri: this.providers.redirectUri(provider.public_id),
        scope: provider.scopes.join(' '),
        state,
        nonce,
        codeVerifier,
      });
      return { url };
    } catch (e) {
      throw this.answer(provider, e);
    }
  }

  /**
   * The provider's return (`query`: the callback's query string): where the browser goes next, with the
   * single-use `oauth_code`. Any failed check is one 401 (the log and the audit trail say which).
   */
  async callback(publicId: string, query: string, origin: AuditOrigin): Promise<string> {
    const provider = UUID.test(publicId) ? await this.repo.withSecret({ public_id: publicId }) : null;
    if (!provider) throw OidcProviderErrors.NOT_FOUND();
    const redirectUri = this.providers.redirectUri(provider.public_id);
    const current = new URL(`${redirectUri}?${query}`);
    const state = current.searchParams.get('state');
    const pending = state ? await this.repo.takeState(sha256Hex(state), provider.id) : undefined;
    const by = this.authenticator(provider);
    if (!pending || new Date(pending.expires).getTime() <= this.clock.now().getTime() || !provider.enabled) {
      await this.federated.refused(
        by,
        'unknown, used or expired state (or the provider is disabled)',
        origin,
      );
      throw OidcProviderErrors.REFUSED();
    }
    let claims: Record<string, unknown>;
    try {
      claims = await this.rp.callback(this.client(provider), current, {
        state: state!,
        nonce: pending.nonce,
        codeVerifier: this.sealer.decrypt(pending.code_verifier_sealed),
        redirectUri,
      });
    } catch (e) {
      throw await this.refusal(provider, e, origin);
    }
    const settings = this.providers.settingsOf(provider);
    const email =
      typeof claims[settings.claims.email] === 'string' ? (claims[settings.claims.email] as string) : null;
    if (!email || !/^[^\s@<>"]+@[^\s@<>"]+$/.test(email) || email.length > 254) {
      throw await this.refusal(provider, new ProviderRefusal('no usable email claim'), origin);
    }
    if (claims.email_verified !== true) {
      throw await this.refusal(
        provider,
        new ProviderRefusal('the provider has not verified the email'),
        origin,
      );
    }
    let userId: string;
    try {
      userId = await this.federated.admit(
        by,
        {
          email,
          firstName: text(claims[settings.claims.first_name]),
          lastName: text(claims[settings.claims.last_name]),
          groups: names(claims[settings.claims.groups]),
        },
        settings.jit_provisioning,
        origin,
      );
    } catch (e) {
      if (e instanceof SignInRefusal) throw OidcProviderErrors.REFUSED();
      throw e;
    }
    const code = generateSecret();
    await this.repo.insertCode({
      code_sha256: sha256Hex(code),
      user_id: userId,
      system_domain_id: provider.system_domain_id,
      oidc_provider_id: provider.id,
      expires: new Date(this.clock.now().getTime() + CODE_TTL_MS),
    });
    return withParam(
      await this.federated.safeReturn(provider.system_domain_id, pending.return_to),
      'oauth_code',
      code,
    );
  }

  /**
   * The code → the Token; it works once, for a minute, and only while the provider is enabled and the authority
   * still lets it vouch for the user (judged again now).
   */
  async exchange(code: string, origin: AuditOrigin): Promise<LoginTokenDto> {
    const row = await this.repo.takeCode(sha256Hex(code));
    if (!row || new Date(row.expires).getTime() <= this.clock.now().getTime())
      throw OidcProviderErrors.CODE_INVALID();
    const provider = await this.repo.withSecret({ id: row.oidc_provider_id });
    if (!provider?.enabled) throw OidcProviderErrors.CODE_INVALID();
    return this.authority.tenantSession(
      this.authenticator(provider),
      row.user_id,
      false,
      OidcProviderErrors.CODE_INVALID,
      origin,
    );
  }

  private client(p: OidcProviderEntity) {
    return {
      issuer: p.issuer,
      clientId: p.client_id,
      clientSecret: this.providers.unsealSecret(p.client_secret_sealed),
    };
  }

  private authenticator(p: OidcProviderEntity): TenantAuthenticator {
    return { kind: 'oidc', id: p.id, systemDomainId: p.system_domain_id };
  }

  /** A failure of the provider's answer, on record: a 401 (refused) or a 503 (the provider out of reach). */
  private async refusal(p: OidcProviderEntity, e: unknown, origin: AuditOrigin) {
    if (e instanceof ProviderRefusal) await this.federated.refused(this.authenticator(p), e.message, origin);
    return this.answer(p, e);
  }

  private answer(p: OidcProviderEntity, e: unknown) {
    if (e instanceof ProviderUnavailable) {
      this.logger.warn({ provider: p.id, reason: e.message }, 'OpenID provider unavailable');
      return OidcProviderErrors.UNAVAILABLE();
    }
    if (e instanceof ProviderRefusal) return OidcProviderErrors.REFUSED();
    return e;
  }

  /** Deletes expired sign-ins and codes, at most once a minute per instance, when a sign-in starts. */
  private async sweep(): Promise<void> {
    if (Date.now() - this.swept < 60_000) return;
    this.swept = Date.now();
    await this.repo.sweepExpired();
  }
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null;
}

function names(v: unknown): string[] {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return list.filter((x): x is string => typeof x === 'string').slice(0, 500);
}
