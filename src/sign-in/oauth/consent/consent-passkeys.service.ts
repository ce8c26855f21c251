import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../../base/common/errors/api-error.js';
import type { PageResult } from '../../../base/common/html/page-result.js';
import { SystemDomainsService } from '../../../accounts/system-domains/system-domains.service.js';
import { fromRequest } from '../../../delivery/audit/audit-origin.js';
import { MfaService } from '../../mfa/mfa.service.js';
import { parseAssertion } from '../../passkeys/assertion-form.js';
import type { RequestOptionsDto } from '../../passkeys/dto/passkeys.dto.js';
import { PasskeySignIn } from '../../passkeys/passkey-sign-in.service.js';
import type { AuthorizationParams } from '../authorization-request.service.js';
import type { ConsentPasskeyForm } from './consent-forms.dto.js';
import { loginPage, secondFactorPage } from './consent-pages.js';
import { ConsentSessionService } from './consent-session.service.js';
import { backTo, NO_FACTOR, NONE, passable, PENDING_SIGN_IN, type Step } from './consent-step.js';

const NOT_ACCEPTED = 'Passkey not accepted.';

/**
 * The consent page's passkey button (docs/passkeys.md): its request options (JSON, for the page's script,
 * CSRF-checked), and its assertion posted with the page's form: a sign-in with the passkey alone (the
 * application's domain when the person belongs to it, else their home domain), or the second factor of the
 * pending sign-in whose cookie the browser holds. Both go through PasskeySignIn, as the API's routes do.
 */
@Injectable()
export class ConsentPasskeys {
  constructor(
    private readonly passkeys: PasskeySignIn,
    private readonly sessions: ConsentSessionService,
    private readonly mfa: MfaService,
    private readonly domains: SystemDomainsService,
  ) {}

  /**
   * The request options of the page's button, or null (a forged or stale CSRF token): for the pending
   * sign-in's account when there is one, else usernameless.
   */
  async options(req: Request, csrf: string | undefined): Promise<RequestOptionsDto | null> {
    if (!this.sessions.csrfValid(req, csrf)) return null;
    return this.passkeys.options({}, await this.sessions.pending(req, PENDING_SIGN_IN));
  }

  /** The assertion posted: the session (a 303 back to the request), the second step, or the page again. */
  async complete(
    req: Request,
    s: Step,
    q: AuthorizationParams,
    body: ConsentPasskeyForm,
    loginForm: (status: number, error: string) => Promise<PageResult>,
  ): Promise<PageResult> {
    const { v, csrf, page, redirect } = s;
    const pending = await this.sessions.pending(req, PENDING_SIGN_IN);
    const again = async (status: number, error: string): Promise<PageResult> => {
      if (!pending) return loginForm(status, error);
      const domain = await this.domains.byId(pending.systemDomainId);
      const owed = (await this.mfa.owedFactor(pending.userId, domain)) ?? NONE;
      return page(status, secondFactorPage(v.app.name, q, csrf, owed, { error }));
    };
    if (!this.sessions.csrfValid(req, body.csrf))
      return again(403, 'Your session expired; please try again.');
    const response = await parseAssertion(body.response);
    if (!response) return again(400, NOT_ACCEPTED);
    const origin = fromRequest(req);
    try {
      if (pending) {
        const { token } = await this.passkeys.completeSecondFactor({ response }, pending, origin);
        return redirect(backTo(q, true), this.sessions.startWith(token!));
      }
      const out = await this.passkeys.signIn({ response }, origin, (user) =>
        this.sessions.chooseDomain(user, v.app.system_domain_id),
      );
      if (out.token) return redirect(backTo(q, true), this.sessions.startWith(out.token));
      // the domain requires a factor its policy does not let a passkey pass: its own methods, as after a password
      const owed =
        (await this.mfa.owedFactor(out.user_id, await this.domains.byId(out.system_domain_id))) ?? NONE;
      if (!passable(owed)) return page(403, loginPage(v.app.name, q, csrf, NO_FACTOR));
      return page(
        200,
        secondFactorPage(v.app.name, q, csrf, owed),
        this.sessions.startPending(out.temp_token!),
      );
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 401) throw e;
      return again(401, NOT_ACCEPTED);
    }
  }
}
