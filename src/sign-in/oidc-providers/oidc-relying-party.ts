import * as client from 'openid-client';
import { assertReachable, PrivateHostError } from '../federation/network-guard.js';

/** The provider did not answer, answered nonsense, or is not where the service may go. */
export class ProviderUnavailable extends Error {}
/** The provider's answer failed a check (state, code, the id_token's signature, iss, aud, exp, nonce…). */
export class ProviderRefusal extends Error {}

/** One provider as its relying party needs it. */
export interface ProviderClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** How the relying party reaches providers: the SSRF rule, plain http (tests), and the timeout of a request. */
export interface RelyingPartyOptions {
  allowPrivate: boolean;
  allowHttp: boolean;
  timeoutMs: number;
}

const DISCOVERY_TTL_MS = 10 * 60_000;

/**
 * The service as relying party of tenants' OpenID providers, with openid-client (v6): discovery (cached ten
 * minutes per issuer), the authorization URL with PKCE S256, state and nonce, and the callback's checks. Every
 * request to a provider goes through `fetch` here: its host must resolve to public addresses (unless
 * FEDERATION_ALLOW_PRIVATE) and it has a deadline. Each callback builds a fresh Configuration over the cached
 * metadata with the non-repudiation checks on, so the id_token's signature is verified against the provider's
 * JWKS as fetched at that moment: a rotated key is seen at the next sign-in, never refused from a stale cache.
 */
export class OidcRelyingParty {
  private readonly metadata = new Map<string, { at: number; server: client.ServerMetadata }>();

  constructor(private readonly o: RelyingPartyOptions) {}

  /** The provider's authorization URL for one sign-in (the caller keeps state, nonce and verifier). */
  async authorizationUrl(
    p: ProviderClient,
    a: { redirectUri: string; scope: string; state: string; nonce: string; codeVerifier: string },
  ): Promise<string> {
    const config = await this.configuration(p);
    const challenge = await client.calculatePKCECodeChallenge(a.codeVerifier);
    return client
      .buildAuthorizationUrl(config, {
        redirect_uri: a.redirectUri,
        scope: a.scope,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: a.state,
        nonce: a.nonce,
        response_type: 'code',
      })
      .toString();
  }

  /**
   * The callback: the code exchanged (PKCE), the id_token checked (signature from the JWKS, iss, aud, azp,
   * exp, iat, nonce) by openid-client; its claims. ProviderRefusal for a failed check, ProviderUnavailable
   * when the provider cannot be reached.
   */
  async callback(
    p: ProviderClient,
    currentUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string; redirectUri: string },
  ): Promise<Record<string, unknown>> {
    const config = await this.configuration(p, true);
    client.enableNonRepudiationChecks(config);
    try {
      const tokens = await client.authorizationCodeGrant(
        config,
        currentUrl,
        {
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          pkceCodeVerifier: checks.codeVerifier,
          idTokenExpected: true,
        },
        { redirect_uri: checks.redirectUri },
      );
      const claims = tokens.claims();
      if (!claims) throw new ProviderRefusal('no id_token');
      return claims as Record<string, unknown>;
    } catch (e) {
      throw this.classify(e);
    }
  }

  /** The provider's configuration: its metadata (cached) in a fresh Configuration when `fresh`. */
  private async configuration(p: ProviderClient, fresh = false): Promise<client.Configuration> {
    const cached = this.metadata.get(p.issuer);
    let config: client.Configuration;
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) {
      config = new client.Configuration({ ...cached.server }, p.clientId, p.clientSecret);
      this.prepare(config);
    } else {
      try {
        config = await client.discovery(new URL(p.issuer), p.clientId, p.clientSecret, undefined, {
          [client.customFetch]: this.fetch,
          execute: this.o.allowHttp ? [client.allowInsecureRequests] : [],
        });
      } catch (e) {
        throw this.classify(e, true);
      }
      this.prepare(config);
      this.metadata.set(p.issuer, { at: Date.now(), server: config.serverMetadata() });
      if (fresh) {
        config = new client.Configuration({ ...config.serverMetadata() }, p.clientId, p.clientSecret);
        this.prepare(config);
      }
    }
    return config;
  }

  private prepare(config: client.Configuration): void {
    config[client.customFetch] = this.fetch;
    config.timeout = Math.ceil(this.o.timeoutMs / 1000);
    if (this.o.allowHttp) client.allowInsecureRequests(config);
  }

  /** Every request to a provider: the SSRF rule first, then a deadline. */
  private readonly fetch: client.CustomFetch = async (url, options) => {
    const u = new URL(url);
    try {
      await assertReachable(u.hostname, this.o.allowPrivate);
    } catch (e) {
      if (e instanceof PrivateHostError) throw new ProviderUnavailable(e.message);
      throw e;
    }
    const init = { ...options, signal: AbortSignal.timeout(this.o.timeoutMs), redirect: 'manual' };
    return fetch(url, init as RequestInit);
  };

  /** A failure's kind: the provider out of reach (503), or its answer refused (401). */
  private classify(e: unknown, discovery = false): Error {
    if (e instanceof ProviderUnavailable || e instanceof ProviderRefusal) return e;
    const err = e as Error & { code?: string; cause?: unknown };
    const network =
      err.name === 'TimeoutError' ||
      err.name === 'AbortError' ||
      (err instanceof TypeError && /fetch failed/.test(err.message)) ||
      err.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' ||
      err.code === 'OAUTH_RESPONSE_IS_NOT_JSON';
    // openid-client names the class of check in the message and the check itself (the claim, the reason) in
    // its cause: both go to the log and the audit trail
    const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
    const why = `${err.code ?? err.name}: ${err.message}${cause}`;
    return discovery || network ? new ProviderUnavailable(why) : new ProviderRefusal(why);
  }
}
