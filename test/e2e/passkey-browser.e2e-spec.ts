import { allowAndExchange, savePageOf, startAppAsLocalhost } from '../utils/browser-consent.js';
import type { Browser, BrowserContext, CDPSession, Page, Response as PageResponse } from 'playwright-core';
import { AuditEventEntity } from '../../src/base/model/audit-event.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { describeInBrowser, launchChromium, type LaunchedBrowser } from '../utils/browser.js';
import type { TestApp } from '../utils/create-test-app.js';
import {
  authorizationRequest,
  createOAuthApp,
  OAUTH,
  type OAuthApp,
  pkce,
  SESSION_COOKIE,
} from '../utils/oauth.js';
import { type RedirectTarget, startRedirectTarget } from '../utils/oauth-interop-helpers.js';
import { waitFor } from '../utils/wait-for.js';

/**
 * Passkeys on the consent page (issue 42) in real headless Chromium, with a virtual authenticator of the
 * DevTools WebAuthn domain (a platform authenticator holding discoverable credentials, verifying its user):
 * the passkey is registered through the users API from a page of the service (navigator.credentials.create()
 * through the page's own SimpleWebAuthnBrowser), then "Sign in with a passkey" (usernameless) and "Use your
 * passkey" (the second step after a password) each end on the consent screen, Allow, and a code that exchanges
 * for a token of that person; a passkey the service no longer knows is refused with no session; and a browser
 * without WebAuthn never sees the passkey section, its password form unchanged.
 *
 * Headless Chromium answers the email field's autofill request (conditional mediation) from a virtual
 * authenticator at once, where a person would first pick the passkey in the autofill list: so the
 * authenticator's user presence is off while a sign-in page loads (its autofill request then waits, as for a
 * person who has not picked anything), on for the button's click, and off again as soon as the assertion is
 * posted (a refused sign-in's page would otherwise start the autofill request again, answered, refused…).
 *
 * The service is `http://localhost:<port>`: a secure context (WebAuthn needs one) whose host can be the RP ID
 * (an IP address cannot). On a failure the page is saved under /tmp/passkey-browser/ (screenshot, text and the
 * browser's console). Skipped without Chromium outside CI.
 */
const OUT = '/tmp/passkey-browser';
const SCOPE = 'assets:read';
const MINE = '/API/users/v1/users/current/webauthn/';
const PASSKEY_POST = '/oauth/authorize/passkey';

/**
 * Reports, without changing it, every navigator.credentials.get() of the pages to the test (the binding
 * `__webauthnGet`): its mediation, 'conditional' for the email field's autofill, 'default' for the button's.
 */
const REPORT_GETS = `(() => {
  if (!window.CredentialsContainer) return;
  const get = CredentialsContainer.prototype.get;
  CredentialsContainer.prototype.get = function (o) {
    window.__webauthnGet(o && o.mediation ? o.mediation : 'default');
    return get.call(this, o);
  };
})();`;

/** The virtual authenticator of the test's tab, and the switch of its user presence. */
interface Authenticator {
  cdp: CDPSession;
  authenticatorId: string;
  presence(on: boolean): Promise<void>;
}

/** What the page's registration answered: the status and body of the registration call. */
interface Registered {
  status: number;
  body: { id?: string; name?: string; transports?: string[] };
}

describeInBrowser('passkeys on the consent page in headless Chromium', () => {
  let t: TestApp;
  let base: string;
  let target: RedirectTarget;
  let chromiumRun: LaunchedBrowser | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let app: OAuthApp;
  /** The browser's console and uncaught errors of the current test. */
  let consoleLines: string[];
  let pageErrors: string[];
  /** How many assertions the pages posted (POST /oauth/authorize/passkey). */
  let passkeyPosts: number;
  /** The mediation of each navigator.credentials.get() the pages ran, in order. */
  let gets: string[];
  const getsOf = (mediation: string) => gets.filter((m) => m === mediation).length;

  /** What the shared last step (test/utils/browser-consent.ts) needs of this suite. */
  const browserCtx = () => ({ t, page, targetOrigin: target.origin, scope: SCOPE });

  beforeAll(async () => {
    chromiumRun = await launchChromium();
    browser = chromiumRun.browser;
    ({ t, base } = await startAppAsLocalhost());
    target = await startRedirectTarget();
    app = await createOAuthApp(t, {
      kind: 'browser',
      name: 'Acme Photos',
      scopes: [SCOPE],
      redirectUris: [`${target.origin}/callback`],
    });
  }, 60_000);

  afterAll(async () => {
    await chromiumRun?.close();
    await target?.close();
    await t?.close();
  });

  beforeEach(async () => {
    context = await browser.newContext();
    gets = [];
    await context.exposeFunction('__webauthnGet', (mediation: string) => gets.push(mediation));
    await context.addInitScript({ content: REPORT_GETS });
    page = await context.newPage();
    consoleLines = [];
    pageErrors = [];
    passkeyPosts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === PASSKEY_POST) passkeyPosts++;
    });
    page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => {
      pageErrors.push(e.message);
      consoleLines.push(`[pageerror] ${e.message}`);
    });
  });
  afterEach(() => context?.close());

  /** Runs a journey; on a failure saves the page (screenshot, URL, text, console) and names the files. */
  const journey = (name: string, fn: () => Promise<void>) =>
    it(name, async () => {
      try {
        await fn();
        // nothing the pages ran threw (the passkey script, SimpleWebAuthnBrowser), nor broke their CSP
        expect(pageErrors).toEqual([]);
        expect(consoleLines.filter((l) => /Content Security Policy/i.test(l))).toEqual([]);
      } catch (e) {
        await savePageOf(page, OUT, name, e, `\n--- console ---\n${consoleLines.join('\n')}\n`);
        throw e;
      }
    });

  /**
   * A virtual authenticator in `page`'s tab: a platform passkey provider that verifies its user (a PIN, say).
   * Its user presence goes off when the page posts an assertion: the ceremony is over by then.
   */
  async function addAuthenticator(): Promise<Authenticator> {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const presence = async (on: boolean) => {
      await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: on });
    };
    await page.route(
      (u) => u.pathname === PASSKEY_POST,
      async (route) => {
        if (route.request().method() === 'POST') await presence(false);
        await route.continue();
      },
    );
    return { cdp, authenticatorId, presence };
  }

  /** The credentials the virtual authenticator holds. */
  async function credentialsOf(a: Authenticator) {
    const { credentials } = await a.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: a.authenticatorId,
    });
    return credentials;
  }

  /** A new authorization request of the app (PKCE S256): its consent page URL, state and verifier. */
  function authorization() {
    const p = pkce();
    const params = authorizationRequest(app, p, { scope: SCOPE });
    const url = new URL(OAUTH.consent, base);
    url.search = new URLSearchParams(params).toString();
    return { url: url.toString(), state: params.state, verifier: p.verifier };
  }

  /**
   * The consent page's sign-in form, its passkey section shown (the browser has WebAuthn) and the email
   * field's autofill request (conditional mediation) waiting; `a`'s user presence off meanwhile (no person has
   * picked the passkey in the autofill list).
   */
  async function openSignIn(url: string, a: Authenticator): Promise<void> {
    await a.presence(false);
    const autofills = getsOf('conditional');
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe(`Sign in to continue to ${app.name}`);
    await page.locator('#passkey').waitFor({ state: 'visible' });
    await waitFor(() => getsOf('conditional') > autofills, 10_000, 25, 'the autofill request');
  }

  /**
   * The person clicks the passkey button `name` (user presence on, for that ceremony): the response of the
   * assertion the page posts.
   */
  async function clickPasskey(a: Authenticator, name: string): Promise<PageResponse> {
    await a.presence(true);
    const ceremonies = getsOf('default');
    const [answered] = await Promise.all([
      page.waitForResponse(
        (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === PASSKEY_POST,
      ),
      page.getByRole('button', { name, exact: true }).click(),
    ]);
    // the button's ceremony, not the autofill's, answered
    expect(getsOf('default')).toBe(ceremonies + 1);
    return answered;
  }

  /**
   * Registers a passkey of `user` in the virtual authenticator, as the account page of an application would:
   * from a page of the service (the consent sign-in form, which loads SimpleWebAuthnBrowser), the creation
   * options and the registration through the users API with a recent login token of the user.
   */
  async function registerPasskey(user: UserEntity, a: Authenticator): Promise<{ id: string }> {
    await openSignIn(authorization().url, a);
    await a.presence(true);
    const { token } = await tokenFor(t, user);
    const registered = await page.evaluate(
      async ({ mine, token }): Promise<Registered> => {
        const W = (
          globalThis as unknown as {
            SimpleWebAuthnBrowser: { startRegistration(o: { optionsJSON: unknown }): Promise<unknown> };
          }
        ).SimpleWebAuthnBrowser;
        const auth = { Authorization: `Bearer ${token}` };
        const options = await fetch(`${mine}registration/options/`, { method: 'POST', headers: auth });
        if (options.status !== 200) return { status: options.status, body: await options.json() };
        const response = await W.startRegistration({ optionsJSON: await options.json() });
        const res = await fetch(`${mine}registration/`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'Virtual authenticator', response }),
        });
        return { status: res.status, body: await res.json() };
      },
      { mine: MINE, token },
    );
    expect(registered).toEqual({
      status: 201,
      body: expect.objectContaining({ id: expect.any(String), name: 'Virtual authenticator' }),
    });
    expect(registered.body.transports).toContain('internal');
    expect(await passkeysOf(user)).toEqual([{ id: registered.body.id, last_used: null }]);
    // leave the page (its autofill request still waiting) before a sign-in starts afresh
    await page.goto('about:blank');
    return { id: registered.body.id! };
  }

  /** The consent screen, signed in as `email`, with a session cookie. */
  async function onConsentScreen(email: string): Promise<void> {
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    await expect(page.locator('h1').textContent()).resolves.toBe(`${app.name} wants to access your account`);
    expect(await page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
    expect(await context.cookies()).toContainEqual(expect.objectContaining({ name: SESSION_COOKIE }));
  }

  /** The passkeys of `user` as the users API lists them (id and last use). */
  async function passkeysOf(user: UserEntity): Promise<{ id: string; last_used: string | null }[]> {
    const { token } = await tokenFor(t, user);
    const res = await t.http.get(MINE).set(bearer(token)).expect(200);
    return (res.body.objects as { id: string; last_used: string | null }[]).map((p) => ({
      id: p.id,
      last_used: p.last_used,
    }));
  }

  /** The audit records of `user` (action and details), oldest first. */
  async function trailOf(user: UserEntity): Promise<{ action: string; details: Record<string, unknown> }[]> {
    const rows = await t.ds.getRepository(AuditEventEntity).find({
      where: { target_id: user.id },
      order: { date_created: 'ASC' },
    });
    return rows.map((r) => ({ action: r.action, details: r.details as Record<string, unknown> }));
  }

  journey('usernameless: “Sign in with a passkey” → consent → Allow → a code for that person', async () => {
    const user = await createUser(t);
    const authenticator = await addAuthenticator();
    const passkey = await registerPasskey(user, authenticator);
    const [held] = await credentialsOf(authenticator);
    expect(held).toMatchObject({
      isResidentCredential: true,
      rpId: 'localhost',
      signCount: expect.any(Number),
    });

    // a fresh visit: no cookie of the registration's page, only the passkey in the authenticator
    await context.clearCookies();
    const a = authorization();
    await openSignIn(a.url, authenticator);
    await expect(page.locator('#email').getAttribute('autocomplete')).resolves.toBe('username webauthn');
    const answered = await clickPasskey(authenticator, 'Sign in with a passkey');
    expect(answered.status()).toBe(303);
    await onConsentScreen(user.email);
    // the authenticator signed: its counter moved on
    expect((await credentialsOf(authenticator))[0].signCount).toBeGreaterThan(held.signCount);
    await allowAndExchange(browserCtx(), app, a, user);
    expect(passkeyPosts).toBe(1);

    // that passkey was the one used
    expect(await passkeysOf(user)).toEqual([{ id: passkey.id, last_used: expect.any(String) }]);
    const trail = await trailOf(user);
    expect(trail.filter((r) => r.action === 'passkey.used').map((r) => r.details)).toEqual([
      expect.objectContaining({ second_factor: false }),
    ]);
    expect(trail.filter((r) => r.action === 'signin.success').map((r) => r.details)).toEqual([
      expect.objectContaining({ method: 'passkey', second_factor: true }),
    ]);
    // the use is on record before the session it opened
    expect(trail.findIndex((r) => r.action === 'passkey.used')).toBeLessThan(
      trail.findIndex((r) => r.action === 'signin.success'),
    );
  });

  journey('second factor: password, then “Use your passkey” → consent → Allow → a code', async () => {
    const user = await createUser(t);
    const authenticator = await addAuthenticator();
    const passkey = await registerPasskey(user, authenticator);

    await context.clearCookies();
    const a = authorization();
    await openSignIn(a.url, authenticator);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Use your passkey' }).waitFor();
    await expect(page.locator('h1').textContent()).resolves.toBe(
      `Confirm it is you to continue to ${app.name}`,
    );
    // the passkey is this user's only factor: no code to type
    expect(await page.getByRole('button', { name: 'Verify' }).count()).toBe(0);
    expect(await context.cookies()).not.toContainEqual(expect.objectContaining({ name: SESSION_COOKIE }));

    const answered = await clickPasskey(authenticator, 'Use your passkey');
    expect(answered.status()).toBe(303);
    await onConsentScreen(user.email);
    await allowAndExchange(browserCtx(), app, a, user);
    expect(passkeyPosts).toBe(1);

    // that passkey was the one used
    expect(await passkeysOf(user)).toEqual([{ id: passkey.id, last_used: expect.any(String) }]);
    const trail = await trailOf(user);
    expect(trail.filter((r) => r.action === 'signin.second_factor_owed').map((r) => r.details)).toEqual([
      expect.objectContaining({ method: 'password', second_factor: false }),
    ]);
    expect(trail.filter((r) => r.action === 'passkey.used').map((r) => r.details)).toEqual([
      expect.objectContaining({ second_factor: true }),
    ]);
    expect(trail.filter((r) => r.action === 'signin.success').map((r) => r.details)).toEqual([
      expect.objectContaining({ method: 'second_factor', second_factor: true }),
    ]);
  });

  journey('a passkey the service no longer knows: “Passkey not accepted.”, no session', async () => {
    const user = await createUser(t);
    const authenticator = await addAuthenticator();
    const passkey = await registerPasskey(user, authenticator);
    const { token } = await tokenFor(t, user);
    await t.http.delete(`${MINE}${passkey.id}/`).set(bearer(token)).expect(204);
    // the authenticator still holds it: the browser will offer it
    expect(await credentialsOf(authenticator)).toHaveLength(1);

    await context.clearCookies();
    await openSignIn(authorization().url, authenticator);
    const answered = await clickPasskey(authenticator, 'Sign in with a passkey');
    expect(answered.status()).toBe(401);
    await page.waitForLoadState();
    await expect(page.locator('h1').textContent()).resolves.toBe(`Sign in to continue to ${app.name}`);
    await expect(page.locator('p.error[role="alert"]:not(#passkey-status)').textContent()).resolves.toBe(
      'Passkey not accepted.',
    );
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    expect(await context.cookies()).not.toContainEqual(expect.objectContaining({ name: SESSION_COOKIE }));
    // the form is there to try again (its autofill waiting anew), and nothing more was posted
    await page.locator('#passkey').waitFor({ state: 'visible' });
    await waitFor(() => getsOf('conditional') === 3, 10_000, 25, 'the autofill request of the refusal page');
    expect(passkeyPosts).toBe(1);

    // the refusal is on record, for that request: an unknown passkey (it names no account)
    const records = await t.ds.getRepository(AuditEventEntity).find({
      where: { request_id: answered.headers()['x-request-id'], action: 'signin.failure' },
    });
    expect(records.map((r) => r.details)).toEqual([
      expect.objectContaining({ factor: 'webauthn', reason: 'unknown_passkey' }),
    ]);
    expect((await trailOf(user)).filter((r) => r.action === 'signin.success')).toEqual([]);
  });

  journey('without WebAuthn the passkey section stays hidden; the password form still signs in', async () => {
    const user = await createUser(t);
    await context.addInitScript({ content: 'delete window.PublicKeyCredential;' });
    const a = authorization();
    const res = await page.goto(a.url);
    expect(res?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe(`Sign in to continue to ${app.name}`);
    // the library did load (the section is hidden by the page's script deciding so, not for want of it)
    await expect(page.evaluate('typeof window.SimpleWebAuthnBrowser')).resolves.toBe('object');
    await expect(page.evaluate('typeof window.PublicKeyCredential')).resolves.toBe('undefined');
    expect(await page.locator('#passkey').isHidden()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(DEFAULT_PASSWORD);
    await Promise.all([
      page.waitForURL((u) => u.pathname === OAUTH.consent),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
    await onConsentScreen(user.email);
    await allowAndExchange(browserCtx(), app, a, user);
    // no WebAuthn ceremony at all: no autofill request, no assertion
    expect([gets, passkeyPosts]).toEqual([[], 0]);
  });
});
