import { allowAndExchange, savePageOf, startAppAsLocalhost } from '../utils/browser-consent.js';
import type { Browser, BrowserContext, Page, Response as PageResponse } from 'playwright-core';
import { describeInBrowser, launchChromium, type LaunchedBrowser } from '../utils/browser.js';
import type { TestApp } from '../utils/create-test-app.js';
import { directoryWorld, type DirectoryWorld } from '../utils/directory-world.js';
import { authorizationRequest, createOAuthApp, type OAuthApp, pkce } from '../utils/oauth.js';
import { type RedirectTarget, startRedirectTarget } from '../utils/oauth-interop-helpers.js';
import type { IdTokenTamper } from '../utils/oidc-op.js';
import { OAUTH_CALLBACK, oidcWorld, type OidcWorld } from '../utils/oidc-world.js';
import { describeWithLdap, type Slapd, startSlapd } from '../utils/slapd.js';

/**
 * Federated sign-in on the consent page (issue 39) in real headless Chromium: the email step routed by the
 * email's verified domain to an OpenID provider (a real oidc-provider, test/utils/oidc-op.ts) or to a directory's
 * password form (a real slapd), "Continue with <provider>", the provider's return becoming the session, then
 * Allow and an authorization code that exchanges for a token of that person; and the provider's answers the
 * callback must refuse, each ending on an error page with no session.
 *
 * The service is known to the browser as `localhost` while the provider is at `127.0.0.1`: two sites, as a
 * company's provider and the service are in production, so the return from the provider is a cross-site
 * navigation and the SameSite cookies behave as they will there. On a failure the page is saved under
 * /tmp/federated-browser/ (screenshot and text). Skipped without Chromium (or slapd) outside CI.
 */
const OUT = '/tmp/federated-browser';
const SCOPE = 'assets:read';
/** openid-client's reasons (recorded on the audit trail), as test/e2e/oidc-sign-in.e2e-spec.ts knows them. */
const SIGNATURE = /^OAUTH_INVALID_RESPONSE: /;
const CLAIM = /^OAUTH_JWT_CLAIM_COMPARISON_FAILED: /;
const UNVERIFIED = /the provider has not verified the email/;
const STATE = /unknown, used or expired state/;

describeInBrowser('federated sign-in on the consent page in headless Chromium', () => {
  let t: TestApp;
  let base: string;
  let w: OidcWorld;
  let target: RedirectTarget;
  let chromiumRun: LaunchedBrowser | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let app: OAuthApp;

  /** What the shared last step (test/utils/browser-consent.ts) needs of this suite. */
  const browserCtx = () => ({ t, page, targetOrigin: target.origin, scope: SCOPE });

  beforeAll(async () => {
    chromiumRun = await launchChromium();
    browser = chromiumRun.browser;
    ({ t, base } = await startAppAsLocalhost());
    target = await startRedirectTarget();
    w = await oidcWorld(t);
    app = await createOAuthApp(t, {
      kind: 'browser',
      name: 'Acme Photos',
      scopes: [SCOPE],
      redirectUris: [`${target.origin}/callback`],
      domainId: w.domainId,
    });
  }, 60_000);

  afterAll(async () => {
    await chromiumRun?.close();
    await w?.stop();
    await target?.close();
    await t?.close();
  });

  beforeEach(async () => {
    context = await browser.newContext(); // no cookies of an earlier test, here or at the provider
    // the provider's development pages import a web font: nothing here may wait on the internet
    await context.route(/^https?:\/\/fonts\.(googleapis|gstatic)\.com\//, (r) => r.abort());
    page = await context.newPage();
  });
  afterEach(() => context?.close());

  /** Runs a journey; on a failure saves the page (screenshot, URL and text) and names the files. */
  const journey = (name: string, fn: () => Promise<void>, timeout?: number) =>
    it(
      name,
      async () => {
        try {
          await fn();
        } catch (e) {
          await savePageOf(page, OUT, name, e);
          throw e;
        }
      },
      timeout,
    );

  /** A new authorization request of `client` (PKCE S256): its consent page URL, state and verifier. */
  function authorization(client: OAuthApp) {
    const p = pkce();
    const params = authorizationRequest(client, p, { scope: SCOPE });
    const url = new URL('/oauth/authorize', base);
    url.search = new URLSearchParams(params).toString();
    return { url: url.toString(), state: params.state, verifier: p.verifier };
  }

  /** The consent page's sign-in form, for `appName`. */
  async function openSignIn(url: string, appName: string): Promise<void> {
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe(`Sign in to continue to ${appName}`);
  }

  /** The email step: the single sign-on form with `email`. */
  async function emailStep(email: string): Promise<void> {
    await page.getByLabel('Or single sign-on with your work address').fill(email);
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
  }

  /** At the provider's own login page: signs `login` in; the response of our callback it sent the browser to. */
  async function signInAtProvider(login: string): Promise<PageResponse> {
    await page.waitForURL((u) => u.origin === w.op.issuer && u.pathname.startsWith('/interaction/'));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password (the provider’s development form)');
    const [callback] = await Promise.all([
      page.waitForResponse((r) =>
        new URL(r.url()).pathname.startsWith(`${OAUTH_CALLBACK}${w.provider.public_id}/`),
      ),
      page.getByRole('button', { name: 'Sign-in' }).click(),
    ]);
    return callback;
  }

  /** The callback answered a 302 back to this consent page with oauth_code; the consent screen shows `email`. */
  async function backSignedIn(callback: PageResponse, email: string, appName: string): Promise<void> {
    expect(callback.status()).toBe(302);
    const location = new URL(callback.headers()['location']);
    expect(`${location.origin}${location.pathname}`).toBe(`${base}/oauth/authorize`);
    expect(location.searchParams.get('oauth_code')).toMatch(/^\S{20,}$/);
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    await expect(page.locator('h1').textContent()).resolves.toBe(`${appName} wants to access your account`);
    expect(await page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
    // the single-use code is spent: the page's own address no longer carries it
    expect(page.url()).not.toContain('oauth_code');
  }

  /**
   * The browser ends on the callback's 401 page, not the consent screen, for the reason `reason` (the audit
   * trail of that very request says it), and no single-use code was handed out.
   */
  async function refusedAt(callback: PageResponse, reason: RegExp): Promise<void> {
    await page.waitForLoadState();
    expect(callback.status()).toBe(401);
    expect(callback.headers()['location']).toBeUndefined();
    expect(new URL(page.url()).pathname).toBe(`${OAUTH_CALLBACK}${w.provider.public_id}/`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Single sign-on failed');
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    const records: { target_id: string; details: { method?: string; reason?: string } }[] = await t.ds.query(
      "SELECT target_id, details FROM audit_events WHERE request_id = $1 AND action = 'signin.failure'",
      [callback.headers()['x-request-id']],
    );
    expect(records.map((r) => [r.target_id, r.details.method])).toEqual([[w.provider.id, 'oidc']]);
    expect(records[0].details.reason).toMatch(reason);
    // the page never shows what was wrong
    expect(await page.locator('body').innerText()).not.toMatch(/nonce|signature|OAUTH_|state/i);
  }

  journey(
    'the email step routes to the provider; its return signs in; Allow → a code for that person',
    async () => {
      const a = authorization(app);
      await openSignIn(a.url, app.name);
      await emailStep(w.member.email);
      const callback = await signInAtProvider(w.member.email);
      await backSignedIn(callback, w.member.email, app.name);
      await allowAndExchange(browserCtx(), app, a, w.member);
    },
  );

  journey('“Continue with <provider>” of the application’s domain → the same journey', async () => {
    const { user, login } = await w.user();
    const a = authorization(app);
    await openSignIn(a.url, app.name);
    await page.getByRole('button', { name: `Continue with ${w.provider.name}`, exact: true }).click();
    const callback = await signInAtProvider(login);
    await backSignedIn(callback, user.email, app.name);
    await allowAndExchange(browserCtx(), app, a, user);
  });

  describe('refused returns end on an error page, never the consent screen', () => {
    const TAMPERED: [string, () => IdTokenTamper, RegExp][] = [
      [
        'an id_token signed with a key the provider never published',
        () => (c) => w.op.signIdToken(c, { key: 'foreign' }),
        SIGNATURE,
      ],
      ['an id_token of another sign-in (wrong nonce)', () => (c) => ({ ...c, nonce: 'x' }), CLAIM],
    ];
    for (const [what, tamper, reason] of TAMPERED) {
      journey(what, async () => {
        const { user, login } = await w.user();
        const a = authorization(app);
        await openSignIn(a.url, app.name);
        await emailStep(user.email);
        w.op.tamperNextIdToken(tamper());
        await refusedAt(await signInAtProvider(login), reason);
        // no session was given: the consent page still asks to sign in
        await openSignIn(a.url, app.name);
      });
    }

    journey('an email the provider has not verified', async () => {
      const { user, login } = await w.user({}, { email_verified: false });
      const a = authorization(app);
      await openSignIn(a.url, app.name);
      await emailStep(user.email);
      await refusedAt(await signInAtProvider(login), UNVERIFIED);
      await openSignIn(a.url, app.name);
    });

    journey('the provider’s return replayed after it signed in', async () => {
      const { user, login } = await w.user();
      const a = authorization(app);
      await openSignIn(a.url, app.name);
      await emailStep(user.email);
      const first = await signInAtProvider(login);
      await backSignedIn(first, user.email, app.name);
      // the same callback URL (the provider's code and state) again, in the same browser
      const again = await page.goto(first.url());
      expect(again).not.toBeNull();
      await refusedAt(again!, STATE);
    });
  });

  describeWithLdap('a directory on the consent page', () => {
    let slapd: Slapd;
    let d: DirectoryWorld;
    let wiki: OAuthApp;
    let people = 0;

    beforeAll(async () => {
      slapd = await startSlapd();
      d = await directoryWorld(t, slapd, { label: 'consent' });
      wiki = await createOAuthApp(t, {
        kind: 'browser',
        name: 'Corp Wiki',
        scopes: [SCOPE],
        redirectUris: [`${target.origin}/callback`],
        domainId: d.domainId,
      });
    }, 60_000);
    afterAll(() => slapd?.stop());

    /** A person of the directory with an account of its domain. */
    async function person() {
      const local = `ada${++people}`;
      const entry = await d.addPerson({ local, givenName: 'Ada', sn: 'Lovelace' });
      return { ...entry, user: await d.account(local) };
    }

    /** The email step with a directory-routed email → the directory's password form, the email filled in. */
    async function toDirectoryForm(email: string): Promise<{ state: string; verifier: string }> {
      const a = authorization(wiki);
      await openSignIn(a.url, wiki.name);
      await emailStep(email);
      await page.getByText(`With your ${d.directory.name} account`).waitFor();
      await expect(page.getByLabel('Email').inputValue()).resolves.toBe(email);
      return a;
    }

    /** Submits the directory's password form; the answer to that POST. */
    async function submitPassword(password: string): Promise<PageResponse> {
      await page.getByLabel('Password').fill(password);
      const [res] = await Promise.all([
        page.waitForResponse(
          (r) => new URL(r.url()).pathname === '/oauth/authorize/login' && r.request().method() === 'POST',
        ),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      return res;
    }

    journey(
      'the email step → the directory’s password form → the consent screen → Allow → a code',
      async () => {
        const ada = await person();
        const a = await toDirectoryForm(ada.email);
        expect((await submitPassword(ada.password)).status()).toBe(303);
        await page.getByRole('button', { name: 'Allow' }).waitFor();
        expect(await page.getByText(`Signed in as ${ada.email}`).isVisible()).toBe(true);
        await allowAndExchange(browserCtx(), wiki, a, ada.user);
      },
    );

    journey('a wrong password → the directory’s form again with “Invalid email or password”', async () => {
      const ada = await person();
      const a = await toDirectoryForm(ada.email);
      expect((await submitPassword(`${ada.password}-wrong`)).status()).toBe(401);
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid email or password');
      expect(await page.getByText(`With your ${d.directory.name} account`).isVisible()).toBe(true);
      await expect(page.getByLabel('Email').inputValue()).resolves.toBe(ada.email);
      expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
      // the form shown again works: the right password signs in
      expect((await submitPassword(ada.password)).status()).toBe(303);
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      await allowAndExchange(browserCtx(), wiki, a, ada.user);
    });
  });
});
