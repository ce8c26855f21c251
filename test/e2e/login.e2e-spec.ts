import { decodeJwt } from 'jose';
import type { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer } from '../utils/auth.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../utils/create-test-app.js';

const LOGIN = '/API/auth/v1/auth/simple/login/';
const VALIDATE = '/API/auth/v1/auth/token/';

describe('password sign-in POST /API/auth/v1/auth/simple/login/', () => {
  let t: TestApp;
  let d2: SystemDomainEntity;
  let dead: SystemDomainEntity;
  let multi: UserEntity;

  beforeAll(async () => {
    t = await createTestApp();
    d2 = await createDomain(t, { name: 'Second', base_url: 'https://second.example' });
    dead = await createDomain(t, { name: 'Gone', status: 'DEACTIVATED' });
    multi = await createUser(t, { email: 'multi@example.com', alsoIn: [d2.id, dead.id] });
  });
  afterAll(() => t.close());

  it('→ 201 the multi-platform Token form: one token per active domain, each valid in its own domain', async () => {
    const res = await t.http
      .post(LOGIN)
      .send({ email: 'multi@example.com', password: DEFAULT_PASSWORD })
      .expect(201);
    expect(res.body).toMatchObject({
      token: expect.any(String),
      id: expect.any(String),
      user_id: multi.id,
      system_domain_id: t.domainId,
      kind: 'LOGIN',
      is_admin: false,
      expires: expect.any(String),
    });
    expect(res.body.system_domains.sort()).toEqual([t.domainId, d2.id].sort());
    const items = res.body.auth_system_domains as { system_domain_id: string; token: string }[];
    expect(items.map((i) => i.system_domain_id).sort()).toEqual([t.domainId, d2.id].sort());
    const second = items.find((i) => i.system_domain_id === d2.id)!;
    expect(second).toMatchObject({
      system_domain_name: 'Second',
      platform_url: 'https://second.example',
      url: 'https://second.example',
      mfa_required: false,
      mfa_methods: [],
      token: expect.any(String),
    });
    // the deprecated top-level token is the home domain's
    const home = items.find((i) => i.system_domain_id === t.domainId)!;
    expect(res.body.token).toBe(home.token);
    expect(decodeJwt(res.body.token).id).toBe(res.body.id);
    for (const item of items) {
      const v = await t.http.get(VALIDATE).set(bearer(item.token)).expect(200);
      expect(v.body).toMatchObject({
        system_domain_id: item.system_domain_id,
        user_id: multi.id,
        kind: 'LOGIN',
      });
      expect(decodeJwt(item.token).sys).toBe(item.system_domain_id);
    }
    expect(new Set(items.map((i) => i.token)).size).toBe(items.length);
    // twelve hours by default
    expect(Math.abs(new Date(res.body.expires).getTime() - (Date.now() + 12 * 3600_000))).toBeLessThan(
      60_000,
    );
  });

  it('the bootstrap administrator signs in', async () => {
    const res = await t.http.post(LOGIN).send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }).expect(201);
    expect(res.body).toMatchObject({ is_admin: true, is_super_admin: true, user_id: t.admin.id });
  });

  it('the email is case-insensitive and trimmed', async () => {
    await t.http.post(LOGIN).send({ email: '  MULTI@Example.COM ', password: DEFAULT_PASSWORD }).expect(201);
  });

  it('works with empty Authorization, App-ID and Auth-Token headers', async () => {
    await t.http
      .post(LOGIN)
      .set({ Authorization: '', 'App-ID': '', 'Auth-Token': '' })
      .send({ email: 'multi@example.com', password: DEFAULT_PASSWORD })
      .expect(201);
    // and with a stale token: sign-in is public
    await t.http
      .post(LOGIN)
      .set({ Authorization: 'Bearer stale.token.value' })
      .send({ email: 'multi@example.com', password: DEFAULT_PASSWORD })
      .expect(201);
  });

  it('wrong password, unknown email, inactive user and a user without a password get one identical answer', async () => {
    const inactive = await createUser(t, { status: 'INACTIVE' });
    const passwordless = await createUser(t, { password: null });
    const answers = await Promise.all(
      [
        { email: 'multi@example.com', password: 'wrong-password' },
        { email: 'nobody@example.com', password: DEFAULT_PASSWORD },
        { email: inactive.email, password: DEFAULT_PASSWORD },
        { email: passwordless.email, password: '' },
      ].map((body) => t.http.post(LOGIN).send(body)),
    );
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ errors: ['Invalid email or password'] });
      expect(res.headers['content-type']).toMatch(/application\/json/);
    }
  });

  it('a user whose only domain is deactivated gets the same answer', async () => {
    const only = await createUser(t, { domainId: dead.id });
    const res = await t.http.post(LOGIN).send({ email: only.email, password: DEFAULT_PASSWORD }).expect(401);
    expect(res.body).toEqual({ errors: ['Invalid email or password'] });
  });

  it('a user whose home domain is deactivated gets the token of another domain at the top level', async () => {
    const u = await createUser(t, { domainId: dead.id, alsoIn: [d2.id] });
    const res = await t.http.post(LOGIN).send({ email: u.email, password: DEFAULT_PASSWORD }).expect(201);
    expect(res.body.system_domain_id).toBe(d2.id);
    expect(res.body.auth_system_domains.map((i: { system_domain_id: string }) => i.system_domain_id)).toEqual(
      [d2.id],
    );
    await t.http.get(VALIDATE).set(bearer(res.body.token)).expect(200);
  });

  it("one item per domain, oldest membership first, signed for the domain's oldest built-in app", async () => {
    const third = await createDomain(t, { name: 'Third', base_url: 'https://third.example' });
    const u = await createUser(t, { domainId: third.id, alsoIn: [d2.id] });
    // the membership of Second made a day earlier: the order is the memberships' age, not their insertion
    // (two inserts in a row may share a timestamp)
    await t.ds.query(
      `UPDATE user_system_domains SET date_created = now() - interval '1 day'
       WHERE user_id = $1 AND system_domain_id = $2`,
      [u.id, d2.id],
    );
    const [{ id: builtin }] = await t.ds.query(
      'SELECT id FROM apps WHERE system_domain_id = $1 AND is_builtin',
      [third.id],
    );
    // a second built-in app (no flow makes one) must neither duplicate the domain nor change the app
    await t.ds.query(
      `INSERT INTO apps (system_domain_id, name, type, is_builtin, date_created)
       VALUES ($1, 'second built-in', 'PAT', true, now() + interval '1 minute')`,
      [third.id],
    );
    const res = await t.http.post(LOGIN).send({ email: u.email, password: DEFAULT_PASSWORD }).expect(201);
    const items = res.body.auth_system_domains as { system_domain_id: string; token: string }[];
    expect(items.map((i) => i.system_domain_id)).toEqual([d2.id, third.id]);
    const v = await t.http.get(VALIDATE).set(bearer(items[1].token)).expect(200);
    expect(v.body).toMatchObject({ system_domain_id: third.id, app_id: builtin });
  });

  it.each([
    ['missing email', { password: 'x' }, ['email']],
    ['missing password', { email: 'a@example.com' }, ['password']],
    ['both missing', {}, ['email', 'password']],
    ['a malformed email', { email: 'not-an-email', password: 'x' }, ['email']],
    ['a non-string password', { email: 'a@example.com', password: 12345 }, ['password']],
  ])('%s → 400 field map', async (_n, body, fields) => {
    const res = await t.http.post(LOGIN).send(body).expect(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    for (const f of fields) expect(typeof res.body.errors[f]).toBe('string');
  });

  it('records last_login', async () => {
    const u = await createUser(t);
    await t.http.post(LOGIN).send({ email: u.email, password: DEFAULT_PASSWORD }).expect(201);
    const [row] = await t.ds.query('SELECT last_login FROM users WHERE id = $1', [u.id]);
    expect(row.last_login).not.toBeNull();
  });
});
