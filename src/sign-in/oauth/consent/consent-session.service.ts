import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AuthContext } from '../../../base/common/auth/auth-context.js';
import { APP_CONFIG, type BaseConfig } from '../../../base/config/config.js';
import { deriveKey, serviceSecret } from '../../../base/keys/key-encryption.js';
import { SignInAuthority } from '../../login/sign-in-authority.js';
import { TokensService } from '../../../credentials/tokens/tokens.service.js';
import type { UserEntity } from '../../../base/model/user.entity.js';
import type { AuthenticatedOptions } from '../../../base/common/auth/authenticated.decorator.js';
import { Authenticator } from '../../../auth/authenticator.js';
import { admitToPage } from '../../../auth/guard/page-steps.js';
import { parseCookie } from 'cookie';
import { PENDING_COOKIE, SESSION_COOKIE } from '../../../base/common/auth/credentials.js';
import type { PageCookie } from '../../../base/common/html/page-result.js';
import { OAuthRepository } from '../oauth.repository.js';

/**
 * The consent page's browser session: an HttpOnly cookie holding a login token (looked up like any other
 * token, so signing out or revoking it ends the session) and a double-submit CSRF cookie (SameSite=Strict).
 * The CSRF token is `nonce.HMAC(nonce, session)` under a key derived from the service secret: a cookie
 * planted from a sibling subdomain or over plain http cannot be forged, and a token minted for one sign-in
 * state (anonymous, or one session) does not pass for another; signing in mints a new one. Over https the
 * cookie is `__Host-` prefixed (Secure, Path=/, no Domain), so no other origin can set it at all.
 */
@Injectable()
export class ConsentSessionService {
  constructor(
    private readonly repo: OAuthRepository,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly authenticator: Authenticator,
    private readonly tokens: TokensService,
    private readonly signIns: SignInAuthority,
  ) {
    this.csrfKey = deriveKey(serviceSecret(config), 'consent-csrf');
  }

  private readonly csrfKey: Buffer;

  private get csrfCookie(): string {
    return this.secure ? '__Host-portcullis_csrf' : 'portcullis_csrf';
  }

  private get secure(): boolean {
    return this.config.http.publicBaseUrl.startsWith('https:');
  }

  /**
   * The signed-in session (credential source `consent-session`, through the one Authenticator) if it passes
   * the guard's steps for the page's `policy` (credential kind, tenant status: guard/page-steps.ts), or null
   * (absent, invalid, revoked, a deactivated domain). A frozen domain's write is thrown on (its 403 page), and
   * so is the database down (the 503 page).
   */
  async current(req: Request, policy: AuthenticatedOptions): Promise<AuthContext | null> {
    return admitToPage(req, policy, await this.authenticator.fromCookie('consent-session', req));
  }

  /** The domain a consent-page sign-in is for: the app's domain when the user belongs to it, else their home. */
  async chooseDomain(user: UserEntity, preferredDomainId: string): Promise<string> {
    const domains = await this.tokens.userDomainIds(user.id);
    return domains.includes(preferredDomainId) ? preferredDomainId : user.system_domain_id;
  }

  /** Signs the user in for the app's domain when they belong to it (else their home domain): the cookies. */
  async start(user: UserEntity, preferredDomainId: string): Promise<PageCookie[]> {
    const domainId = await this.chooseDomain(user, preferredDomainId);
    // outside a transaction: the sign-in's own statements (the data source's manager)
    const { token } = await this.signIns.serviceSession(
      this.repo.manager,
      { userId: user.id, domainId },
      { method: 'password' },
    );
    return this.startWith(token);
  }

  /** The session cookie for a login token issued elsewhere (after a second factor); the pending state goes. */
  startWith(token: string): PageCookie[] {
    const session: PageCookie = {
      name: SESSION_COOKIE,
      value: token,
      options: {
        httpOnly: true,
        sameSite: 'lax',
        secure: this.secure,
        path: '/oauth',
        maxAge: this.config.auth.loginTokenTtlSeconds * 1000,
      },
    };
    const pending: PageCookie = { name: PENDING_COOKIE, value: null, options: { path: '/oauth' } };
    // the anonymous form's token is bound to "no session": the signed-in pages need one of their own
    return [session, pending, this.mintCsrf(token).cookie];
  }

  /** Signed out: the session cookie (and any pending sign-in) cleared. */
  end(): PageCookie[] {
    return [
      { name: SESSION_COOKIE, value: null, options: { path: '/oauth' } },
      { name: PENDING_COOKIE, value: null, options: { path: '/oauth' } },
    ];
  }

  /** Password verified, second factor owed: the temporary token waits in its own cookie (strict, short). */
  startPending(tempToken: string): PageCookie[] {
    const options = {
      httpOnly: true,
      sameSite: 'strict' as const,
      secure: this.secure,
      path: '/oauth',
      maxAge: this.config.auth.tempTokenTtlSeconds * 1000,
    };
    return [{ name: PENDING_COOKIE, value: tempToken, options }];
  }

  /**
   * The pending sign-in's temporary token (source `consent-pending`) if it passes the guard's steps for
   * `policy`, or null (absent, expired, used, a deactivated domain).
   */
  async pending(req: Request, policy: AuthenticatedOptions): Promise<AuthContext | null> {
    return admitToPage(req, policy, await this.authenticator.fromCookie('consent-pending', req));
  }

  /**
   * The CSRF token for the page being rendered: the cookie's, if it is ours and bound to this session, else
   * a new one and its cookie.
   */
  csrfToken(req: Request): { token: string; cookie?: PageCookie } {
    const cookies = cookiesOf(req);
    const existing = cookies[this.csrfCookie];
    if (existing && this.csrfMatches(existing, cookies[SESSION_COOKIE])) return { token: existing };
    return this.mintCsrf(cookies[SESSION_COOKIE]);
  }

  /** The submitted token equals the cookie, and the cookie is one we minted for this request's session. */
  csrfValid(req: Request, submitted: unknown): boolean {
    const cookies = cookiesOf(req);
    const cookie = cookies[this.csrfCookie];
    if (!cookie || typeof submitted !== 'string') return false;
    const a = Buffer.from(cookie);
    const b = Buffer.from(submitted);
    return (
      a.length === b.length && timingSafeEqual(a, b) && this.csrfMatches(cookie, cookies[SESSION_COOKIE])
    );
  }

  private mintCsrf(session: string | undefined): { token: string; cookie: PageCookie } {
    const nonce = randomBytes(18).toString('base64url');
    const token = `${nonce}.${this.csrfMac(nonce, session)}`;
    const options = {
      httpOnly: true,
      sameSite: 'strict' as const,
      secure: this.secure,
      path: this.secure ? '/' : '/oauth',
    };
    return { token, cookie: { name: this.csrfCookie, value: token, options } };
  }

  private csrfMatches(token: string, session: string | undefined): boolean {
    const [nonce, mac, extra] = token.split('.');
    if (!nonce || !mac || extra !== undefined) return false;
    const expected = Buffer.from(this.csrfMac(nonce, session));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private csrfMac(nonce: string, session: string | undefined): string {
    return createHmac('sha256', this.csrfKey)
      .update(nonce)
      .update('\0')
      .update(session ?? '')
      .digest('base64url');
  }
}

/** The request's cookies, parsed by the `cookie` package. */
const cookiesOf = (req: Request): Record<string, string | undefined> => parseCookie(req.headers.cookie ?? '');
