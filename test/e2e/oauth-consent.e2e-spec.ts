import type { Response } from 'supertest';
import { withoutOwnScripts } from '../utils/page-scripts.js';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  authorizationRequest,
  authorizeViaConsentPage,
  CookieJar,
  createOAuthApp,
  CSRF_COOKIE,
  exchangeCode,
  expectConsentHeaders,
  expectTokenResponse,
  hiddenField,
  OAUTH,
  type OAuthApp,
  pkce,
  SESSION_COOKIE,
  setCookie,
} from '../utils/oauth.js';

const ISSUER = 'http://localhost:3000';

describe('consent page {base_url}/oauth/authorize', () => {
  let t: TestApp;
  let user: UserEntity;
  let app: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t, { email: `consent-${Date.now()}@example.com` });
    app = await createOAuthApp(t, {
      kind: 'browser',
      name: 'Photo Organizer',
      scopes: ['assets:read', 'collections:write'],
      redirectUris: ['https://photos.example/callback'],
    });
  });
  afterAll(() => t.close());

  const open = (params: Record<string, string>, jar = new CookieJar()) =>
    t.http.get(OAUTH.consent).query(params).set(jar.header());

  /** Signs in through the page's form and returns the jar holding the session and CSRF cookies. */
  async function signIn(params: Record<string, string>, email = user.email): Promise<CookieJar> {
    const jar = new CookieJar();
    const page = await open(params, jar).expect(200);
    jar.store(page);
    const res = await t.http
      .post(OAUTH.consentLogin)
      .set(jar.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, email, password: DEFAULT_PASSWORD })
      .expect(303);
    jar.store(res);
    return jar;
  }

  async function decide(params: Record<string, string>, jar: CookieJar, decision: string): Promise<Response> {
    const page = await open(params, jar).expect(200);
    return t.http
      .post(OAUTH.consent)
      .set(jar.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, decision });
  }

  describe('problems with the request: an error on the page (400), never a redirect', () => {
    const p = pkce();
    it.each([
      [
        'unknown client',
        () => ({ client_id: '00000000-0000-4000-8000-000000000000' }),
        'Unknown application',
      ],
      [
        'unregistered redirect URI',
        () => ({ redirect_uri: 'https://evil.example/callback' }),
        'Unregistered redirect URI',
      ],
      // every other refusal of the request (client_id, redirect URI forms, PKCE, response_type):
      // authorization-request.service.spec.ts; here, one of each kind of answer the page gives
      ['a scope outside the app’s', () => ({ scope: 'assets:read assets:delete' }), 'Invalid scope'],
    ])('%s', async (_n, over, title) => {
      const params = authorizationRequest(app, p, over());
      const res = await open(params).expect(400);
      expectConsentHeaders(res);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain(`<h1 class="error">${title}</h1>`);
      expect(res.text).not.toContain('<form');
      // a signed-in user gets the same page, and so does a submitted decision
      const jar = await signIn(authorizationRequest(app, p));
      const again = await open(params, jar).expect(400);
      expect(again.text).toContain(`<h1 class="error">${title}</h1>`);
      const posted = await t.http
        .post(OAUTH.consent)
        .set(jar.header())
        .type('form')
        .send({ ...params, csrf: jar.get(CSRF_COOKIE) as string, decision: 'allow' })
        .expect(400);
      expectConsentHeaders(posted);
      expect(posted.headers.location).toBeUndefined();
    });

    it('the invalid scope page names the allowed scopes', async () => {
      const res = await open(authorizationRequest(app, pkce(), { scope: 'assets:delete' })).expect(400);
      expect(res.text).toContain(
        'Not allowed for this application: assets:delete. Allowed: assets:read collections:write.',
      );
    });

    it('repeated parameters are refused, not guessed at', async () => {
      const params = new URLSearchParams(authorizationRequest(app, pkce()));
      params.append('client_id', app.id);
      const res = await t.http.get(`${OAUTH.consent}?${params}`).expect(400);
      expect(res.text).toContain('Unknown application');
    });

    it('a form field given twice counts as absent (the typed form changes no answer): the page says so', async () => {
      const params = new URLSearchParams(authorizationRequest(app, pkce()));
      params.append('client_id', app.id);
      const res = await t.http.post(OAUTH.consent).type('form').send(params.toString()).expect(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<h1 class="error">Unknown application</h1>');
    });
  });

  describe('signing in', () => {
    it('no session → the sign-in form, naming the app; a CSRF cookie HttpOnly and SameSite', async () => {
      const params = authorizationRequest(app, pkce(), { state: 'xyz' });
      const res = await open(params).expect(200);
      expectConsentHeaders(res);
      expect(res.text).toContain('<h1>Sign in to continue to Photo Organizer</h1>');
      expect(res.text).toContain('<form method="post" action="/oauth/authorize/login">');
      expect(res.text).toContain('name="password" type="password"');
      // the request travels in hidden fields
      for (const [k, v] of Object.entries(params)) expect(hiddenField(res.text, k)).toBe(v);
      const csrf = setCookie(res, CSRF_COOKIE) as string;
      expect(csrf).toBeDefined();
      expect(csrf).toMatch(/; HttpOnly/);
      expect(csrf).toMatch(/; SameSite=Strict/);
      expect(csrf).toMatch(/; Path=\/oauth/);
      expect(hiddenField(res.text, 'csrf')).toBe(new CookieJar().store(res).get(CSRF_COOKIE));
      // the form may post to this service only
      // scripts only the service's own (the passkey button's), fetches only to the service
      expect(res.headers['content-security-policy']).toBe(
        `default-src 'none'; style-src 'unsafe-inline'; script-src ${t.config.http.publicBaseUrl}/API/auth/static/; connect-src 'self'; form-action 'self' https://photos.example; frame-ancestors 'none'; base-uri 'none'`,
      );
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    });

    it('right password → 303 back to the page with a session cookie (HttpOnly, SameSite); then the consent page', async () => {
      const params = authorizationRequest(app, pkce());
      const jar = new CookieJar();
      const page = await open(params, jar).expect(200);
      jar.store(page);
      const res = await t.http
        .post(OAUTH.consentLogin)
        .set(jar.header())
        .type('form')
        .send({
          ...params,
          csrf: hiddenField(page.text, 'csrf') as string,
          email: user.email,
          password: DEFAULT_PASSWORD,
        })
        .expect(303);
      expectConsentHeaders(res);
      const back = new URL(res.headers.location, 'http://localhost:3000');
      expect(back.pathname).toBe('/oauth/authorize');
      expect(Object.fromEntries(back.searchParams)).toEqual(params);
      const session = setCookie(res, SESSION_COOKIE) as string;
      expect(session).toMatch(/; HttpOnly/);
      expect(session).toMatch(/; SameSite=Lax/);
      expect(session).toMatch(/; Path=\/oauth/);
      expect(session).not.toMatch(/; Secure/); // the test base URL is http
      jar.store(res);
      const consent = await t.http.get(res.headers.location).set(jar.header()).expect(200);
      expectConsentHeaders(consent);
      expect(consent.text).toContain('<h1>Photo Organizer wants to access your account</h1>');
      expect(consent.text).toContain(`Signed in as ${user.email}`);
    });

    it('email is matched case-insensitively', async () => {
      const jar = await signIn(authorizationRequest(app, pkce()), user.email.toUpperCase());
      expect(jar.get(SESSION_COOKIE)).toBeDefined();
    });

    it.each([
      ['wrong password', () => ({ email: user.email, password: 'wrong-password' })],
      ['unknown email', () => ({ email: 'nobody@example.com', password: DEFAULT_PASSWORD })],
      ['empty fields', () => ({ email: '', password: '' })],
    ])('%s → 401, the form again with an error, no session', async (_n, creds) => {
      const params = authorizationRequest(app, pkce());
      const jar = new CookieJar();
      const page = await open(params, jar).expect(200);
      jar.store(page);
      const res = await t.http
        .post(OAUTH.consentLogin)
        .set(jar.header())
        .type('form')
        .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, ...creds() })
        .expect(401);
      expectConsentHeaders(res);
      expect(res.text).toContain('<p class="error" role="alert">Invalid email or password</p>');
      expect(res.text).toContain('name="password"');
      expect(setCookie(res, SESSION_COOKIE)).toBeUndefined();
      for (const [k, v] of Object.entries(params)) expect(hiddenField(res.text, k)).toBe(v);
    });

    it('an INACTIVE user cannot sign in → 401', async () => {
      const inactive = await createUser(t, { status: 'INACTIVE' });
      const params = authorizationRequest(app, pkce());
      const jar = new CookieJar();
      const page = await open(params, jar).expect(200);
      jar.store(page);
      await t.http
        .post(OAUTH.consentLogin)
        .set(jar.header())
        .type('form')
        .send({
          ...params,
          csrf: hiddenField(page.text, 'csrf') as string,
          email: inactive.email,
          password: DEFAULT_PASSWORD,
        })
        .expect(401);
    });

    it.each([
      ['missing CSRF field', (jar: CookieJar) => ({ jar, csrf: undefined })],
      ['mismatched CSRF field', (jar: CookieJar) => ({ jar, csrf: 'A'.repeat(43) })],
      ['no CSRF cookie', (jar: CookieJar) => ({ jar: new CookieJar(), csrf: jar.get(CSRF_COOKIE) })],
    ])('%s → 403, no session', async (_n, tamper) => {
      const params = authorizationRequest(app, pkce());
      const jar = new CookieJar();
      jar.store(await open(params, jar).expect(200));
      const { jar: sent, csrf } = tamper(jar);
      const res = await t.http
        .post(OAUTH.consentLogin)
        .set(sent.header())
        .type('form')
        .send({ ...params, ...(csrf ? { csrf } : {}), email: user.email, password: DEFAULT_PASSWORD })
        .expect(403);
      expectConsentHeaders(res);
      expect(res.text).toContain('Your session expired; please try again.');
      expect(setCookie(res, SESSION_COOKIE)).toBeUndefined();
    });

    it('a revoked session counts as none: the sign-in form again', async () => {
      const params = authorizationRequest(app, pkce());
      const jar = await signIn(params);
      await open(params, jar).expect(200);
      await t.ds.query("UPDATE tokens SET revoked_at = now() WHERE user_id = $1 AND kind = 'LOGIN'", [
        user.id,
      ]);
      const res = await open(params, jar).expect(200);
      expect(res.text).toContain('<h1>Sign in to continue to Photo Organizer</h1>');
    });
  });

  describe('the consent page', () => {
    it('shows the app’s name and the requested scopes in plain words, with Allow and Deny', async () => {
      const params = authorizationRequest(app, pkce(), { scope: 'assets:read' });
      const jar = await signIn(params);
      const res = await open(params, jar).expect(200);
      expectConsentHeaders(res);
      expect(res.text).toContain(
        '<li><strong>Search and read assets, files, formats, proxies, versions, metadata, jobs, transfers and shares</strong> <span class="muted">(<code>assets:read</code>)</span></li>',
      );
      expect(res.text).not.toContain('collections:write');
      expect(res.text).toContain(
        '<button class="deny" type="submit" name="decision" value="deny">Deny</button>',
      );
      expect(res.text).toContain(
        '<button class="allow" type="submit" name="decision" value="allow">Allow</button>',
      );
      expect(res.text).toContain('<form method="post" action="/oauth/authorize">');
    });

    it('scope omitted → every scope of the app is listed', async () => {
      const params = authorizationRequest(app, pkce());
      const res = await open(params, await signIn(params)).expect(200);
      expect(res.text).toContain('(<code>assets:read</code>)');
      expect(res.text).toContain('(<code>collections:write</code>)');
    });
  });

  describe('the decision', () => {
    it('Allow → 303 to redirect_uri with code, state and iss; the code is exchanged for tokens', async () => {
      const p = pkce();
      const params = authorizationRequest(app, p, { state: 'af0ifjsldkj' });
      const jar = await signIn(params);
      const res = await decide(params, jar, 'allow');
      expect(res.status).toBe(303);
      expectConsentHeaders(res);
      const location = new URL(res.headers.location);
      expect(`${location.origin}${location.pathname}`).toBe('https://photos.example/callback');
      expect([...location.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
      expect(location.searchParams.get('state')).toBe('af0ifjsldkj');
      expect(location.searchParams.get('iss')).toBe(ISSUER);
      const code = location.searchParams.get('code') as string;
      expect(code).toMatch(/^[\w-]{43}$/);
      expectTokenResponse(await exchangeCode(t, app, code, p.verifier), {
        scope: 'assets:read collections:write',
        refresh: true,
      });
    });

    it('Deny → 303 to redirect_uri with error=access_denied and state, no code', async () => {
      const params = authorizationRequest(app, pkce(), { state: 's-123' });
      const res = await decide(params, await signIn(params), 'deny');
      expect(res.status).toBe(303);
      const location = new URL(res.headers.location);
      expect(`${location.origin}${location.pathname}`).toBe('https://photos.example/callback');
      expect(Object.fromEntries(location.searchParams)).toEqual({
        error: 'access_denied',
        error_description: 'The user denied the request',
        state: 's-123',
        iss: ISSUER,
      });
    });

    // anything but "allow" is a denial, no state sent → none returned: consent-flow.service.spec.ts and
    // authorization-request.service.spec.ts
    it('the full flow through the helper (sign-in form, consent, Allow)', async () => {
      const fresh = await createUser(t);
      const result = await authorizeViaConsentPage(t, app, fresh.email);
      expect(result.code).toMatch(/^[\w-]{43}$/);
      expect(result.location.searchParams.get('state')).toBe(result.state);
      await exchangeCode(t, app, result.code, result.verifier).expect(200);
    });

    it.each([
      ['missing CSRF field', undefined],
      ['mismatched CSRF field', 'B'.repeat(43)],
    ])('%s → 403 error page, no code, no redirect', async (_n, csrf) => {
      const params = authorizationRequest(app, pkce());
      const jar = await signIn(params);
      const [{ n: before }] = await t.ds.query('SELECT count(*)::int AS n FROM oauth_authorization_codes');
      const res = await t.http
        .post(OAUTH.consent)
        .set(jar.header())
        .type('form')
        .send({ ...params, ...(csrf ? { csrf } : {}), decision: 'allow' })
        .expect(403);
      expectConsentHeaders(res);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('<h1 class="error">Request expired</h1>');
      const [{ n: after }] = await t.ds.query('SELECT count(*)::int AS n FROM oauth_authorization_codes');
      expect(after).toBe(before);
    });

    it('a decision without a session → 401, the sign-in form', async () => {
      const params = authorizationRequest(app, pkce());
      const jar = new CookieJar();
      const page = await open(params, jar).expect(200);
      jar.store(page);
      const res = await t.http
        .post(OAUTH.consent)
        .set(jar.header())
        .type('form')
        .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, decision: 'allow' })
        .expect(401);
      expectConsentHeaders(res);
      expect(res.text).toContain('Please sign in again.');
      expect(res.headers.location).toBeUndefined();
    });
  });

  describe('the domain’s status: the guard’s own steps run on the session cookie, as on the API', () => {
    async function signedInTo(status: 'FROZEN' | 'DEACTIVATED') {
      const domain = await createDomain(t);
      const member = await createUser(t, { domainId: domain.id });
      const own = await createOAuthApp(t, { kind: 'browser', domainId: domain.id });
      const params = authorizationRequest(own, pkce());
      const jar = await signIn(params, member.email);
      await t.ds.getRepository(SystemDomainEntity).update({ id: domain.id }, { status });
      return { params, jar };
    }

    it('FROZEN: the page and the decision work, as the API’s (approving is allowed while frozen)', async () => {
      const { params, jar } = await signedInTo('FROZEN');
      const page = await open(params, jar).expect(200);
      expect(page.text).toContain('value="allow"');
      const res = await decide(params, jar, 'allow');
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(/[?&]code=/);
    });

    it('DEACTIVATED: not signed in (the sign-in form; a decision is a 401 page, never a code)', async () => {
      const { params, jar } = await signedInTo('DEACTIVATED');
      const page = await open(params, jar).expect(200);
      expect(page.text).toContain('Sign in to continue');
      expect(page.text).not.toContain('value="allow"');
      const csrf = hiddenField(page.text, 'csrf') as string;
      const res = await t.http
        .post(OAUTH.consent)
        .set(jar.header())
        .type('form')
        .send({ ...params, csrf, decision: 'allow' })
        .expect(401);
      expectConsentHeaders(res);
      expect(res.text).toContain('Please sign in again.');
      expect(res.headers.location).toBeUndefined();
    });
  });

  describe('the application and the approving user must belong to the same domain', () => {
    it('a user of another domain → an error page (GET and POST), never a code', async () => {
      const other = await createDomain(t);
      const stranger = await createUser(t, { domainId: other.id });
      const params = authorizationRequest(app, pkce());
      const jar = await signIn(params, stranger.email);
      const page = await open(params, jar).expect(403);
      expectConsentHeaders(page);
      expect(page.text).toContain('<h1 class="error">Wrong domain</h1>');
      expect(page.text).not.toContain('value="allow"');
      const res = await t.http
        .post(OAUTH.consent)
        .set(jar.header())
        .type('form')
        .send({ ...params, csrf: jar.get(CSRF_COOKIE) as string, decision: 'allow' })
        .expect(403);
      expectConsentHeaders(res);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('<h1 class="error">Wrong domain</h1>');
    });

    it('a user of both domains may approve', async () => {
      const other = await createDomain(t);
      const both = await createUser(t, { domainId: other.id, alsoIn: [t.domainId] });
      const result = await authorizeViaConsentPage(t, app, both.email);
      expect(result.code).toMatch(/^[\w-]{43}$/);
    });
  });

  describe('escaping', () => {
    it('an app named <script>alert(1)</script> appears only escaped, on every page', async () => {
      const evil = await createOAuthApp(t, {
        kind: 'browser',
        name: '<script>alert(1)</script>',
        redirectUris: ['https://evil-name.example/cb'],
      });
      const params = authorizationRequest(evil, pkce(), { state: '"><img src=x onerror=alert(2)>' });
      const signInPage = await open(params).expect(200);
      const jar = await signIn(params);
      const consent = await open(params, jar).expect(200);
      for (const res of [signInPage, consent]) {
        expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
        expect(withoutOwnScripts(res.text)).not.toContain('<script');
        expect(res.text).not.toContain('<img');
        expect(res.text).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"');
        expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      }
    });
  });

  // served over https (Secure, __Host- cookies): consent-session.service.spec.ts
  describe('CSRF token bound to the sign-in state', () => {
    it('a planted cookie and matching field the server did not mint are refused', async () => {
      const params = authorizationRequest(app, pkce());
      const planted = 'A'.repeat(24) + '.' + 'B'.repeat(43);
      for (const csrf of [planted, 'C'.repeat(43)]) {
        const jar = new CookieJar().set(CSRF_COOKIE, csrf);
        const res = await t.http
          .post(OAUTH.consentLogin)
          .set(jar.header())
          .type('form')
          .send({ ...params, csrf, email: user.email, password: DEFAULT_PASSWORD })
          .expect(403);
        expect(setCookie(res, SESSION_COOKIE)).toBeUndefined();
      }
      // and for the decision of a signed-in user
      const jar = await signIn(params);
      const forged = await t.http
        .post(OAUTH.consent)
        .set(jar.set(CSRF_COOKIE, planted).header())
        .type('form')
        .send({ ...params, csrf: planted, decision: 'allow' })
        .expect(403);
      expect(forged.headers.location).toBeUndefined();
    });

    // a token minted before sign-in, or for another session, does not pass: consent-session.service.spec.ts
  });
  describe('errors on the HTML surface', () => {
    it('hostile input is a 400 page, not JSON', async () => {
      const params = authorizationRequest(app, pkce());
      const res = await t.http
        .get(OAUTH.consent)
        .query({ ...params, state: 'a\u0000b' })
        .expect(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['x-error-code']).toBe('request.INVALID');
      expect(res.text).toContain('<h1 class="error">Request refused</h1>');
      expect(res.text).toContain('state: must not contain NUL characters');
    });

    it('the database down is a 503 page with Retry-After', async () => {
      const down = await createTestApp();
      const a = await createOAuthApp(down, { kind: 'browser' });
      await down.ds.destroy();
      try {
        const res = await down.http.get(OAUTH.consent).query(authorizationRequest(a, pkce())).expect(503);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.text).toContain('Temporarily unavailable');
      } finally {
        await down.close().catch(() => undefined);
      }
    });
  });
});
