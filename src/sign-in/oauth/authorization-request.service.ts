import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AppEntity } from '../../base/model/app.entity.js';
import { normalizeRedirectUris } from '../../credentials/apps/app-rules.js';
import { isUuid } from '../../base/common/validation/uuid.js';
import { SCOPES } from '../../base/common/auth/scopes.js';
import { Clock } from '../../base/common/clock.js';
import { generateSecret, sha256Hex } from '../../base/common/crypto/secrets.js';
import { CHALLENGE_PATTERN } from './pkce.js';
import { MfaService } from '../mfa/mfa.service.js';
import { SystemDomainsService } from '../../accounts/system-domains/system-domains.service.js';
import { OAuthRepository } from './oauth.repository.js';
import { given } from './form.js';
import { ConsentMemoryService } from './oidc/consent-memory.service.js';
import { IdTokenService } from './oidc/id-token.service.js';
import { OPENID_SCOPE } from '../../base/common/auth/scopes.js';

export const CODE_TTL_SECONDS = 60;

/**
 * Whether `uri` is one of the app's redirect URIs: exactly as registered, or written another way that
 * registration would have stored as that one (registration keeps the standard URL form, e.g. a lower-case
 * host); a URI registration would refuse (a fragment, no `//`) never matches.
 */
function registered(uris: string[], uri: string): boolean {
  if (uris.includes(uri)) return true;
  const n = normalizeRedirectUris([uri]);
  return !n.error && n.uris.length === 1 && uris.includes(n.uris[0]);
}

export interface AuthorizationParams {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  /** OpenID Connect (Core §3.1.2.1): echoed in the id_token. */
  nonce?: string;
  /** `none`, or any of `login`, `consent`, `select_account` (space separated). */
  prompt?: string;
  /** Seconds: an older sign-in signs in again. */
  max_age?: string;
  /** The email to sign in with (pre-filled; a single sign-on domain goes to its IdP). */
  login_hint?: string;
}

/** The `prompt` values the consent page acts on (`select_account` is a sign-in again: one account per sign-in). */
export const PROMPT_VALUES = ['none', 'login', 'consent', 'select_account'] as const;

export interface ValidAuthorization {
  app: AppEntity;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string;
  /** The request has the `openid` scope: an id_token will answer it. */
  openid: boolean;
  nonce: string | null;
  prompt: string[];
  /** `max_age` in seconds, or null. */
  maxAge: number | null;
  loginHint: string | null;
}

/**
 * A problem with the request itself (400), or with who may approve it (403): shown to the user, never
 * redirected (the redirect URI is not trusted yet, or the client must not learn about this user).
 */
export class AuthorizationRequestError extends Error {
  constructor(
    public readonly title: string,
    public readonly detail: string,
    public readonly status: 400 | 403 = 400,
    /** The user could approve after signing in again (to the app's domain, or with a second factor). */
    public readonly signInAgain = false,
  ) {
    super(detail);
  }
}

@Injectable()
export class AuthorizationRequestService {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly domains: SystemDomainsService,
    private readonly mfa: MfaService,
    private readonly clock: Clock,
    private readonly idTokens: IdTokenService,
    private readonly consents: ConsentMemoryService,
  ) {}

  /**
   * Validates a request in an order that never trusts what is not yet verified: client, then its redirect
   * URI (exact match), then response type, PKCE (mandatory, S256 only) and scopes (a subset of the app's).
   */
  async validate(p: AuthorizationParams): Promise<ValidAuthorization> {
    const clientId = given(p.client_id);
    if (!clientId || !isUuid(clientId))
      throw new AuthorizationRequestError('Unknown application', 'client_id is missing or invalid.');
    const app = await this.repo.clientApp(clientId);
    if (!app)
      throw new AuthorizationRequestError('Unknown application', 'No application has this client_id.');
    if (app.type !== 'OAUTH') {
      throw new AuthorizationRequestError(
        'Not an OAuth application',
        'Service-account (PAT) applications cannot use OAuth (unauthorized_client).',
      );
    }
    const redirectUri = given(p.redirect_uri);
    if (!redirectUri)
      throw new AuthorizationRequestError('Missing redirect URI', 'redirect_uri is required.');
    if (!registered(app.redirect_uris, redirectUri)) {
      throw new AuthorizationRequestError(
        'Unregistered redirect URI',
        'The redirect_uri is not registered for this application.',
      );
    }
    if (given(p.response_type) !== 'code') {
      throw new AuthorizationRequestError(
        'Unsupported response type',
        'response_type must be "code" (no implicit flow).',
      );
    }
    const challenge = given(p.code_challenge);
    if (!challenge) throw new AuthorizationRequestError('PKCE required', 'code_challenge is required.');
    if (given(p.code_challenge_method) !== 'S256') {
      throw new AuthorizationRequestError('PKCE method not supported', 'code_challenge_method must be S256.');
    }
    if (!CHALLENGE_PATTERN.test(challenge)) {
      throw new AuthorizationRequestError(
        'Invalid PKCE challenge',
        'code_challenge must be the base64url SHA-256 of the verifier (43 characters).',
      );
    }
    const requested = given(p.scope);
    const scopes =
      requested === undefined ? [...app.allowed_scopes] : [...new Set(requested.split(' ').filter(Boolean))];
    const outside = scopes.filter((s) => !app.allowed_scopes.includes(s));
    if (outside.length) {
      throw new AuthorizationRequestError(
        'Invalid scope',
        `Not allowed for this application: ${outside.join(' ')}. Allowed: ${app.allowed_scopes.join(' ') || '(none)'}.`,
      );
    }
    const state = given(p.state) ?? null;
    if (state && state.length > 1024)
      throw new AuthorizationRequestError('Invalid state', 'state is too long.');
    return {
      app,
      redirectUri,
      scopes,
      state,
      codeChallenge: challenge,
      ...openIdParameters(p),
      openid: scopes.includes(OPENID_SCOPE),
    };
  }

  /**
   * Who may approve a request of an app in domain B: a person's session issued for B (a session of another
   * of their domains is not one: B's second-factor policy was never asked of it) that satisfies B's policy
   * now (a factor B requires today, which the sign-in did not pass, means signing in again), and carries no
   * ceiling (a tenant's single sign-on of an account it does not own). 403 otherwise;
   * `signInAgain` tells a page it may offer the sign-in form (the user is a member of B) rather than refuse.
   */
  async requireApprover(v: ValidAuthorization, approver: AuthContext): Promise<void> {
    const domainId = v.app.system_domain_id;
    if (!approver.systemDomains.includes(domainId)) {
      throw new AuthorizationRequestError(
        'Wrong domain',
        'This application belongs to a domain you are not a member of.',
        403,
      );
    }
    if (approver.systemDomainId !== domainId) {
      throw new AuthorizationRequestError(
        'Signed in to another domain',
        'This application belongs to another of your domains: sign in to that domain to approve it.',
        403,
        true,
      );
    }
    // a single sign-on of an account its domain does not own carries a ceiling (SignInAuthority); an
    // authorization carries the user's own rights, so it needs a session without one
    if (approver.rightsCap) {
      throw new AuthorizationRequestError(
        'Sign in with your password',
        'Your organisation’s single sign-on cannot authorize applications for this account: sign in with your password to approve it.',
        403,
        true,
      );
    }
    if (approver.record.is_mfa_authenticated) return;
    // a factor is owed (MfaService.owedFor: the user's confirmed factors, or the domain requires one)
    const domain = await this.domains.byId(domainId);
    if ((await this.mfa.owedFor(approver.userId, domain)) !== null) {
      throw new AuthorizationRequestError(
        'Second factor required',
        'The application’s domain requires a second factor: sign in again to approve it.',
        403,
        true,
      );
    }
  }

  /**
   * The user's decision → where the browser goes next. Allow issues a code bound to this request. `approver`:
   * the signed-in user's session (its token record says whether that sign-in passed a second factor, which
   * every token of the authorization then reports as `is_mfa_authenticated`).
   */
  async decide(
    v: ValidAuthorization,
    approver: AuthContext,
    allow: boolean,
    issuer: string,
  ): Promise<string> {
    const userId = approver.userId;
    await this.requireApprover(v, approver);
    const url = new URL(v.redirectUri);
    if (!allow) {
      url.searchParams.set('error', 'access_denied');
      url.searchParams.set('error_description', 'The user denied the request');
    } else {
      const code = generateSecret();
      const grantId = randomUUID();
      await this.repo.transaction(async (em) => {
        await this.repo.insertCode(em, {
          code_hash: sha256Hex(code),
          app_id: v.app.id,
          user_id: userId,
          system_domain_id: v.app.system_domain_id,
          redirect_uri: v.redirectUri,
          scopes: v.scopes,
          code_challenge: v.codeChallenge,
          expires: new Date(this.clock.now().getTime() + CODE_TTL_SECONDS * 1000),
          grant_id: grantId,
          is_mfa_authenticated: approver.record.is_mfa_authenticated,
        });
        if (!v.openid) return;
        // OpenID Connect: what the grant's id_tokens will say of this sign-in, and the consent remembered
        await this.idTokens.recordGrant(em, {
          grantId,
          appId: v.app.id,
          userId,
          session: approver.record,
          nonce: v.nonce,
        });
        await this.consents.remember(em, userId, v.app.id, v.scopes);
      });
      url.searchParams.set('code', code);
    }
    if (v.state !== null) url.searchParams.set('state', v.state);
    url.searchParams.set('iss', issuer); // RFC 9207: lets the client detect mix-up attacks
    return url.toString();
  }

  /**
   * An answer to the client without asking the person (OpenID Connect Core §3.1.2.6): `prompt=none` where
   * a sign-in (`login_required`) or a decision (`consent_required`) would be needed.
   */
  errorRedirect(v: ValidAuthorization, error: string, description: string, issuer: string): string {
    const url = new URL(v.redirectUri);
    url.searchParams.set('error', error);
    url.searchParams.set('error_description', description);
    if (v.state !== null) url.searchParams.set('state', v.state);
    url.searchParams.set('iss', issuer);
    return url.toString();
  }

  /** Whether the person allowed this app this OpenID Connect request's scopes before (ConsentMemoryService). */
  consentRemembered(v: ValidAuthorization, userId: string): Promise<boolean> {
    return this.consents.covers(userId, v.app.id, v.scopes);
  }

  describeScopes(scopes: string[]): { name: string; description: string }[] {
    return scopes.map((name) => ({
      name,
      description: SCOPES.find((s) => s.name === name)?.description ?? name,
    }));
  }
}

/** The OpenID Connect parameters of a request (Core §3.1.2.1), checked; ui_locales and the like are ignored. */
function openIdParameters(
  p: AuthorizationParams,
): Pick<ValidAuthorization, 'openid' | 'nonce' | 'prompt' | 'maxAge' | 'loginHint'> {
  const nonce = given(p.nonce) ?? null;
  if (nonce !== null && nonce.length > 512)
    throw new AuthorizationRequestError('Invalid nonce', 'nonce is too long (512 characters at most).');
  const prompt = [...new Set((given(p.prompt) ?? '').split(' ').filter(Boolean))];
  const unknown = prompt.filter((x) => !(PROMPT_VALUES as readonly string[]).includes(x));
  if (unknown.length)
    throw new AuthorizationRequestError('Invalid prompt', `Unsupported prompt value: ${unknown.join(' ')}.`);
  if (prompt.includes('none') && prompt.length > 1)
    throw new AuthorizationRequestError(
      'Invalid prompt',
      'prompt=none cannot be combined with other values.',
    );
  const maxAgeText = given(p.max_age);
  if (maxAgeText !== undefined && !/^\d{1,9}$/.test(maxAgeText))
    throw new AuthorizationRequestError('Invalid max_age', 'max_age must be a whole number of seconds.');
  const loginHint = given(p.login_hint)?.trim() ?? null;
  if (loginHint !== null && loginHint.length > 320)
    throw new AuthorizationRequestError('Invalid login_hint', 'login_hint is too long.');
  return {
    openid: false,
    nonce,
    prompt,
    maxAge: maxAgeText === undefined ? null : Number(maxAgeText),
    loginHint: loginHint || null,
  };
}
