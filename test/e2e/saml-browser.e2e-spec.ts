import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { describeInBrowser, launchChromium, type LaunchedBrowser } from '../utils/browser.js';
import { createOAuthApp, exchangeCode, type OAuthApp } from '../utils/oauth.js';
import { type ListeningApp, startListeningApp } from '../utils/oauth-interop-helpers.js';
import { authnRequestOf, b64, buildResponse } from '../utils/saml-idp.js';
import { SAML, samlWorld, type SamlWorld } from '../utils/saml-setup.js';

/**
 * SP-initiated single sign-on in real headless Chromium (skipped without Chromium outside CI, as the other
 * browser suites): from a web app's sign-in page, and from the consent page, through a small IdP page the
 * test serves, back to the service's ACS, and on to a signed-in web app or an authorization code.
 */
describeInBrowser('SAML single sign-on in headless Chromium', () => {
  let L: ListeningApp;
  let w: SamlWorld;
  let server: Server;
  let origin: string;
  let chromiumRun: LaunchedBrowser | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const signedIn: { user_id: string; token: string }[] = [];

  const read = (req: IncomingMessage) =>
    new Promise<URLSearchParams>((resolve) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => resolve(new URLSearchParams(body)));
    });
  const html = (body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`;

  beforeAll(async () => {
    chromiumRun = await launchChromium();
    browser = chromiumRun.browser;
    // one small server: the company's web app (sign-in page, callback) and its IdP (login page)
    server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const send = (status: number, body: string, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', ...headers }).end(body);
      if (url.pathname === '/signin' && req.method === 'GET') {
        return send(
          200,
          html(
            `<h1>Acme web app</h1><form method="post" action="/signin"><label for="e">Work email</label><input id="e" name="email" type="email"><button>Continue</button></form>`,
          ),
        );
      }
      if (url.pathname === '/signin' && req.method === 'POST') {
        const email = (await read(req)).get('email') ?? '';
        const r = await fetch(`${L.base}${SAML}/login/`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email }),
        });
        const { url: sso } = (await r.json()) as { url: string };
        return send(302, '', { Location: `${sso}?return_to=${encodeURIComponent(`${origin}/callback`)}` });
      }
      if (url.pathname === '/idp/sso') {
        const request = authnRequestOf(`http://x${req.url}`);
        const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(request.xml)![1];
        const response = b64(
          buildResponse({
            keys: w.keys,
            email: w.member.email,
            acsUrl: acs,
            audience: w.idp.saml_settings.sp_entity_id,
            inResponseTo: request.id,
          }),
        );
        return send(
          200,
          html(
            `<h1>Acme IdP</h1><form method="post" action="${acs}"><input type="hidden" name="SAMLResponse" value="${response}"><input type="hidden" name="RelayState" value="${request.relayState ?? ''}"><button>Sign in at Acme IdP</button></form>`,
          ),
        );
      }
      if (url.pathname === '/callback' && url.searchParams.get('saml_code')) {
        const r = await fetch(`${L.base}${SAML}/token/`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ code: url.searchParams.get('saml_code') }),
        });
        const token = (await r.json()) as { user_id: string; token: string };
        if (r.status === 201) signedIn.push(token);
        return send(
          r.status === 201 ? 200 : 401,
          html(`<h1>${r.status === 201 ? `Signed in as ${token.user_id}` : 'Sign-in failed'}</h1>`),
        );
      }
      return send(200, html(`<h1>callback received</h1>`));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    L = await startListeningApp();
    w = await samlWorld(L.t, { settings: { idp_sso_post_url: `${origin}/idp/sso` } });
    await L.t.ds.getRepository(SystemDomainEntity).update({ id: w.domainId }, { base_url: origin });
  }, 60_000);

  afterAll(async () => {
    await chromiumRun?.close();
    await new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
    await L?.close();
  });

  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(() => context?.close());

  it('from the web app’s sign-in page: email → IdP page → ACS → back to the app, signed in', async () => {
    await page.goto(`${origin}/signin`);
    await page.getByLabel('Work email').fill(w.member.email);
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/idp/sso'),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/callback'),
      page.getByRole('button', { name: 'Sign in at Acme IdP' }).click(),
    ]);
    await expect(page.locator('h1').textContent()).resolves.toBe(`Signed in as ${w.member.id}`);
    expect(page.url()).toContain('saml_code=');
    expect(page.url()).not.toMatch(/eyJ/); // never a token in a URL
    const token = signedIn.at(-1)!;
    const me = await fetch(`${L.base}/API/auth/v1/auth/token/`, {
      headers: { Authorization: `Bearer ${token.token}` },
    });
    expect(me.status).toBe(200);
  });

  it('from the consent page: single sign-on, then Allow → an authorization code at the client', async () => {
    const app: OAuthApp = await createOAuthApp(L.t, {
      kind: 'browser',
      name: 'Acme Photos',
      scopes: ['assets:read'],
      redirectUris: [`${origin}/oauth-callback`],
      domainId: w.domainId,
    });
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(12).toString('base64url');
    const authorize = new URL('/oauth/authorize', L.base);
    authorize.search = new URLSearchParams({
      client_id: app.id,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: 'assets:read',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    await page.goto(authorize.toString());
    await page.getByLabel('Or single sign-on with your work address').fill(w.member.email);
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/idp/sso'),
      page.getByRole('button', { name: 'Continue with single sign-on' }).click(),
    ]);
    await Promise.all([
      page.getByRole('button', { name: 'Allow' }).waitFor(),
      page.getByRole('button', { name: 'Sign in at Acme IdP' }).click(),
    ]);
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/oauth-callback'),
      page.getByRole('button', { name: 'Allow' }).click(),
    ]);
    const back = new URL(page.url());
    expect(back.searchParams.get('state')).toBe(state);
    const token = await exchangeCode(L.t, app, back.searchParams.get('code')!, verifier).expect(200);
    expect(token.body.access_token).toBeTruthy();
  });
});
