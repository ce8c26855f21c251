import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { Clock } from '../../src/base/common/clock.js';
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
 * The consent page's sign-in with a second factor, in real headless Chromium (as oauth-browser.e2e-spec.ts:
 * skipped without Chromium outside CI, a failure under CI): password, then the code from an authenticator
 * app, then Allow, then the redirect with a code that exchanges.
 */

describeInBrowser('consent page second factor in headless Chromium', () => {
  let L: ListeningApp;
  let target: RedirectTarget;
  let browser: Browser;
  let chromiumRun: LaunchedBrowser | undefined;
  let user: UserEntity;
  let secret: string;
  let gallery: CreatedApp;
  let callback: string;
  let clock: Clock;
  const code = () =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });

  beforeAll(async () => {
    chromiumRun = await launchChromium();
    browser = chromiumRun.browser;
    L = await startListeningApp();
    clock = L.t.get(Clock);
    target = await startRedirectTarget({});
    callback = `${target.origin}/callback`;
    const admin = await createUser(L.t, { isAdmin: true });
    user = await createUser(L.t);
    gallery = await createAppViaApi(L.base, await apiLogin(L.base, admin.email, DEFAULT_PASSWORD), {
      name: 'Media Gallery',
      type: 'OAUTH',
      oauth_client_type: 'public',
      allowed_scopes: ['assets:read'],
      redirect_uris: [callback],
    });
    // the user enrols an authenticator app through the API
    const login = { Authorization: `Bearer ${await apiLogin(L.base, user.email, DEFAULT_PASSWORD)}` };
    const started = await fetch(`${L.base}/API/users/v1/users/current/totp/configure/`, {
      method: 'POST',
      headers: login,
    });
    secret = ((await started.json()) as { secret: string }).secret;
    const confirmed = await fetch(`${L.base}/API/users/v1/users/current/totp/validate_configuration/`, {
      method: 'POST',
      headers: { ...login, 'Content-Type': 'application/json' },
      body: JSON.stringify({ otp: code() }),
    });
    expect(confirmed.status).toBe(200);
    clock.advance(30_000);
  }, 60_000);

  afterAll(async () => {
    await chromiumRun?.close();
    await target?.close();
    await L?.close();
  });

  it('password, then a wrong code (refused), then the right code → consent → Allow → a code that exchanges', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const verifier = randomBytes(32).toString('base64url');
      const state = randomBytes(16).toString('base64url');
      const url = new URL('/oauth/authorize', L.base);
      url.search = new URLSearchParams({
        response_type: 'code',
        code_challenge_method: 'S256',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        client_id: gallery.id,
        redirect_uri: callback,
        scope: 'assets:read',
        state,
      }).toString();
      await page.goto(url.toString());
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(DEFAULT_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Verify' }).waitFor();
      await expect(page.locator('h1').textContent()).resolves.toBe(
        'Confirm it is you to continue to Media Gallery',
      );
      // the domain has no policy and the user has TOTP only: no mailed code offered
      expect(await page.getByRole('button', { name: 'Email me a code' }).count()).toBe(0);
      expect(await context.cookies()).not.toContainEqual(
        expect.objectContaining({ name: 'portcullis_session' }),
      );

      await page.getByLabel('Code', { exact: true }).fill('000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('alert').waitFor();
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid or expired code');

      await page.getByLabel('Code', { exact: true }).fill(code());
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/oauth/authorize'),
        page.getByRole('button', { name: 'Verify' }).click(),
      ]);
      await expect(page.locator('h1').textContent()).resolves.toBe(
        'Media Gallery wants to access your account',
      );
      await Promise.all([
        page.waitForURL((u) => u.origin === target.origin),
        page.getByRole('button', { name: 'Allow' }).click(),
      ]);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe(state);
      const res = await fetch(`${L.base}/API/auth/v1/oauth/token/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: gallery.id,
          code: landed.searchParams.get('code')!,
          redirect_uri: callback,
          code_verifier: verifier,
        }).toString(),
      });
      expect(res.status).toBe(200);
    } finally {
      await context.close();
    }
  }, 60_000);
});
