import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthContext } from '../../../base/common/auth/auth-context.js';
import type { PageCookie, PageResult } from '../../../base/common/html/page-result.js';
import { isUuid } from '../../../base/common/validation/uuid.js';
import type { AppEntity } from '../../../base/model/app.entity.js';
import { TokensService } from '../../../credentials/tokens/tokens.service.js';
import { OAuthTokensService } from '../oauth-tokens.service.js';
import { OAuthRepository } from '../oauth.repository.js';
import { given } from '../form.js';
import { IdTokenService } from '../oidc/id-token.service.js';
import { APPROVER } from './consent-step.js';
import { errorPage } from './consent-pages.js';
import { ConsentSessionService } from './consent-session.service.js';
import { logoutConfirmPage, signedOutPage } from './logout-pages.js';

/** The end-session request (OpenID Connect RP-Initiated Logout 1.0 §2), query or form. */
export interface LogoutParams {
  id_token_hint?: string;
  post_logout_redirect_uri?: string;
  state?: string;
  client_id?: string;
  /** The confirmation page's form. */
  confirm?: string;
  csrf?: string;
}

const NOTE = 'You were not signed out by this request. Go back to the application and try again.';

class LogoutRefused extends Error {
  constructor(
    readonly title: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** A request checked: the client it names (if any), where to go after, and the session the hint names. */
interface ValidLogout {
  app: AppEntity | null;
  returnTo: string | null;
  hint: { userId: string; sid: string | null } | null;
}

/**
 * `{base_url}/oauth/logout`, the `end_session_endpoint`: ends the browser's consent-page session and revokes
 * what it approved (every authorization given with it: their access and refresh tokens), then returns the
 * browser to one of the app's registered `post_logout_redirect_uris` (exact match) with `state`, or shows that
 * the person is signed out. An `id_token_hint` this service issued for the browser's own session (its `sid`)
 * ends it at once; otherwise the person confirms with a form (CSRF-checked). Only the browser's own session
 * ever ends: an id_token of another session (another browser, another person) ends nothing by itself. A hint
 * for another client than `client_id`, a hint that is not ours, or an unregistered URI is an error page and
 * ends nothing.
 */
@Injectable()
export class LogoutFlow {
  constructor(
    private readonly sessions: ConsentSessionService,
    private readonly idTokens: IdTokenService,
    private readonly grants: OAuthTokensService,
    private readonly tokens: TokensService,
    private readonly repo: OAuthRepository,
  ) {}

  /**
   * GET, or a POST without `confirm`. A hint naming the browser's own session ends it at once; otherwise
   * (no hint, or a hint of another session: RP-Initiated Logout §2 says the person MUST be asked then) a
   * signed-in browser gets the confirmation page, and a browser without a session has nothing to end.
   */
  async start(req: Request, p: LogoutParams): Promise<PageResult> {
    return this.checked(p, async (v) => {
      const session = await this.sessions.current(req, APPROVER);
      if (!session) return this.done(v, p, this.sessions.end());
      const sid = this.idTokens.sidOf(session.record.id);
      if (v.hint && v.hint.sid === sid && v.hint.userId === session.userId) {
        await this.endSession(sid, session);
        return this.done(v, p, this.sessions.end());
      }
      const { token: csrf, cookie } = this.sessions.csrfToken(req);
      // the confirmation posts the client the request named (by hint or client_id), so its URI checks again
      const fields = { ...logoutFields(p), client_id: v.app?.id, csrf };
      return {
        status: 200,
        html: logoutConfirmPage(session.user.email, v.app?.name ?? null, fields),
        cookies: cookie ? [cookie] : [],
        formTarget: v.returnTo ?? undefined,
      };
    });
  }

  /** POST with `confirm`: the confirmation form; the browser's session ends. */
  async confirm(req: Request, p: LogoutParams): Promise<PageResult> {
    return this.checked(p, async (v) => {
      if (!this.sessions.csrfValid(req, p.csrf)) {
        return { status: 403, html: errorPage('Request expired', 'The form was stale or forged.', NOTE) };
      }
      const session = await this.sessions.current(req, APPROVER);
      if (session) await this.endSession(this.idTokens.sidOf(session.record.id), session);
      return this.done(v, p, this.sessions.end());
    });
  }

  /**
   * Revokes the browser's session (`sid` is its id in id_tokens) and every authorization approved with it:
   * their access and refresh tokens, and the session's sign-in token.
   */
  private async endSession(sid: string, session: AuthContext): Promise<void> {
    const grants = (await this.idTokens.sessionGrants(sid)).filter((g) => g.user_id === session.userId);
    for (const g of grants) await this.grants.revokeGrant(g.grant_id, { requestId: null });
    await this.tokens.revoke(session.record.id, { requestId: null });
  }

  private done(v: ValidLogout, p: LogoutParams, cookies: PageCookie[]): PageResult {
    if (!v.returnTo) return { status: 200, html: signedOutPage(), cookies };
    const url = new URL(v.returnTo);
    if (typeof p.state === 'string' && p.state !== '') url.searchParams.set('state', p.state);
    return { status: 303, redirect: url.toString(), cookies };
  }

  /** Checks the request before anything ends; its problems are an error page (never a redirect). */
  private async checked(p: LogoutParams, step: (v: ValidLogout) => Promise<PageResult>): Promise<PageResult> {
    try {
      return await step(await this.validate(p));
    } catch (e) {
      if (!(e instanceof LogoutRefused)) throw e;
      return { status: 400, html: errorPage(e.title, e.detail, NOTE) };
    }
  }

  private async validate(p: LogoutParams): Promise<ValidLogout> {
    const hintText = given(p.id_token_hint);
    const hint = hintText ? await this.idTokens.verifyHint(hintText) : null;
    if (hintText && !hint)
      throw new LogoutRefused('Invalid id_token_hint', 'The id_token_hint was not issued by this service.');
    const clientId = given(p.client_id);
    if (clientId && hint && hint.clientId !== clientId)
      throw new LogoutRefused(
        'Wrong client',
        'The id_token_hint was issued to another client than client_id.',
      );
    const appId = hint?.clientId ?? clientId;
    const app = appId && isUuid(appId) ? await this.repo.clientApp(appId) : null;
    if (appId && !app) throw new LogoutRefused('Unknown application', 'No application has this client_id.');
    const returnTo = given(p.post_logout_redirect_uri) ?? null;
    if (returnTo !== null) {
      if (!app)
        throw new LogoutRefused(
          'Unknown application',
          'post_logout_redirect_uri needs the id_token_hint or the client_id of its application.',
        );
      if (!app.post_logout_redirect_uris.includes(returnTo))
        throw new LogoutRefused(
          'Unregistered post_logout_redirect_uri',
          'The post_logout_redirect_uri is not registered for this application.',
        );
    }
    return { app, returnTo, hint: hint && { userId: hint.userId, sid: hint.sid } };
  }
}

/** The request's fields for the confirmation form (what it posts back). */
function logoutFields(p: LogoutParams): Record<string, string | undefined> {
  const keep = ['post_logout_redirect_uri', 'state', 'client_id'] as const;
  return Object.fromEntries(keep.map((k) => [k, given(p[k])]));
}
