/** The authorization request specs' approver, refusal and valid request (with authorization-request-fakes.ts). */
import type { AuthContext } from '../../../src/base/common/auth/auth-context.js';
import {
  AuthorizationRequestError,
  type ValidAuthorization,
} from '../../../src/sign-in/oauth/authorization-request.service.js';
import { app, CHALLENGE } from '../authorization-request-fakes.js';

/** The signed-in approver: u1 in d1 (a member of d1 and d2), no ceiling, a factor passed when `mfa`. */
export const approver = (over: Partial<AuthContext> = {}, mfa = false) =>
  ({
    userId: 'u1',
    systemDomainId: 'd1',
    systemDomains: ['d1', 'd2'],
    rightsCap: null,
    record: { is_mfa_authenticated: mfa },
    ...over,
  }) as unknown as AuthContext;

/** The AuthorizationRequestError `p` is refused with: a test fails when `p` resolves, or fails otherwise. */
export async function refusal(p: Promise<unknown>): Promise<AuthorizationRequestError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AuthorizationRequestError);
  return e as AuthorizationRequestError;
}

/** A validated plain OAuth request of the app for scope read, state st, to its registered URI with a query. */
export const validRequest = (): ValidAuthorization => ({
  app: app(),
  redirectUri: 'https://client.example/cb?x=1',
  scopes: ['read'],
  state: 'st',
  codeChallenge: CHALLENGE,
  openid: false,
  nonce: null,
  prompt: [],
  maxAge: null,
  loginHint: null,
});
