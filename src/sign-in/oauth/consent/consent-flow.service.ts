import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthContext } from '../../../base/common/auth/auth-context.js';
import { ApiError } from '../../../base/common/errors/api-error.js';
import { isUnavailable } from '../../../base/common/errors/unavailable.js';
import { APP_CONFIG, type BaseConfig } from '../../../base/config/config.js';
import { Clock } from '../../../base/common/clock.js';
import { SsoLoginService } from '../../identity-providers/sso-login.service.js';
import { CredentialsService } from '../../login/credentials.service.js';
import { OTP_TYPES, type OtpType } from '../../login/mfa-policy.js';
import { signedInAt } from '../../login/assurance.js';
import { MfaService } from '../../mfa/mfa.service.js';
import { SystemDomainsService } from '../../../accounts/system-domains/system-domains.service.js';
import {
  type AuthorizationParams,
  AuthorizationRequestError,
  AuthorizationRequestService,
  type ValidAuthorization,
} from '../authorization-request.service.js';
import {
  consentPage,
  directoryLoginPage,
  errorPage,
  loginPage,
  requestFields,
  secondFactorPage,
  ssoRedirectPage,
} from './consent-pages.js';
import { ConsentSessionService } from './consent-session.service.js';
import type {
  ConsentDecisionForm,
  ConsentLoginForm,
  ConsentPasskeyForm,
  ConsentSecondFactorForm,
} from './consent-forms.dto.js';
import { ConsentPasskeys } from './consent-passkeys.service.js';
import { SCRIPTS_PATH } from '../../../base/common/html/page-scripts.js';
import type { PageCookie, PageResult } from '../../../base/common/html/page-result.js';
import type { LoginTokenDto } from '../../../credentials/tokens/dto/token.dto.js';
import { fromRequest } from '../../../delivery/audit/audit-origin.js';
import { ConsentFederation } from './consent-federation.service.js';
import { APPROVER, backTo, NO_FACTOR, NONE, passable, PENDING_SIGN_IN, type Step } from './consent-step.js';

/**
 * A refusal of the single sign-on step is null (the page says so); the database down is thrown on (503 page);
 * a tenant's authenticator that does not answer (503) is that page's own message.
 */
function notAnOutage(e: unknown): null {
  if (isUnavailable(e)) throw e;
  if (e instanceof ApiError && e.status === 503) throw new FederationDown();
  return null;
}

/** The organisation's directory or OpenID provider did not answer. */
class FederationDown extends Error {}
const FEDERATION_DOWN = 'Your organisation’s sign-in service did not answer; please try again later.';

/**
 * The browser sign-in's state machine on the consent page (`{base_url}/oauth/authorize`): the page, the SAML
 * return (its single-use code), the password form, the second factor and the decision. Each step takes the
 * request (its cookies: session, pending sign-in, CSRF), the query or the form, and answers a PageResult that
 * ConsentController applies (sendPage, base/common/html/page-result.ts); nothing here writes a response.
 */
@Injectable()
export class ConsentFlow {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly requests: AuthorizationRequestService,
    private readonly sessions: ConsentSessionService,
    private readonly credentials: CredentialsService,
    private readonly mfa: MfaService,
    private readonly domains: SystemDomainsService,
    private readonly sso: SsoLoginService,
    private readonly clock: Clock,
    private readonly federation: ConsentFederation,
    private readonly passkeys: ConsentPasskeys,
  ) {}

  /**
   * GET: the consent page, the sign-in form, or the SAML return (`saml_code`). OpenID Connect's parameters
   * (Core §3.1.2.1) steer it: `prompt=login` and an older sign-in than `max_age` sign in again, `login_hint`
   * pre-fills the form (a single sign-on domain goes straight to its IdP), a remembered consent is approved
   * without the screen unless `prompt=consent`, and `prompt=none` answers the client instead of asking.
   */
  show(
    req: Request,
    q: AuthorizationParams & { saml_code?: unknown; oauth_code?: unknown },
  ): Promise<PageResult> {
    return this.valid(req, q, async (s) => {
      const issuer = this.config.http.publicBaseUrl;
      // back from an OpenID provider: its single-use code becomes the session, then the same request again
      if (typeof q.oauth_code === 'string') {
        const signedIn = await this.federation.oauthReturn(q.oauth_code, fromRequest(req)).catch(notAnOutage);
        if (!signedIn?.token)
          return s.page(401, loginPage(s.v.app.name, q, s.csrf, 'Single sign-on failed.'));
        return s.redirect(backTo(requestFields(q), true), this.sessions.startWith(signedIn.token));
      }
      // back from single sign-on: the ACS's single-use code becomes the session, then the same request again
      if (typeof q.saml_code === 'string') {
        const signedIn = await this.sso.exchange(q.saml_code).catch(notAnOutage);
        if (!signedIn) return s.page(401, loginPage(s.v.app.name, q, s.csrf, 'Single sign-on failed.'));
        return s.redirect(backTo(requestFields(q), true), this.sessions.startWith(signedIn.token!));
      }
      // a session of another of the user's domains, or one short of the domain's second factor, is "not
      // signed in" here: sign in again for the app's domain. Refused before the user is offered a choice.
      const found = await this.approver(req, s.v);
      const session = found && !this.signInAgain(s.v, found) ? found : null;
      if (!session) {
        if (s.v.prompt.includes('none')) {
          const why = 'The user must sign in';
          return s.redirect(this.requests.errorRedirect(s.v, 'login_required', why, issuer));
        }
        return this.signInPage(s, q);
      }
      if (!s.v.prompt.includes('consent') && (await this.requests.consentRemembered(s.v, session.userId))) {
        return s.redirect(await this.requests.decide(s.v, session, true, issuer));
      }
      if (s.v.prompt.includes('none')) {
        const why = 'The user has not allowed this application these scopes';
        return s.redirect(this.requests.errorRedirect(s.v, 'consent_required', why, issuer));
      }
      const scopes = this.requests.describeScopes(s.v.scopes);
      return s.page(200, consentPage(s.v.app, session.user.email, scopes, q, s.csrf));
    });
  }

  /** `prompt=login` (or `select_account`), or a sign-in older than `max_age`: this session will not do. */
  private signInAgain(v: ValidAuthorization, session: AuthContext): boolean {
    if (v.prompt.includes('login') || v.prompt.includes('select_account')) return true;
    if (v.maxAge === null) return false;
    return this.clock.now().getTime() - signedInAt(session.record).getTime() > v.maxAge * 1000;
  }

  /**
   * The sign-in form, pre-filled with `login_hint`, with the application's domain's "Continue with …" choices;
   * a hint whose domain signs in with SSO goes to its IdP or OpenID provider, or to its directory's form.
   */
  private async signInPage(s: Step, q: AuthorizationParams): Promise<PageResult> {
    const hint = s.v.loginHint;
    if (hint) {
      let step: Awaited<ReturnType<ConsentFederation['emailStep']>>;
      try {
        step = await this.federation.emailStep(hint.toLowerCase(), backTo(q)).catch(notAnOutage);
      } catch (e) {
        if (!(e instanceof FederationDown)) throw e;
        return this.loginForm(s, q, 503, FEDERATION_DOWN, hint);
      }
      if (step && 'url' in step) return s.page(200, ssoRedirectPage(step.url));
      if (step) return s.page(200, directoryLoginPage(s.v.app.name, step.directory, q, s.csrf, hint));
    }
    return this.loginForm(s, q, 200, undefined, hint);
  }

  /** The sign-in form with the application's domain's "Continue with …" choices. */
  private async loginForm(
    s: Pick<Step, 'v' | 'csrf' | 'page'>,
    q: AuthorizationParams,
    status: number,
    error?: string,
    email?: string | null,
  ): Promise<PageResult> {
    const choices = await this.federation.choices(s.v.app.system_domain_id);
    return s.page(status, loginPage(s.v.app.name, q, s.csrf, error, email, choices));
  }

  /**
   * POST login: the password form, the single sign-on button (the email's SAML IdP, OpenID provider or
   * directory), "Continue with" an OpenID provider or the directory of the application's domain, or the
   * directory's password form.
   */
  login(req: Request, body: ConsentLoginForm): Promise<PageResult> {
    const q = requestFields(body);
    return this.valid(req, q, async (s) => {
      const { v, csrf, page, redirect } = s;
      if (!this.sessions.csrfValid(req, body.csrf)) {
        return page(403, loginPage(v.app.name, q, csrf, 'Your session expired; please try again.'));
      }
      const email = (body.email ?? '').trim().toLowerCase();
      try {
        if (body.sso === '1') {
          // single sign-on of the email's domain, returning to this same authorization request
          const step = await this.federation.emailStep(email, backTo(q)).catch(notAnOutage);
          if (!step) return this.loginForm(s, q, 404, 'No single sign-on for this email.', email);
          if ('url' in step) return page(200, ssoRedirectPage(step.url));
          return page(200, directoryLoginPage(v.app.name, step.directory, q, csrf, email));
        }
        if (body.provider_id) {
          const domainId = v.app.system_domain_id;
          const url = await this.federation
            .startProvider(body.provider_id, domainId, backTo(q))
            .catch(notAnOutage);
          if (!url) return this.loginForm(s, q, 404, 'This sign-in option is not available.');
          return page(200, ssoRedirectPage(url.url));
        }
        if (body.directory === 'form') {
          const [directory] = (await this.federation.choices(v.app.system_domain_id)).directories;
          if (!directory) return this.loginForm(s, q, 404, 'This sign-in option is not available.');
          return page(200, directoryLoginPage(v.app.name, directory.name, q, csrf, email));
        }
        if (body.directory === '1') return await this.directoryLogin(req, s, q, email, body.password ?? '');
      } catch (e) {
        if (!(e instanceof FederationDown)) throw e;
        return this.loginForm(s, q, 503, FEDERATION_DOWN, email);
      }
      const user = await this.credentials.verify(body.email ?? '', body.password ?? '');
      if (!user) return page(401, loginPage(v.app.name, q, csrf, 'Invalid email or password'));
      const domainId = await this.sessions.chooseDomain(user, v.app.system_domain_id);
      const owed = await this.mfa.owedFactor(user.id, await this.domains.byId(domainId));
      if (owed === null) {
        return redirect(backTo(q, true), await this.sessions.start(user, v.app.system_domain_id));
      }
      // a second factor is owed: the second step of the form, with a temporary token in its own cookie
      if (!passable(owed)) return page(403, loginPage(v.app.name, q, csrf, NO_FACTOR));
      const pending = this.sessions.startPending(await this.mfa.issueTemp(user.id, domainId));
      return page(200, secondFactorPage(v.app.name, q, csrf, owed), pending);
    });
  }

  /**
   * The directory's password form: the Token of the directory's sign-in becomes the session, or (a factor
   * owed) the second step with its temporary token, as for a password.
   */
  private async directoryLogin(
    req: Request,
    s: Step,
    q: AuthorizationParams,
    email: string,
    password: string,
  ): Promise<PageResult> {
    // the directory's name, for the form shown again (a refusal): read only then
    const name = async () =>
      (await this.federation.choices(s.v.app.system_domain_id)).directories[0]?.name ?? 'directory';
    let out: LoginTokenDto;
    try {
      out = await this.federation.directoryLogin(email, password, s.v.app.system_domain_id, fromRequest(req));
    } catch (e) {
      if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 503)) throw e;
      const why = e.status === 401 ? 'Invalid email or password' : FEDERATION_DOWN;
      return s.page(e.status, directoryLoginPage(s.v.app.name, await name(), q, s.csrf, email, why));
    }
    if (out.token) return s.redirect(backTo(q, true), this.sessions.startWith(out.token));
    const owed =
      (await this.mfa.owedFactor(out.user_id, await this.domains.byId(out.system_domain_id))) ?? NONE;
    if (!passable(owed))
      return s.page(403, directoryLoginPage(s.v.app.name, await name(), q, s.csrf, email, NO_FACTOR));
    const pending = this.sessions.startPending(out.temp_token!);
    return s.page(200, secondFactorPage(s.v.app.name, q, s.csrf, owed), pending);
  }

  /** POST mfa: the second factor of a pending sign-in (send a mailed code, or verify one). */
  secondFactor(req: Request, body: ConsentSecondFactorForm): Promise<PageResult> {
    const q = requestFields(body);
    return this.valid(req, q, async ({ v, csrf, page, redirect }) => {
      const pending = await this.sessions.pending(req, PENDING_SIGN_IN);
      if (!pending) return page(401, loginPage(v.app.name, q, csrf, 'Please sign in again.'));
      const domain = await this.domains.byId(pending.systemDomainId);
      const owed = (await this.mfa.owedFactor(pending.userId, domain)) ?? NONE;
      const accepted = owed.codes;
      const second = (status: number, note: { error?: string; info?: string }) =>
        page(status, secondFactorPage(v.app.name, q, csrf, owed, note));
      if (!this.sessions.csrfValid(req, body.csrf)) {
        return second(403, { error: 'Your session expired; please try again.' });
      }
      if (body.action === 'send' && accepted.includes('MAIL_2SV')) {
        await this.mfa.generateForCurrent(pending);
        return second(200, {
          info: `We mailed a code to ${pending.user.email}. It is valid for 10 minutes.`,
        });
      }
      const type = (OTP_TYPES as readonly string[]).includes(body.otp_type ?? '')
        ? (body.otp_type as OtpType)
        : null;
      const otp = body.otp ?? null;
      let token: string;
      try {
        ({ token } = await this.mfa.completeWithCode(pending, domain.id, accepted, type, otp));
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 401) throw e;
        return second(401, { error: 'Invalid or expired code' });
      }
      return redirect(backTo(q, true), this.sessions.startWith(token));
    });
  }

  /**
   * POST passkey: the page's passkey button posted its assertion: the passwordless sign-in, or (a pending
   * sign-in's cookie) its second factor (ConsentPasskeys).
   */
  passkey(req: Request, body: ConsentPasskeyForm): Promise<PageResult> {
    const q = requestFields(body);
    return this.valid(req, q, (s) =>
      this.passkeys.complete(req, s, q, body, (status, error) => this.loginForm(s, q, status, error)),
    );
  }

  /**
   * POST: the decision (Allow or Deny), a 303 to the application. A POST without a decision and without the
   * page's CSRF field is an authorization request sent by form (OpenID Connect Core §3.1.2.1: the endpoint
   * takes GET and POST), answered as the GET.
   */
  decide(req: Request, body: ConsentDecisionForm): Promise<PageResult> {
    if (body.decision === undefined && body.csrf === undefined) return this.show(req, requestFields(body));
    const q = requestFields(body);
    return this.valid(req, q, async ({ v, csrf, page, redirect }) => {
      const session = await this.approver(req, v);
      if (!session) return page(401, loginPage(v.app.name, q, csrf, 'Please sign in again.'));
      if (!this.sessions.csrfValid(req, body.csrf)) {
        const detail = 'The form was stale or forged. Start again from the application.';
        return page(403, errorPage('Request expired', detail));
      }
      const allow = body.decision === 'allow';
      return redirect(await this.requests.decide(v, session, allow, this.config.http.publicBaseUrl));
    });
  }

  /** The session that may approve `v`, or null where signing in again would give one (see requireApprover). */
  private async approver(req: Request, v: ValidAuthorization): Promise<AuthContext | null> {
    const session = await this.sessions.current(req, APPROVER);
    if (!session) return null;
    try {
      await this.requests.requireApprover(v, session);
      return session;
    } catch (e) {
      if (e instanceof AuthorizationRequestError && e.signInAgain) return null;
      throw e;
    }
  }

  /** Validates the request first; its problems are shown on the page, never redirected. */
  private async valid(
    req: Request,
    q: AuthorizationParams,
    step: (s: Step) => Promise<PageResult>,
  ): Promise<PageResult> {
    let first: PageCookie[] = [];
    try {
      const v = await this.requests.validate(q);
      // every page of a valid request carries the form's CSRF token (its cookie is set here when missing)
      const { token: csrf, cookie } = this.sessions.csrfToken(req);
      if (cookie) first = [cookie];
      const formTarget = v.redirectUri;
      // the sign-in pages load the service's passkey scripts (and nothing else: page-scripts.ts)
      const scripts = `${this.config.http.publicBaseUrl}${SCRIPTS_PATH}`;
      return await step({
        v,
        csrf,
        page: (status, html, cookies = []) => ({
          status,
          html,
          cookies: [...first, ...cookies],
          formTarget,
          scripts,
        }),
        redirect: (location, cookies = []) => ({
          status: 303,
          redirect: location,
          cookies: [...first, ...cookies],
          formTarget,
        }),
      });
    } catch (e) {
      if (!(e instanceof AuthorizationRequestError)) throw e;
      const note =
        e.status === 403
          ? 'Sign in with an account of the application’s domain, or ask its administrator for access.'
          : undefined;
      return { status: e.status, html: errorPage(e.title, e.detail, note), cookies: first };
    }
  }
}
