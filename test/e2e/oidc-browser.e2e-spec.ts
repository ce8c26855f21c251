import { decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import {
  apiLogin,
  type CreatedApp,
  createAppViaApi,
  type ListeningApp,
  type RedirectTarget,
  startListeningApp,
  startRedirectTarget,
} from '../utils/oauth-interop-helpers.js';
import { describeInBrowser, launchChromium, type LaunchedBrowser } from '../utils/browser.js';

/**
 * OpenID Connect from the relying party's side (issue 40): `openid-client` (v6, the certified RP library)
 * discovers the service, builds the authorization URL (PKCE S256, nonce, state), and validates what comes
 * back (id_token signature through the JWKS, iss, aud, nonce, at_hash, auth_time), while a person signs in
 * and presses Allow on the consent page in real headless Chromium. Then userinfo, refresh, remembered
 * consent, `prompt`, `max_age` and RP-initiated logout, and their refusals.
 *
 * The issuer is plain http on loopback, so the library runs with `allowInsecureRequests`. Skipped without
 * Chromium outside CI, as the other browser suites (test/utils/browser.ts).
 */
const SCOPE = 'openid profile email';

describeInBrowser('OpenID Connect with openid-client through the consent page in headless Chromium', () => {
  let L: ListeningApp;
  let target: RedirectTarget;
  let browser: Browser;
  let chromiumRun: LaunchedBrowser | undefined;
  let rp: CreatedApp;
  let other: CreatedApp;
  let plain: CreatedApp;
  let rpConfig: client.Configuration;
  let otherConfig: client.Configuration;
  let plainConfig: client.Configuration;
  let callback: string;
  let signedOut: string;

  const discover = (app: CreatedApp) =>
    client.discovery(new URL(L.base), app.id, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });

  beforeAll(async () => {
    chromiumRun = await launchChromium();
    browser = chromiumRun.browser;
    L = await startListeningApp();
    target = await startRedirectTarget();
    callback = `${target.origin}/callback`;
    signedOut = `${target.origin}/signed-out`;
    const admin = await createUser(L.t, { isAdmin: true });
    const adminToken = await apiLogin(L.base, admin.email, DEFAULT_PASSWORD);
    const oidcApp = (name: string) =>
      createAppViaApi(L.base, adminToken, {
        name,
        url: 'https://rp.example',
        type: 'OAUTH',
        oauth_client_type: 'public',
        allowed_scopes: ['openid', 'profile', 'email', 'assets:read'],
        redirect_uris: [callback],
        post_logout_redirect_uris: [signedOut],
      });
    rp = await oidcApp('Relying Party');
    other = await oidcApp('Other Party');
    plain = await createAppViaApi(L.base, adminToken, {
      name: 'Plain OAuth',
      type: 'OAUTH',
      oauth_client_type: 'public',
      allowed_scopes: ['assets:read'],
      redirect_uris: [callback],
    });
    [rpConfig, otherConfig, plainConfig] = await Promise.all([
      discover(rp),
      discover(other),
      discover(plain),
    ]);
  }, 60_000);

  afterAll(async () => {
    await chromiumRun?.close();
    await target?.close();
    await L?.close();
  });

  /** One browser (its own cookies) per test, unless a test opens more. */
  let context: BrowserContext;
  let page: Page;
  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(() => context?.close());

  interface AuthRequest {
    url: URL;
    verifier: string;
    nonce: string;
    state: string;
  }

  /** The authorization URL as the library builds it: PKCE S256, a nonce and a state of its own. */
  async function authorization(
    config: client.Configuration,
    extra: Record<string, string> = {},
  ): Promise<AuthRequest> {
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: callback,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
      ...extra,
    });
    return { url, verifier, nonce, state };
  }

  /** The library's code exchange of where the browser landed, with every check of the request. */
  const exchange = (config: client.Configuration, r: AuthRequest, landed: string, maxAge?: number) =>
    client.authorizationCodeGrant(config, new URL(landed), {
      pkceCodeVerifier: r.verifier,
      expectedNonce: r.nonce,
      expectedState: r.state,
      idTokenExpected: true,
      ...(maxAge === undefined ? {} : { maxAge }),
    });

  const heading = () => page.locator('h1').first().textContent();
  const landedOnTarget = (u: URL) => u.origin === target.origin;

  /** On the sign-in form: fills it, signs in, and waits for the consent page or the redirect target. */
  async function signInOnForm(
    user: UserEntity,
    next: 'consent' | 'callback' = 'consent',
    p: Page = page,
  ): Promise<void> {
    await p.getByLabel('Email').fill(user.email);
    await p.getByLabel('Password').fill(DEFAULT_PASSWORD);
    await Promise.all([
      p.waitForURL(next === 'consent' ? (u) => u.pathname === '/oauth/authorize' : landedOnTarget),
      p.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    if (next === 'consent') await p.getByRole('button', { name: 'Allow' }).waitFor();
  }

  /** On the consent page: presses Allow and returns where the browser landed. */
  async function allow(p: Page = page): Promise<string> {
    await Promise.all([p.waitForURL(landedOnTarget), p.getByRole('button', { name: 'Allow' }).click()]);
    return p.url();
  }

  /** A full first authorization: open the page, sign in, Allow; the library's validated tokens. */
  async function signInAndAllow(config: client.Configuration, user: UserEntity, p: Page = page) {
    const r = await authorization(config);
    expect((await p.goto(r.url.toString()))?.status()).toBe(200);
    await signInOnForm(user, 'consent', p);
    const tokens = await exchange(config, r, await allow(p));
    return { r, tokens, claims: tokens.claims()! };
  }

  const userinfoStatus = async (accessToken: string) =>
    (
      await fetch(`${L.base}/API/auth/v1/oauth/userinfo/`, {
        headers: { Authorization: `Bearer ${accessToken}` },
      })
    ).status;

  describe('the whole journey of one relying party', () => {
    // one person, one browser, the steps in order: sign in, refresh, come back, log out
    let user: UserEntity;
    let journey: BrowserContext;
    let tab: Page;
    let first: Awaited<ReturnType<typeof signInAndAllow>>;
    let lastAccessToken: string;
    let lastRefreshToken: string;

    beforeAll(async () => {
      user = await createUser(L.t);
      journey = await browser.newContext();
      tab = await journey.newPage();
    });
    afterAll(() => journey?.close());

    it('discovery: the library reads the provider configuration, issuer equal to the address used', () => {
      const meta = rpConfig.serverMetadata();
      expect(meta.issuer).toBe(L.base);
      expect(meta).toMatchObject({
        authorization_endpoint: `${L.base}/oauth/authorize`,
        token_endpoint: `${L.base}/API/auth/v1/oauth/token/`,
        userinfo_endpoint: `${L.base}/API/auth/v1/oauth/userinfo/`,
        end_session_endpoint: `${L.base}/oauth/logout`,
        jwks_uri: `${L.base}/API/auth/v1/oauth/jwks/`,
        id_token_signing_alg_values_supported: ['ES256'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
      });
      expect(meta.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));
      expect(meta.supportsPKCE()).toBe(true);
    });

    it('sign in and Allow in Chromium; the library validates the id_token (JWKS, iss, aud, nonce, at_hash)', async () => {
      const r = await authorization(rpConfig);
      expect(r.url.origin + r.url.pathname).toBe(`${L.base}/oauth/authorize`);
      expect(Object.fromEntries(r.url.searchParams)).toMatchObject({
        client_id: rp.id,
        response_type: 'code',
        scope: SCOPE,
        code_challenge_method: 'S256',
        nonce: r.nonce,
        state: r.state,
      });

      expect((await tab.goto(r.url.toString()))?.status()).toBe(200);
      await expect(tab.locator('h1').textContent()).resolves.toBe('Sign in to continue to Relying Party');
      await signInOnForm(user, 'consent', tab);
      await expect(tab.locator('h1').textContent()).resolves.toBe(
        'Relying Party wants to access your account',
      );
      const landed = await allow(tab);
      expect(new URL(landed).searchParams.get('iss')).toBe(L.base);

      const tokens = await exchange(rpConfig, r, landed);
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      expect(tokens.scope).toBe(SCOPE);
      expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('ES256');
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({
        iss: L.base,
        aud: rp.id,
        sub: user.id,
        nonce: r.nonce,
        email: user.email,
        name: `${user.first_name} ${user.last_name}`,
        given_name: user.first_name,
        family_name: user.last_name,
        at_hash: expect.any(String),
        sid: expect.any(String),
      });
      expect(typeof claims.email_verified).toBe('boolean');
      expect(Math.abs((claims.auth_time as number) - Date.now() / 1000)).toBeLessThan(60);
      first = { r, tokens, claims };
      lastAccessToken = tokens.access_token;
      lastRefreshToken = tokens.refresh_token!;
    });

    it('fetchUserInfo: the same sub, email and name, checked by the library against the id_token’s sub', async () => {
      const info = await client.fetchUserInfo(rpConfig, first.tokens.access_token, user.id);
      expect(info).toMatchObject({
        sub: user.id,
        email: user.email,
        name: `${user.first_name} ${user.last_name}`,
      });
      // the POST form answers the same (Core §5.3.1)
      const res = await fetch(`${L.base}/API/auth/v1/oauth/userinfo/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${first.tokens.access_token}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ sub: user.id, email: user.email });
      // a token of another subject is caught by the library
      await expect(
        client.fetchUserInfo(rpConfig, first.tokens.access_token, 'someone-else'),
      ).rejects.toThrow();
    });

    it('refreshTokenGrant: a new id_token, validated by the library, with the same sub, auth_time and sid', async () => {
      const refreshed = await client.refreshTokenGrant(rpConfig, first.tokens.refresh_token!);
      expect(refreshed.id_token).toEqual(expect.any(String));
      expect(refreshed.id_token).not.toBe(first.tokens.id_token);
      const claims = refreshed.claims()!;
      expect(claims).toMatchObject({
        iss: L.base,
        aud: rp.id,
        sub: first.claims.sub,
        auth_time: first.claims.auth_time,
        sid: first.claims.sid,
        email: user.email,
      });
      // no nonce after a refresh (Core §12.2)
      expect(claims.nonce).toBeUndefined();
      expect(refreshed.access_token).not.toBe(first.tokens.access_token);
      lastAccessToken = refreshed.access_token;
      lastRefreshToken = refreshed.refresh_token ?? first.tokens.refresh_token!;
    });

    it('a second authorization for the same scopes skips the consent screen (remembered)', async () => {
      const before = target.received.length;
      const r = await authorization(rpConfig);
      // the page answers with a redirect straight back to the client: no sign-in form, no consent page
      const seen: string[] = [];
      const onResponse = (res: { url(): string; status(): number }) => {
        if (new URL(res.url()).origin === L.base) seen.push(`${res.status()}`);
      };
      tab.on('response', onResponse);
      await tab.goto(r.url.toString());
      tab.off('response', onResponse);
      expect(new URL(tab.url()).origin).toBe(target.origin);
      expect(seen).toEqual(['303']);
      expect(target.received.length).toBe(before + 1);
      const tokens = await exchange(rpConfig, r, tab.url());
      expect(tokens.claims()).toMatchObject({
        sub: user.id,
        nonce: r.nonce,
        auth_time: first.claims.auth_time,
      });
    });

    it('prompt=consent shows the consent screen again, though remembered and signed in', async () => {
      const r = await authorization(rpConfig, { prompt: 'consent' });
      expect((await tab.goto(r.url.toString()))?.status()).toBe(200);
      await expect(tab.locator('h1').textContent()).resolves.toBe(
        'Relying Party wants to access your account',
      );
      expect(await tab.getByText(`Signed in as ${user.email}`).isVisible()).toBe(true);
      const tokens = await exchange(rpConfig, r, await allow(tab));
      expect(tokens.claims()).toMatchObject({ sub: user.id, nonce: r.nonce });
    });

    it('logout via buildEndSessionUrl (id_token_hint, registered URI, state): back to that URI with the state; the tokens and the session are over', async () => {
      expect(await userinfoStatus(lastAccessToken)).toBe(200);
      const state = client.randomState();
      const url = client.buildEndSessionUrl(rpConfig, {
        id_token_hint: first.tokens.id_token!,
        post_logout_redirect_uri: signedOut,
        state,
      });
      expect(url.origin + url.pathname).toBe(`${L.base}/oauth/logout`);
      expect(url.searchParams.get('client_id')).toBe(rp.id);

      const before = target.received.length;
      await tab.goto(url.toString());
      const landed = new URL(tab.url());
      expect(landed.origin + landed.pathname).toBe(signedOut);
      expect(landed.searchParams.get('state')).toBe(state);
      expect(target.received.slice(before).map((u) => u.pathname)).toEqual(['/signed-out']);

      // the access tokens of the session's authorizations are refused, with RFC 6750's challenge
      for (const token of [first.tokens.access_token, lastAccessToken]) {
        const res = await fetch(`${L.base}/API/auth/v1/oauth/userinfo/`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      }
      await expect(client.fetchUserInfo(rpConfig, lastAccessToken, user.id)).rejects.toThrow();
      // and so is the refresh token
      await expect(client.refreshTokenGrant(rpConfig, lastRefreshToken)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      // the consent page asks to sign in again
      const again = await authorization(rpConfig);
      expect((await tab.goto(again.url.toString()))?.status()).toBe(200);
      await expect(tab.locator('h1').textContent()).resolves.toBe('Sign in to continue to Relying Party');
      expect(await tab.getByLabel('Password').isVisible()).toBe(true);
    });
  });

  it('prompt=none without a session: redirect with error=login_required and the state; the library raises it', async () => {
    const r = await authorization(rpConfig, { prompt: 'none' });
    await page.goto(r.url.toString());
    const landed = new URL(page.url());
    expect(landed.origin + landed.pathname).toBe(callback);
    expect(landed.searchParams.get('error')).toBe('login_required');
    expect(landed.searchParams.get('state')).toBe(r.state);
    expect(landed.searchParams.get('iss')).toBe(L.base);
    expect(landed.searchParams.get('code')).toBeNull();
    const err = await exchange(rpConfig, r, page.url()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(client.AuthorizationResponseError);
    expect((err as client.AuthorizationResponseError).error).toBe('login_required');
  });

  it('max_age=0 with a session: the sign-in form again (not the consent page); then a fresh auth_time the library accepts', async () => {
    const user = await createUser(L.t);
    const first = await signInAndAllow(rpConfig, user);
    await page.waitForTimeout(1100); // a later second for the new sign-in's auth_time

    const r = await authorization(rpConfig, { max_age: '0' });
    expect((await page.goto(r.url.toString()))?.status()).toBe(200);
    await expect(heading()).resolves.toBe('Sign in to continue to Relying Party');
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);

    const signInStarted = Math.floor(Date.now() / 1000);
    // consent is remembered: signing in sends the browser straight back to the client
    await signInOnForm(user, 'callback');
    const tokens = await exchange(rpConfig, r, page.url(), 0);
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(user.id);
    expect(claims.auth_time).toBeGreaterThan(first.claims.auth_time as number);
    expect(claims.auth_time).toBeGreaterThanOrEqual(signInStarted - 1);
    expect(claims.sid).not.toBe(first.claims.sid);
  });

  it('an id_token_hint issued to another client, with this client_id: an error page, nothing ends', async () => {
    const user = await createUser(L.t);
    const theirs = await signInAndAllow(otherConfig, user);
    const before = target.received.length;

    const url = client.buildEndSessionUrl(rpConfig, {
      id_token_hint: theirs.tokens.id_token!,
      post_logout_redirect_uri: signedOut,
      state: 'st',
    });
    expect(url.searchParams.get('client_id')).toBe(rp.id);
    const res = await page.goto(url.toString());
    expect(res?.status()).toBe(400);
    await expect(page.locator('h1.error').textContent()).resolves.toBe('Wrong client');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).origin).toBe(L.base);
    expect(target.received.length).toBe(before);

    // the other client's tokens and the browser's session live on
    expect(await userinfoStatus(theirs.tokens.access_token)).toBe(200);
    const refreshed = await client.refreshTokenGrant(otherConfig, theirs.tokens.refresh_token!);
    expect(refreshed.claims()?.sub).toBe(user.id);
    const r = await authorization(otherConfig);
    await page.goto(r.url.toString());
    expect(new URL(page.url()).origin).toBe(target.origin); // remembered, still signed in
    expect((await exchange(otherConfig, r, page.url())).claims()?.sub).toBe(user.id);
  });

  it('an unregistered post_logout_redirect_uri: an error page, no redirect, nothing ends', async () => {
    const user = await createUser(L.t);
    const mine = await signInAndAllow(rpConfig, user);
    const before = target.received.length;
    for (const uri of [`${target.origin}/elsewhere`, `${signedOut}/`, 'https://evil.example/signed-out']) {
      const url = client.buildEndSessionUrl(rpConfig, {
        id_token_hint: mine.tokens.id_token!,
        post_logout_redirect_uri: uri,
        state: 'st',
      });
      const res = await page.goto(url.toString());
      expect(res?.status()).toBe(400);
      await expect(page.locator('h1.error').textContent()).resolves.toBe(
        'Unregistered post_logout_redirect_uri',
      );
      expect(new URL(page.url()).origin).toBe(L.base);
    }
    await page.waitForTimeout(300);
    expect(new URL(page.url()).origin).toBe(L.base);
    expect(target.received.length).toBe(before);
    expect(await userinfoStatus(mine.tokens.access_token)).toBe(200);
  });

  it('a forged id_token_hint (signature altered): an error page, nothing ends', async () => {
    const user = await createUser(L.t);
    const mine = await signInAndAllow(rpConfig, user);
    const [h, p, s] = mine.tokens.id_token!.split('.');
    const forged = `${h}.${p}.${s.slice(0, -4)}${s.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const url = client.buildEndSessionUrl(rpConfig, {
      id_token_hint: forged,
      post_logout_redirect_uri: signedOut,
    });
    const res = await page.goto(url.toString());
    expect(res?.status()).toBe(400);
    await expect(page.locator('h1.error').textContent()).resolves.toBe('Invalid id_token_hint');
    expect(await userinfoStatus(mine.tokens.access_token)).toBe(200);
  });

  it('userinfo with an access token granted without openid: 403 with WWW-Authenticate error="insufficient_scope"', async () => {
    const user = await createUser(L.t);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(plainConfig, {
      redirect_uri: callback,
      scope: 'assets:read',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    await page.goto(url.toString());
    await signInOnForm(user);
    const tokens = await client.authorizationCodeGrant(plainConfig, new URL(await allow()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.id_token).toBeUndefined(); // plain OAuth: no id_token
    expect(tokens.scope).toBe('assets:read');

    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${L.base}/API/auth/v1/oauth/userinfo/`, {
        method,
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      });
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*error="insufficient_scope"/);
    }
    const err = await client
      .fetchUserInfo(plainConfig, tokens.access_token, user.id)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(client.WWWAuthenticateChallengeError);
    expect((err as client.WWWAuthenticateChallengeError).cause[0].parameters.error).toBe(
      'insufficient_scope',
    );
  });
});
