import type { AuthenticatedOptions } from '../../../base/common/auth/authenticated.decorator.js';
import type { PageCookie, PageResult } from '../../../base/common/html/page-result.js';
import type { AuthorizationParams, ValidAuthorization } from '../authorization-request.service.js';
import { type OwedFactor, requestFields } from './consent-pages.js';

/**
 * What each step accepts, declared as an API route declares it and checked by the guard's own steps on the
 * cookie (common/auth/guard/page-steps.ts: credential kind, tenant status), so the page answers as the API:
 * - the session that views and decides: a person's sign-in (LOGIN) only, as the authorization API's routes;
 *   the decision is allowed on a FROZEN domain, as the API's decision route (`whileFrozen`, docs/tenants.md);
 * - the pending sign-in: the temporary token (TEMP) only, as the API's second-factor routes (`whileFrozen`).
 * A DEACTIVATED domain's credential is "not signed in" on every step.
 */
export const APPROVER: AuthenticatedOptions = { kinds: ['LOGIN'], whileFrozen: true };
export const PENDING_SIGN_IN: AuthenticatedOptions = { kinds: ['TEMP'], whileFrozen: true };

/** What a step of a valid request sees: the request, its CSRF token, and the answers it builds. */
export interface Step {
  v: ValidAuthorization;
  csrf: string;
  /** A page (status, html) carrying the cookies set so far. */
  page(status: number, html: string, cookies?: PageCookie[]): PageResult;
  /** A 303 carrying the cookies set so far. */
  redirect(location: string, cookies?: PageCookie[]): PageResult;
}

export const NO_FACTOR = 'This domain requires an authenticator app. Set one up in your account first.';
/** Nothing passes the factor (a sign-in that owes none has nothing to offer either). */
export const NONE: OwedFactor = { codes: [], passkey: false };
/** Whether the user can pass the owed factor here: a code, or their passkey. */
export const passable = (owed: OwedFactor) => owed.codes.length > 0 || owed.passkey;

/**
 * The consent page's own address for this authorization request. `signedIn`: the person just signed in on
 * it, which is what `prompt=login` (and `select_account`) and `max_age` asked for: they are left out, so the
 * new session is not sent to sign in again (its `auth_time` tells the client how recent it is).
 */
export function backTo(q: AuthorizationParams, signedIn = false): string {
  const fields: Record<string, string | undefined> = { ...requestFields(q) };
  if (signedIn) {
    const prompt = (fields.prompt ?? '')
      .split(' ')
      .filter((p) => p !== '' && p !== 'login' && p !== 'select_account')
      .join(' ');
    fields.prompt = prompt || undefined;
    fields.max_age = undefined;
  }
  const back = new URLSearchParams(
    Object.entries(fields).filter(([, x]) => x !== undefined) as [string, string][],
  );
  return `/oauth/authorize?${back.toString()}`;
}
