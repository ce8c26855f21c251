import { Body, Controller, Get, Inject, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthContext } from '../../common/auth/auth-context.js';
import { Public } from '../../common/auth/authenticated.decorator.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { CredentialsService } from '../../login/credentials.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import { OTP_TYPES, type OtpType } from '../../mfa/mfa-policy.js';
import { MfaService } from '../../mfa/mfa.service.js';
import { SystemDomainEntity } from '../../system-domains/system-domain.entity.js';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  type AuthorizationParams,
  AuthorizationRequestError,
  AuthorizationRequestService,
  type ValidAuthorization,
} from '../authorization-request.service.js';
import {
  consentPage,
  errorPage,
  loginPage,
  requestFields,
  secondFactorPage,
  ssoRedirectPage,
} from './consent-pages.js';
import { SsoLoginService } from '../../identity-providers/sso-login.service.js';
import { ConsentExceptionFilter } from './consent-exception.filter.js';
import { ConsentSessionService } from './consent-session.service.js';
import { isUnavailable } from '../../common/errors/unavailable.js';

/** A refusal of the single sign-on step is null (the page says so); the database down is thrown on (503 page). */
function notAnOutage(e: unknown): null {
  if (isUnavailable(e)) throw e;
  return null;
}

/**
 * `{base_url}/oauth/authorize`: the server-rendered consent page (HTML, not part of the JSON API, so excluded
 * from the OpenAPI document). Every page forbids framing and is never cached.
 */
@ApiExcludeController()
@Public()
@UseFilters(ConsentExceptionFilter)
@Controller('oauth/authorize')
export class ConsentController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly requests: AuthorizationRequestService,
    private readonly sessions: ConsentSessionService,
    private readonly credentials: CredentialsService,
    private readonly mfa: MfaService,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly sso: SsoLoginService,
  ) {}

  @Get()
  async showConsentPage(
    @Query() q: AuthorizationParams,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.render(req, res, q, async (v, csrf) => {
      // back from single sign-on: the ACS's single-use code becomes the session, then the same request again
      const ssoCode = (q as Record<string, unknown>).saml_code;
      if (typeof ssoCode === 'string') {
        const signedIn = await this.sso.exchange(ssoCode).catch(notAnOutage);
        if (!signedIn)
          return this.send(res, 401, loginPage(v.app.name, q, csrf, 'Single sign-on failed.'), v);
        this.sessions.startWith(res, signedIn.token!);
        return this.redirect(res, this.backTo(requestFields(q) as AuthorizationParams), v);
      }
      // a session of another of the user's domains, or one short of the domain's second factor, is "not
      // signed in" here: sign in again for the app's domain. Refused before the user is offered a choice.
      const session = await this.approver(req, res, v);
      if (!session) return this.send(res, 200, loginPage(v.app.name, q, csrf), v);
      this.send(
        res,
        200,
        consentPage(v.app, session.user.email, this.requests.describeScopes(v.scopes), q, csrf),
        v,
      );
    });
  }

  @Post('login')
  @Public('signin') // checks a password: the sign-in budget of the address
  async submitConsentLogin(
    @Body() body: Record<string, string>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const q = requestFields(body) as AuthorizationParams;
    await this.render(req, res, q, async (v, csrf) => {
      if (!this.sessions.csrfValid(req, body.csrf)) {
        return this.send(
          res,
          403,
          loginPage(v.app.name, q, csrf, 'Your session expired; please try again.'),
          v,
        );
      }
      if (body.sso === '1') {
        // single sign-on: the IdP of the email's domain, returning to this same authorization request
        const email = String(body.email ?? '')
          .trim()
          .toLowerCase();
        const url = await this.sso.loginUrl(email, this.backTo(q)).catch(notAnOutage);
        if (!url)
          return this.send(res, 404, loginPage(v.app.name, q, csrf, 'No single sign-on for this email.'), v);
        return this.send(res, 200, ssoRedirectPage(url.url), v);
      }
      const user = await this.credentials.verify(String(body.email ?? ''), String(body.password ?? ''));
      if (!user) return this.send(res, 401, loginPage(v.app.name, q, csrf, 'Invalid email or password'), v);
      const domainId = await this.sessions.chooseDomain(user, v.app.system_domain_id);
      const domain = await this.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: domainId });
      const accepted = await this.mfa.owedFor(user.id, domain);
      if (accepted === null) {
        await this.sessions.start(res, user, v.app.system_domain_id);
        return this.redirect(res, this.backTo(q), v);
      }
      // a second factor is owed: the second step of the form, with a temporary token in its own cookie
      if (accepted.length === 0) {
        const why = 'This domain requires an authenticator app. Set one up in your account first.';
        return this.send(res, 403, loginPage(v.app.name, q, csrf, why), v);
      }
      this.sessions.startPending(res, await this.mfa.issueTemp(user.id, domainId));
      this.send(res, 200, secondFactorPage(v.app.name, q, csrf, accepted), v);
    });
  }

  @Post('mfa')
  @Public('signin') // checks a code: the sign-in budget of the address
  async submitConsentSecondFactor(
    @Body() body: Record<string, string>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const q = requestFields(body) as AuthorizationParams;
    await this.render(req, res, q, async (v, csrf) => {
      const pending = await this.sessions.pending(req);
      if (!pending) return this.send(res, 401, loginPage(v.app.name, q, csrf, 'Please sign in again.'), v);
      const domain = await this.ds
        .getRepository(SystemDomainEntity)
        .findOneByOrFail({ id: pending.systemDomainId });
      const accepted = (await this.mfa.owedFor(pending.userId, domain)) ?? [];
      if (!this.sessions.csrfValid(req, body.csrf)) {
        const error = 'Your session expired; please try again.';
        return this.send(res, 403, secondFactorPage(v.app.name, q, csrf, accepted, { error }), v);
      }
      if (body.action === 'send' && accepted.includes('MAIL_2SV')) {
        await this.mfa.generateForCurrent(pending);
        const info = `We mailed a code to ${pending.user.email}. It is valid for 10 minutes.`;
        return this.send(res, 200, secondFactorPage(v.app.name, q, csrf, accepted, { info }), v);
      }
      const type = (OTP_TYPES as readonly string[]).includes(body.otp_type)
        ? (body.otp_type as OtpType)
        : null;
      try {
        const { token } = await this.mfa.completeWithCode(
          pending,
          domain.id,
          accepted,
          type,
          typeof body.otp === 'string' ? body.otp : null,
        );
        this.sessions.startWith(res, token);
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 401) throw e;
        const error = 'Invalid or expired code';
        return this.send(res, 401, secondFactorPage(v.app.name, q, csrf, accepted, { error }), v);
      }
      this.redirect(res, this.backTo(q), v);
    });
  }

  /** The session that may approve `v`, or null where signing in again would give one (see requireApprover). */
  private async approver(req: Request, res: Response, v: ValidAuthorization): Promise<AuthContext | null> {
    const session = await this.sessions.current(req);
    if (!session) return null;
    try {
      await this.requests.requireApprover(v, session);
      return session;
    } catch (e) {
      if (e instanceof AuthorizationRequestError && e.signInAgain) return null;
      throw e;
    }
  }

  private backTo(q: AuthorizationParams): string {
    const back = new URLSearchParams(
      Object.entries(q).filter(([, x]) => x !== undefined) as [string, string][],
    );
    return `/oauth/authorize?${back.toString()}`;
  }

  @Post()
  async submitConsentDecision(
    @Body() body: Record<string, string>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const q = requestFields(body) as AuthorizationParams;
    await this.render(req, res, q, async (v, csrf) => {
      const session = await this.approver(req, res, v);
      if (!session) return this.send(res, 401, loginPage(v.app.name, q, csrf, 'Please sign in again.'), v);
      if (!this.sessions.csrfValid(req, body.csrf)) {
        return this.send(
          res,
          403,
          errorPage('Request expired', 'The form was stale or forged. Start again from the application.'),
          v,
        );
      }
      const location = await this.requests.decide(
        v,
        session,
        body.decision === 'allow',
        this.config.http.publicBaseUrl,
      );
      this.redirect(res, location, v);
    });
  }

  /** Validates the request first; its problems are shown on the page, never redirected. */
  private async render(
    req: Request,
    res: Response,
    q: AuthorizationParams,
    ok: (v: ValidAuthorization, csrf: string) => Promise<void>,
  ) {
    try {
      // every page of a valid request carries the form's CSRF token (its cookie is set here when missing)
      const v = await this.requests.validate(q);
      await ok(v, this.sessions.csrfToken(req, res));
    } catch (e) {
      if (e instanceof AuthorizationRequestError) {
        const note =
          e.status === 403
            ? 'Sign in with an account of the application’s domain, or ask its administrator for access.'
            : undefined;
        return this.send(res, e.status, errorPage(e.title, e.detail, note));
      }
      throw e;
    }
  }

  private send(res: Response, status: number, html: string, v?: ValidAuthorization): void {
    this.protect(res, v).status(status).setHeader('Content-Type', 'text/html; charset=utf-8').send(html);
  }

  /** A 303 carries a code, an error or a fresh session cookie: the same headers as the pages, never cached. */
  private redirect(res: Response, location: string, v: ValidAuthorization): void {
    this.protect(res, v).redirect(303, location);
  }

  private protect(res: Response, v?: ValidAuthorization): Response {
    const target = v ? new URL(v.redirectUri) : null;
    const formTarget = target ? (target.protocol.startsWith('http') ? target.origin : target.protocol) : '';
    return res
      .setHeader('Cache-Control', 'no-store')
      .setHeader('Pragma', 'no-cache')
      .setHeader('X-Frame-Options', 'DENY')
      .setHeader('Referrer-Policy', 'no-referrer')
      .setHeader('X-Content-Type-Options', 'nosniff')
      .setHeader(
        'Content-Security-Policy',
        `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${formTarget}; frame-ancestors 'none'; base-uri 'none'`.replace(
          /\s+;/,
          ';',
        ),
      );
  }
}
