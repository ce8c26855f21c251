import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { sha256Hex } from '../../src/base/common/crypto/secrets.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from './auth.js';
import type { TestApp } from './create-test-app.js';

/** The OAuth endpoints, as clients call them. */
export const OAUTH = {
  token: '/API/auth/v1/oauth/token/',
  revoke: '/API/auth/v1/oauth/revoke/',
  introspect: '/API/auth/v1/oauth/introspect/',
  jwks: '/API/auth/v1/oauth/jwks/',
  metadata: '/.well-known/oauth-authorization-server',
  authorizeApi: '/API/auth/v1/oauth/authorize/',
  consent: '/oauth/authorize',
  consentLogin: '/oauth/authorize/login',
  refreshRevoke: '/API/auth/v1/refresh/token/',
  /** GET validates the presented credential: the simplest "does this token still work" probe. */
  validate: '/API/auth/v1/auth/token/',
} as const;

export const ACCESS_TTL_SECONDS = 12 * 3600;
export const REFRESH_TTL_SECONDS = 60 * 24 * 3600;

// ---------------------------------------------------------------------------------------------- PKCE

export interface Pkce {
  verifier: string;
  challenge: string;
}

/** RFC 7636: a random verifier (43 characters unless given) and its S256 challenge. */
export function pkce(verifier = randomBytes(32).toString('base64url')): Pkce {
  return { verifier, challenge: createHash('sha256').update(verifier, 'ascii').digest('base64url') };
}

// ---------------------------------------------------------------------------------------------- apps

export type OAuthKind = 'backend' | 'server' | 'browser';

export interface OAuthApp {
  id: string;
  /** Confidential apps only: returned once by the create call. */
  secret?: string;
  name: string;
  kind: OAuthKind;
  domainId: string;
  redirectUris: string[];
  redirectUri: string;
  scopes: string[];
  origins: string[];
  defaultUserId: string | null;
}

const adminTokens = new WeakMap<TestApp, Map<string, string>>();

/** A login token of an administrator of `domainId` (created once per test app and domain). */
export async function domainAdminToken(t: TestApp, domainId = t.domainId): Promise<string> {
  const perApp = adminTokens.get(t) ?? new Map<string, string>();
  adminTokens.set(t, perApp);
  const known = perApp.get(domainId);
  if (known) return known;
  const admin = await createUser(t, { domainId, isAdmin: true });
  const { token } = await tokenFor(t, admin, { expiresInSeconds: 24 * 3600 });
  perApp.set(domainId, token);
  return token;
}

/**
 * Registers an OAuth app through the apps API, as an administrator would:
 * backend = confidential + default user (client credentials), server = confidential with redirect URIs,
 * browser = public with redirect URIs and optional allowed_origins.
 */
export async function createOAuthApp(
  t: TestApp,
  o: {
    kind: OAuthKind;
    scopes?: string[];
    redirectUris?: string[];
    origins?: string[];
    defaultUserId?: string;
    domainId?: string;
    name?: string;
  },
): Promise<OAuthApp> {
  const domainId = o.domainId ?? t.domainId;
  const scopes = o.scopes ?? ['assets:read', 'assets:write', 'user_impersonation'];
  const tag = randomUUID().slice(0, 8);
  const redirectUris =
    o.kind === 'backend' ? (o.redirectUris ?? []) : (o.redirectUris ?? [`https://${tag}.client.example/cb`]);
  let defaultUserId: string | null = o.defaultUserId ?? null;
  if (o.kind === 'backend' && !defaultUserId) defaultUserId = (await createUser(t, { domainId })).id;
  const body: Record<string, unknown> = {
    name: o.name ?? `${o.kind}-${tag}`,
    type: 'OAUTH',
    oauth_client_type: o.kind === 'browser' ? 'public' : 'confidential',
    allowed_scopes: scopes,
    redirect_uris: redirectUris,
    ...(defaultUserId ? { default_user_id: defaultUserId } : {}),
    ...(o.origins ? { allowed_origins: o.origins } : {}),
  };
  const res = await t.http
    .post('/API/auth/v1/apps/')
    .set(bearer(await domainAdminToken(t, domainId)))
    .send(body);
  if (res.status !== 201)
    throw new Error(`creating the app failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    id: res.body.id,
    secret: res.body.client_secret,
    name: res.body.name,
    kind: o.kind,
    domainId,
    redirectUris: res.body.redirect_uris,
    redirectUri: res.body.redirect_uris[0],
    scopes: res.body.allowed_scopes,
    origins: res.body.allowed_origins,
    defaultUserId,
  };
}

/** A service-account (PAT) app with an acting user, through the apps API. */
export async function createPatApp(
  t: TestApp,
  domainId = t.domainId,
): Promise<{ id: string; userId: string }> {
  const user = await createUser(t, { domainId });
  const res = await t.http
    .post('/API/auth/v1/apps/')
    .set(bearer(await domainAdminToken(t, domainId)))
    .send({ name: `svc-${randomUUID().slice(0, 8)}`, type: 'PAT', default_user_id: user.id })
    .expect(201);
  return { id: res.body.id, userId: user.id };
}

// ---------------------------------------------------------------------------------------------- token endpoint

/** HTTP Basic client credentials, form-urlencoded before base64 as RFC 6749 §2.3.1 asks. */
export function basicAuth(id: string, secret: string): Record<string, string> {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return { Authorization: `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}` };
}

/** POST to the token endpoint, form-encoded. */
export function tokenRequest(
  t: TestApp,
  form: Record<string, string>,
  headers: Record<string, string> = {},
  path: string = OAUTH.token,
) {
  return t.http.post(path).set(headers).type('form').send(form);
}

/** The client authentication fields of `app` for the form (none for public clients). */
export function clientForm(app: OAuthApp): Record<string, string> {
  return app.secret ? { client_id: app.id, client_secret: app.secret } : { client_id: app.id };
}

export function clientCredentials(t: TestApp, app: OAuthApp, extra: Record<string, string> = {}) {
  return tokenRequest(t, { grant_type: 'client_credentials', ...clientForm(app), ...extra });
}

export function exchangeCode(
  t: TestApp,
  app: OAuthApp,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
) {
  return tokenRequest(t, {
    grant_type: 'authorization_code',
    ...clientForm(app),
    code,
    code_verifier: verifier,
    redirect_uri: app.redirectUri,
    ...extra,
  });
}

export function refreshGrant(
  t: TestApp,
  app: OAuthApp,
  refreshToken: string,
  extra: Record<string, string> = {},
) {
  return tokenRequest(t, {
    grant_type: 'refresh_token',
    ...clientForm(app),
    refresh_token: refreshToken,
    ...extra,
  });
}

/** An RFC 6749 error answer: exact status and body shape, never cached. */
export function expectOAuthError(
  res: Response,
  status: number,
  error: string,
  description?: string | RegExp,
) {
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
  expect(Object.keys(res.body).sort()).toEqual(['error', 'error_description']);
  expect(res.body.error_description).toEqual(expect.any(String));
  if (typeof description === 'string') expect(res.body.error_description).toBe(description);
  if (description instanceof RegExp) expect(res.body.error_description).toMatch(description);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['cache-control']).toBe('no-store');
  if (status === 401)
    expect(res.headers['www-authenticate']).toBe('Basic realm="portcullis", charset="UTF-8"');
  else expect(res.headers['www-authenticate']).toBeUndefined();
}

/** A successful token response: exact fields and headers. */
export function expectTokenResponse(res: Response, o: { scope: string; refresh: boolean }) {
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
    token: res.body.access_token,
    token_type: 'Bearer',
    expires_in: ACCESS_TTL_SECONDS,
    scope: o.scope,
    ...(o.refresh ? { refresh_token: expect.stringMatching(/^[\w-]{43}$/) } : {}),
  });
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['pragma']).toBe('no-cache');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

/** The stored record of a refresh token (only its hash is stored). */
export async function refreshRecord(
  t: TestApp,
  refreshToken: string,
): Promise<{
  grant_id: string;
  expires: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  scopes: string[];
}> {
  const [row] = await t.ds.query('SELECT * FROM oauth_refresh_tokens WHERE token_hash = $1', [
    sha256Hex(refreshToken),
  ]);
  return row;
}

// ---------------------------------------------------------------------------------------------- authorization

export interface AuthorizationRequest {
  client_id: string;
  redirect_uri: string;
  response_type: string;
  code_challenge: string;
  code_challenge_method: string;
  scope?: string;
  state?: string;
}

/** A well-formed authorization request for `app` (override or drop fields with `over`, `undefined` drops). */
export function authorizationRequest(
  app: OAuthApp,
  p: Pkce,
  over: Partial<Record<keyof AuthorizationRequest, string | undefined>> = {},
): Record<string, string> {
  const all: Record<string, string | undefined> = {
    client_id: app.id,
    redirect_uri: app.redirectUri,
    response_type: 'code',
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
    state: randomBytes(12).toString('base64url'),
    ...over,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

export interface Authorized {
  code: string;
  state: string | undefined;
  verifier: string;
  location: URL;
}

/**
 * Allow through the JSON authorize API (what a client's own consent UI calls) with the user's login token:
 * the quick way to a code for grant tests. The consent page itself is driven by `authorizeViaConsentPage`.
 */
export async function authorizeViaApi(
  t: TestApp,
  app: OAuthApp,
  user: UserEntity,
  o: { scope?: string; pkce?: Pkce; redirectUri?: string } = {},
): Promise<Authorized> {
  const p = o.pkce ?? pkce();
  const { token } = await tokenFor(t, user, { domainId: app.domainId });
  const body = authorizationRequest(app, p, {
    scope: o.scope,
    ...(o.redirectUri ? { redirect_uri: o.redirectUri } : {}),
  });
  const res = await t.http
    .post(OAUTH.authorizeApi)
    .set(bearer(token))
    .send({ ...body, decision: 'allow' });
  if (res.status !== 200) throw new Error(`authorize failed: ${res.status} ${JSON.stringify(res.body)}`);
  const location = new URL(res.body.redirect_to);
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${res.body.redirect_to}`);
  return { code, state: body.state, verifier: p.verifier, location };
}

/** Authorize, then exchange the code: the full authorization-code grant's token response body. */
export async function obtainTokens(
  t: TestApp,
  app: OAuthApp,
  user: UserEntity,
  o: { scope?: string } = {},
): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const { code, verifier } = await authorizeViaApi(t, app, user, o);
  const res = await exchangeCode(t, app, code, verifier);
  if (res.status !== 200) throw new Error(`exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// ---------------------------------------------------------------------------------------------- consent page

/** The cookies a browser would keep for the consent page (name → value, attributes ignored). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: Response): this {
    for (const c of setCookies(res)) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): this {
    this.cookies.set(name, value);
    return this;
  }

  delete(name: string): this {
    this.cookies.delete(name);
    return this;
  }

  header(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }
}

export function setCookies(res: Response): string[] {
  const raw = res.headers['set-cookie'] as unknown;
  if (!raw) return [];
  return Array.isArray(raw) ? (raw as string[]) : [String(raw)];
}

/** The Set-Cookie line for `name`, with its attributes. */
export function setCookie(res: Response, name: string): string | undefined {
  return setCookies(res).find((c) => c.startsWith(`${name}=`));
}

/** The value of a hidden form field in a page. */
export function hiddenField(html: string, name: string): string | undefined {
  const m = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  return m ? m[1] : undefined;
}

export const SESSION_COOKIE = 'portcullis_session';
export const CSRF_COOKIE = 'portcullis_csrf';

/** Every page (and redirect) of the consent flow: framing forbidden, never cached; pages are HTML. */
export function expectConsentHeaders(res: Response) {
  if (res.status !== 303) expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

/**
 * Drives the consent page as a browser would: open it (sign-in form and CSRF cookie), sign in with email and
 * password, follow the 303 back to the page, then submit Allow or Deny. Returns where the browser is sent.
 */
export async function authorizeViaConsentPage(
  t: TestApp,
  app: OAuthApp,
  email: string,
  o: { password?: string; scope?: string; pkce?: Pkce; decision?: 'allow' | 'deny'; jar?: CookieJar } = {},
): Promise<Authorized & { jar: CookieJar; consentHtml: string }> {
  const p = o.pkce ?? pkce();
  const jar = o.jar ?? new CookieJar();
  const params = authorizationRequest(app, p, { scope: o.scope });
  const query = new URLSearchParams(params).toString();

  let page = await t.http.get(`${OAUTH.consent}?${query}`).set(jar.header());
  jar.store(page);
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${page.text}`);
  if (page.text.includes('name="password"')) {
    const login = await t.http
      .post(OAUTH.consentLogin)
      .set(jar.header())
      .type('form')
      .send({
        ...params,
        csrf: hiddenField(page.text, 'csrf') as string,
        email,
        password: o.password ?? DEFAULT_PASSWORD,
      });
    jar.store(login);
    if (login.status !== 303) throw new Error(`sign-in: ${login.status} ${login.text}`);
    page = await t.http.get(login.headers.location).set(jar.header());
    jar.store(page);
    if (page.status !== 200) throw new Error(`consent page after sign-in: ${page.status} ${page.text}`);
  }
  const decision = await t.http
    .post(OAUTH.consent)
    .set(jar.header())
    .type('form')
    .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, decision: o.decision ?? 'allow' });
  if (decision.status !== 303) throw new Error(`decision: ${decision.status} ${decision.text}`);
  const location = new URL(decision.headers.location);
  return {
    code: location.searchParams.get('code') ?? '',
    state: params.state,
    verifier: p.verifier,
    location,
    jar,
    consentHtml: page.text,
  };
}
