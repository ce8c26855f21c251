import { jest } from '@jest/globals';
import type { Request } from 'express';
import { createRequire } from 'node:module';
import { Strategy } from 'passport-jwt';
import { Authenticator } from '../../src/auth/authenticator.js';
import { SsoLoginService } from '../../src/sign-in/identity-providers/sso-login.service.js';
import { TokensService } from '../../src/credentials/tokens/tokens.service.js';
import { SigningKeysService } from '../../src/base/keys/signing-keys.service.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  authorizationRequest,
  createOAuthApp,
  OAUTH,
  type OAuthApp,
  pkce,
  SESSION_COOKIE,
} from '../utils/oauth.js';

/**
 * The one Authenticator (common/auth/authenticator.ts): every credential source is read by the one
 * passport-jwt strategy it runs, for the guard and for the consent pages alike. Beside the sources' own
 * suites (guard, mfa, consent), this holds what crosses them: a credential of one source never passes for another, hostile cookie values
 * are "not signed in" and never a 5xx, and a lookup that fails for any other reason than the credential (the
 * database down, a bug) is never answered as "not signed in".
 */
describe('the Authenticator and its credential sources', () => {
  let t: TestApp;
  let user: UserEntity;
  let app: OAuthApp;
  let consentPath: string;
  let login: string;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t, { isAdmin: true });
    app = await createOAuthApp(t, { kind: 'server' });
    consentPath = `${OAUTH.consent}?${new URLSearchParams(authorizationRequest(app, pkce()))}`;
    login = (await tokenFor(t, user, { domainId: app.domainId })).token;
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const consent = (cookie: string) => t.http.get(consentPath).set('Cookie', cookie);
  const signedIn = (html: string) =>
    html.includes('wants to access your account') && html.includes(user.email);
  const loginForm = (html: string) => html.includes('Sign in to continue to');
  /** A request as Node hands it over: header names in lower case. */
  const fakeReq = (headers: Record<string, string>) =>
    ({
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
      id: 'test-request',
      method: 'GET',
      url: '/',
    }) as unknown as Request;

  it('passport-jwt verifies with its own jsonwebtoken verifier: the application changes nothing process-wide', () => {
    // the class-wide verifier is passport-jwt's own module, the one every strategy of the process shares
    const own = createRequire(import.meta.url)('passport-jwt/lib/verify_jwt');
    expect((Strategy as unknown as { JwtVerifier: unknown }).JwtVerifier).toBe(own);
  });

  it('each header source runs its own strategy; the Authorization header wins over the others', async () => {
    const authenticator = t.get(Authenticator);
    const viaBearer = await authenticator.fromHeaders(fakeReq(bearer(login)));
    expect(viaBearer.userId).toBe(user.id);
    const pair = { 'app-id': viaBearer.appId, 'auth-token': login };
    expect((await authenticator.fromHeaders(fakeReq(pair))).tokenId).toBe(viaBearer.tokenId);
    // a broken Authorization next to a valid Auth-Token: the Authorization source decides (no fallback)
    await expect(
      authenticator.fromHeaders(fakeReq({ ...pair, authorization: 'Bearer x.y.z' })),
    ).rejects.toMatchObject({ status: 401, code: 'auth.INVALID_TOKEN' });
    await expect(authenticator.fromHeaders(fakeReq({}))).rejects.toMatchObject({
      code: 'auth.NO_CREDENTIALS',
    });
  });

  it('a token of one kind does not pass as another source’s: TEMP only in Temp-Auth-Token, LOGIN not there', async () => {
    const temp = (await tokenFor(t, user, { kind: 'TEMP', domainId: app.domainId })).token;
    const authenticator = t.get(Authenticator);
    for (const headers of [bearer(temp), { 'auth-token': temp }]) {
      await expect(authenticator.fromHeaders(fakeReq(headers))).rejects.toMatchObject({
        code: 'auth.KIND_NOT_ACCEPTED',
      });
    }
    await expect(authenticator.fromHeaders(fakeReq({ 'temp-auth-token': login }))).rejects.toMatchObject({
      code: 'auth.KIND_NOT_ACCEPTED',
    });
    expect((await authenticator.fromHeaders(fakeReq({ 'temp-auth-token': temp }))).kind).toBe('TEMP');
    // and in the consent cookies: a TEMP token is no session, a login token no pending sign-in
    expect(
      await authenticator.fromCookie('consent-session', fakeReq({ cookie: `${SESSION_COOKIE}=${temp}` })),
    ).toBeNull();
    expect(
      await authenticator.fromCookie('consent-pending', fakeReq({ cookie: `portcullis_pending=${login}` })),
    ).toBeNull();
    expect(
      (await authenticator.fromCookie('consent-pending', fakeReq({ cookie: `portcullis_pending=${temp}` })))
        ?.kind,
    ).toBe('TEMP');
  });

  it('concurrent requests on one source each get their own caller (no verdict crosses requests)', async () => {
    const authenticator = t.get(Authenticator);
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
    const tokens = await Promise.all(users.map((u) => tokenFor(t, u, { domainId: app.domainId })));
    // one in three is refused: a failure answered to another request would show as a wrong or missing caller
    const outcomes = await Promise.all(
      tokens
        .flatMap(({ token }) => [
          authenticator.fromHeaders(fakeReq(bearer(token))).then((a) => a.userId),
          authenticator.fromHeaders(fakeReq(bearer(`${token}x`))).then(
            () => 'accepted',
            () => 'refused',
          ),
          authenticator
            .fromCookie('consent-session', fakeReq({ cookie: `${SESSION_COOKIE}=${token}` }))
            .then((a) => a?.userId),
        ])
        .map((p, j) => p.then((v) => [j, v] as const)),
    );
    expect(outcomes.map(([, v]) => v)).toEqual(users.flatMap((u) => [u.id, 'refused', u.id]));
  });

  it('the session cookie signs the page in; header credentials do not (the pages read their cookie only)', async () => {
    expect(signedIn((await consent(`${SESSION_COOKIE}=${login}`).expect(200)).text)).toBe(true);
    const res = await t.http.get(consentPath).set(bearer(login)).expect(200);
    expect(loginForm(res.text)).toBe(true);
  });

  it.each([
    ['percent-encoding that does not decode', '%E0%A4%A'],
    ['garbage', 'not-a-jwt'],
    ['a long value', 'A'.repeat(6000)],
    ['alg none', `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.e30.`],
    [
      'a JWT signed by nobody we know',
      'eyJhbGciOiJFUzI1NiIsImtpZCI6IjAwMDAwMDAwLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwMCJ9.e30.AAAA',
    ],
    ['the token with its signature cut', () => login.split('.').slice(0, 2).join('.') + '.'],
    ['a signature one character too long', () => `${login}A`],
  ])('hostile session cookie (%s): the sign-in form, never a 5xx', async (_name, value) => {
    const raw = typeof value === 'function' ? value() : value;
    const res = await consent(`${SESSION_COOKIE}=${raw}`).expect(200);
    expect(loginForm(res.text)).toBe(true);
  });

  it('a revoked session is signed out on the next page', async () => {
    const { token, id } = await tokenFor(t, user, { domainId: app.domainId });
    expect(signedIn((await consent(`${SESSION_COOKIE}=${token}`).expect(200)).text)).toBe(true);
    await t.http.delete(`/API/auth/v1/auth/token/${id}/`).set(bearer(login)).expect(200);
    expect(loginForm((await consent(`${SESSION_COOKIE}=${token}`).expect(200)).text)).toBe(true);
  });

  it('another tenant’s session does not approve for this app’s domain', async () => {
    const other = await createDomain(t);
    const stranger = await createUser(t, { domainId: other.id });
    const theirs = (await tokenFor(t, stranger)).token;
    const res = await consent(`${SESSION_COOKIE}=${theirs}`);
    expect(res.text).not.toContain(stranger.email);
    expect([200, 403]).toContain(res.status);
  });

  describe('a lookup that fails for another reason than the credential is never "not signed in"', () => {
    const outage = () => new Error('Connection terminated unexpectedly');
    const fail = (err: Error) =>
      jest.spyOn(TokensService.prototype, 'authenticate').mockRejectedValue(err as never);

    it('database down: the consent page is the 503 page, the API a 503, both with Retry-After', async () => {
      fail(outage());
      const page = await consent(`${SESSION_COOKIE}=${login}`).expect(503);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['retry-after']).toBe('5');
      expect(page.text).toContain('Temporarily unavailable');
      expect(loginForm(page.text)).toBe(false);
      const api = await t.http.get('/API/auth/v1/auth/token/').set(bearer(login)).expect(503);
      expect(api.headers['retry-after']).toBe('5');
    });

    it('database down while the page exchanges a single sign-on code: the 503 page, not "sign-on failed"', async () => {
      jest.spyOn(SsoLoginService.prototype, 'exchange').mockRejectedValue(outage() as never);
      const page = await t.http.get(`${consentPath}&saml_code=${'a'.repeat(43)}`).expect(503);
      expect(page.text).toContain('Temporarily unavailable');
      expect(page.text).not.toContain('Single sign-on failed');
    });

    it('database down while the verification key is read: a 503, not the 401 of a bad token', async () => {
      jest.spyOn(SigningKeysService.prototype, 'verificationKey').mockRejectedValue(outage() as never);
      const api = await t.http.get('/API/auth/v1/auth/token/').set(bearer(login)).expect(503);
      expect(api.headers['retry-after']).toBe('5');
      const page = await consent(`${SESSION_COOKIE}=${login}`).expect(503);
      expect(loginForm(page.text)).toBe(false);
    });

    it('a bug: the 500 page, not the sign-in form', async () => {
      fail(new Error('boom'));
      const page = await consent(`${SESSION_COOKIE}=${login}`).expect(500);
      expect(loginForm(page.text)).toBe(false);
      // the API's answer to a bug in the lookup: guard.e2e-spec.ts (server faults during the lookup)
    });
  });
});
