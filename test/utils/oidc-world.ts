import { randomBytes, randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { Clock } from '../../src/base/common/clock.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, type UserOptions } from '../factories/index.js';
import { bearer, tokenFor } from './auth.js';
import type { TestApp } from './create-test-app.js';
import { startOidcOp, type OidcOp, type OpAccount, type OpClient } from './oidc-op.js';
import { SAML } from './saml-setup.js';

export const OIDC_PROVIDERS = '/API/auth/v1/oidc_providers/';
export const OAUTH_LOGIN = '/API/auth/v1/auth/oauth/login/';
export const OAUTH_CALLBACK = '/API/auth/v1/auth/oauth/callback/';

/** A provider as the admin API answers it (OidcProviderDto). */
export interface OidcProviderView {
  id: string;
  public_id: string;
  system_domain_id: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret_set: boolean;
  scopes: string[];
  settings: {
    claims: { email: string; first_name: string; last_name: string; groups: string };
    jit_provisioning: boolean;
  };
  enabled: boolean;
  redirect_uri: string;
  domains: string[];
}

/** One return from the provider, as our callback answered it. */
export interface CallbackAnswer {
  status: number;
  /** The 302's Location, if any. */
  location?: string;
  /** The single-use oauth_code of the Location, or null. */
  code: string | null;
  /** The request's id (audit records of the callback carry it). */
  requestId: string;
  res: Response;
}

export interface SignedIn {
  id: string;
  token: string;
  user_id: string;
  system_domain_id: string;
  [k: string]: unknown;
}

export interface RefusalRecord {
  system_domain_id: string | null;
  target_id: string | null;
  details: { method?: string; reason?: string };
}

export interface StartBody {
  email?: string;
  provider_id?: string;
  return_to?: string;
}

export interface OidcWorld {
  op: OidcOp;
  /** The email domain bound to the provider and verified (by a super administrator's decision). */
  emailDomain: string;
  domainId: string;
  /** The domain's web app (its base_url): where sign-ins return by default. */
  baseUrl: string;
  admin: UserEntity;
  adminAuth: Record<string, string>;
  /** A member of the domain alone, at the bound email domain, known to the provider (login = email). */
  member: UserEntity;
  provider: OidcProviderView;
  /** The client the provider knows our service by (the provider's client_id and secret). */
  client: OpClient;
  /** Registers a person at the provider (email verified unless said); the login is the email. */
  person(o: Partial<OpAccount> & { email: string }): string;
  /** A new account (of the domain at the bound email domain, unless `o` says otherwise), known to the provider. */
  user(o?: UserOptions, claims?: Partial<OpAccount>): Promise<{ user: UserEntity; login: string }>;
  /** POST auth/oauth/login/ to start (the provider by id unless `body` says otherwise): its `url`, 200. */
  start(body?: StartBody): Promise<string>;
  /** Starts, lets `login` sign in at the provider, and returns where it sends the browser: path and query. */
  authorize(login: string, body?: StartBody): Promise<string>;
  /** GETs our callback (path and query as authorize() returns it), as JSON or as a browser asking for HTML. */
  callback(pathAndQuery: string, o?: { html?: boolean }): Promise<CallbackAnswer>;
  /** authorize() then callback(). */
  signIn(login: string, body?: StartBody): Promise<CallbackAnswer>;
  /** POST auth/oauth/login/ {code}: the Token form (201) or a refusal. */
  exchange(code: string): Promise<Response>;
  /** The Token form a successful callback's code gives (expects the 302, then the 201). */
  token(answer: CallbackAnswer): Promise<SignedIn>;
  /** The audit records of the refusals of the callback's request (`signin.failure`). */
  refusals(answer: CallbackAnswer): Promise<RefusalRecord[]>;
  /** The audit records of the user's successful sign-ins (`signin.success`). */
  successes(userId: string): Promise<{ system_domain_id: string; details: Record<string, unknown> }[]>;
  /** Runs `fn` with the service's clock `ms` ahead (expiries), then puts the clock back. */
  later<T>(ms: number, fn: () => Promise<T>): Promise<T>;
  /** A group of the domain and a mapping of the provider's group name `name` to it: the group's id. */
  mapGroup(name: string): Promise<string>;
  /** The groups the user is a member of (ids). */
  groupsOf(userId: string): Promise<string[]>;
  /** Another provider of the domain (201), at the test provider's issuer unless `body` says otherwise. */
  create(body?: Record<string, unknown>): Promise<OidcProviderView>;
  /** PATCHes the provider as the domain's administrator (200), and keeps `provider` up to date. */
  patch(body: Record<string, unknown>): Promise<OidcProviderView>;
  /**
   * Binds an email domain to one of the domain's providers (the world's by default): verified by a super
   * administrator's decision, or (`verified: false`) claimed by the domain's administrator, its DNS challenge open.
   */
  bind(emailDomain: string, o?: { providerId?: string; verified?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

/** A new domain with an administrator: the domain's id and the administrator's Authorization header. */
export async function domainAdmin(t: TestApp): Promise<{ domainId: string; auth: Record<string, string> }> {
  const domain = await createDomain(t);
  const admin = await createUser(t, { domainId: domain.id, isAdmin: true });
  return { domainId: domain.id, auth: bearer((await tokenFor(t, admin, { domainId: domain.id })).token) };
}

/** Where the provider sent the browser back to, as a request path for supertest (the app need not listen). */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/**
 * A domain with an administrator and a member, an OpenID provider of the domain at a real oidc-provider
 * (test/utils/oidc-op.ts), and `emailDomain` bound to the provider and verified.
 *
 * The provider's redirect URI names its public_id, which the service draws at creation, and the test provider
 * knows its clients from its start: so the provider is created first with a placeholder issuer, the test
 * provider started with the redirect URI registered, and the issuer then changed to the test provider's (the
 * administrator's PATCH). Works as well with an app that listens (its PUBLIC_BASE_URL in the redirect URI).
 */
export async function oidcWorld(
  t: TestApp,
  o: { emailDomain?: string; settings?: Record<string, unknown> } = {},
): Promise<OidcWorld> {
  const tag = randomUUID().slice(0, 8);
  const emailDomain = o.emailDomain ?? `oidc-${tag}.test`;
  const baseUrl = `https://app.${emailDomain}/`;
  const domain = await createDomain(t, { base_url: baseUrl });
  const admin = await createUser(t, {
    domainId: domain.id,
    isAdmin: true,
    email: `admin-${tag}@admins.test`,
  });
  const adminAuth = bearer((await tokenFor(t, admin, { domainId: domain.id })).token);
  const member = await createUser(t, { domainId: domain.id, email: `member-${tag}@${emailDomain}` });

  const bind = async (name: string, b: { providerId?: string; verified?: boolean } = {}) => {
    const verified = b.verified ?? true;
    // a super administrator acting in the domain binds the name and verifies it in one decision
    const auth = verified ? bearer((await tokenFor(t, t.admin, { domainId: domain.id })).token) : adminAuth;
    const res = await t.http
      .post(`${SAML}/domains/`)
      .set(auth)
      .send({
        domain: name,
        oidc_provider_id: b.providerId ?? provider.id,
        ...(verified ? { force: true } : {}),
      })
      .expect(201);
    if (res.body.verified !== verified) throw new Error(`binding of ${name}: verified ${res.body.verified}`);
  };

  let provider!: OidcProviderView;
  const clientId = `portcullis-${tag}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const created = await t.http
    .post(OIDC_PROVIDERS)
    .set(adminAuth)
    .send({
      name: 'Corp OpenID',
      issuer: 'http://127.0.0.1:9', // replaced below, once the test provider listens
      client_id: clientId,
      client_secret: clientSecret,
      scopes: ['openid', 'email', 'profile'],
      ...(o.settings ? { settings: o.settings } : {}),
    })
    .expect(201);
  const client: OpClient = {
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [created.body.redirect_uri],
  };
  const op = await startOidcOp({ clients: [client] });
  try {
    await t.http
      .patch(`${OIDC_PROVIDERS}${created.body.id}/`)
      .set(adminAuth)
      .send({ issuer: op.issuer })
      .expect(200);
    await bind(emailDomain, { providerId: created.body.id });
    provider = (await t.http.get(`${OIDC_PROVIDERS}${created.body.id}/`).set(adminAuth).expect(200)).body;
  } catch (e) {
    await op.stop();
    throw e;
  }

  const person: OidcWorld['person'] = (a) => {
    op.addAccount({ login: a.email, email_verified: true, ...a });
    return a.login ?? a.email;
  };
  person({ email: member.email, given_name: 'Mia', family_name: 'Member' });

  const start: OidcWorld['start'] = async (body = { provider_id: provider.id }) => {
    const res = await t.http.post(OAUTH_LOGIN).send(body);
    if (res.status !== 200) throw new Error(`start ${JSON.stringify(body)}: ${res.status} ${res.text}`);
    return res.body.url as string;
  };
  const authorize: OidcWorld['authorize'] = async (login, body) =>
    pathOf(await op.authorize(await start(body), login));
  const callback: OidcWorld['callback'] = async (pathAndQuery, c = {}) => {
    const res = await t.http
      .get(pathAndQuery)
      .set('Accept', c.html ? 'text/html,application/xhtml+xml' : 'application/json');
    const location = res.headers.location as string | undefined;
    return {
      status: res.status,
      location,
      code: location ? new URL(location).searchParams.get('oauth_code') : null,
      requestId: res.headers['x-request-id'] as string,
      res,
    };
  };
  const world: OidcWorld = {
    op,
    emailDomain,
    domainId: domain.id,
    baseUrl,
    admin,
    adminAuth,
    member,
    provider,
    client,
    person,
    start,
    authorize,
    callback,
    signIn: async (login, body) => callback(await authorize(login, body)),
    exchange: async (code) => await t.http.post(OAUTH_LOGIN).send({ code }),
    async token(answer) {
      if (answer.status !== 302 || !answer.code) {
        throw new Error(`callback answered ${answer.status} ${answer.res.text}, not a 302 with a code`);
      }
      const res = await world.exchange(answer.code);
      if (res.status !== 201) throw new Error(`exchange answered ${res.status} ${res.text}`);
      return res.body;
    },
    refusals: (answer) =>
      t.ds.query(
        "SELECT system_domain_id, target_id, details FROM audit_events WHERE request_id = $1 AND action = 'signin.failure'",
        [answer.requestId],
      ),
    successes: (userId) =>
      t.ds.query(
        "SELECT system_domain_id, details FROM audit_events WHERE action = 'signin.success' AND target_id = $1",
        [userId],
      ),
    async later(ms, fn) {
      t.get(Clock).advance(ms);
      try {
        return await fn();
      } finally {
        t.get(Clock).reset();
      }
    },
    async user(o = {}, claims = {}) {
      const email = `p-${randomUUID().slice(0, 8)}@${emailDomain}`;
      const user = await createUser(t, { domainId: domain.id, email, ...o });
      return { user, login: person({ email: user.email, ...claims }) };
    },
    async mapGroup(name) {
      const group = await t.http
        .post('/API/users/v1/groups')
        .set(adminAuth)
        .send({ name: `group-${randomUUID().slice(0, 8)}` })
        .expect(201);
      await t.http
        .post('/API/users/v1/groups/mappings')
        .set(adminAuth)
        .send({ name, group_id: group.body.id })
        .expect(201);
      return group.body.id;
    },
    groupsOf: async (userId) =>
      (await t.ds.query('SELECT group_id FROM group_members WHERE user_id = $1', [userId])).map(
        (r: { group_id: string }) => r.group_id,
      ),
    async create(body = {}) {
      const res = await t.http
        .post(OIDC_PROVIDERS)
        .set(adminAuth)
        .send({ name: 'Another', issuer: op.issuer, client_id: 'another', client_secret: 'another', ...body })
        .expect(201);
      return res.body;
    },
    async patch(body) {
      const res = await t.http
        .patch(`${OIDC_PROVIDERS}${provider.id}/`)
        .set(adminAuth)
        .send(body)
        .expect(200);
      provider = res.body;
      world.provider = provider;
      return provider;
    },
    bind,
    stop: () => op.stop(),
  };
  return world;
}
