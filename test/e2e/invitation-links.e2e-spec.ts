import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/base/common/clock.js';
import { sha256Hex } from '../../src/base/common/crypto/secrets.js';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret } from '../utils/mail.js';

const INVITE = '/API/users/v1/users/invite';
const LINK = '/API/auth/v1/invitation';

/**
 * Reusable invitation links (users/invite/token/request/): a link's holder registers an address, the
 * address gets a single-use invitation carrying what the link grants, and only accepting that mailed
 * invitation admits anyone.
 */
describe('invitation links', () => {
  let t: TestApp;
  let admin: UserEntity;
  let h: Record<string, string>;
  let group: GroupEntity;
  const email = (p = 'linked') => `${p}-${randomUUID().slice(0, 8)}@example.com`;
  const as = async (u: UserEntity) => bearer((await tokenFor(t, u)).token);
  const newGroup = (roles: string[], domainId = t.domainId) =>
    t.ds
      .getRepository(GroupEntity)
      .save({ system_domain_id: domainId, name: `lg-${randomUUID().slice(0, 8)}`, roles });
  const requestLink = (body: Record<string, unknown>, headers = h) =>
    t.http.post(`${INVITE}/token/request/`).set(headers).send(body);
  const register = (token: string, address: string) =>
    t.http.post(`${INVITE}/register/`).send({ email: address, first_name: 'Link', last_name: 'User', token });
  const accept = (secret: string) =>
    t.http
      .put(`${LINK}/complete/${secret}/`)
      .send({ password: 'a-long-fresh-password-1', repeat_password: 'a-long-fresh-password-1' });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { isAdmin: true, roles: ['can_write_users', 'can_read_users'] });
    h = await as(admin);
    group = await newGroup(['can_read_assets']);
  });
  afterAll(() => t.close());
  afterEach(() => t.get(Clock).reset());

  it('makes a link whose secret is stored only as a digest, and registration through it admits nobody until the mailed invitation is accepted', async () => {
    const extra = await newGroup(['can_read_users']);
    const res = await requestLink({ primary_group: group.id, groups: [extra.id], type: 'POWER' }).expect(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      invite_link: `${t.config.http.publicBaseUrl}/invitation/register?hash=${res.body.token}`,
      system_domain_id: t.domainId,
      primary_group: group.id,
      groups: [extra.id],
      is_admin: false,
      type: 'POWER',
      expires: expect.any(String),
    });
    const token = res.body.token as string;
    const raw = JSON.stringify(
      await t.ds.query('SELECT * FROM invitation_links WHERE id = $1', [res.body.id]),
    );
    expect(raw).not.toContain(token);
    expect(raw).toContain(sha256Hex(token));

    const check = await t.http.post(`${INVITE}/validate/`).send({ token }).expect(200);
    expect(check.body).toMatchObject({
      valid: true,
      kind: 'link',
      system_domain_id: t.domainId,
      type: 'POWER',
    });

    const address = email();
    const reg = await register(token, address).expect(201);
    expect(reg.body).toEqual({ email: address, system_domain_id: t.domainId, detail: expect.any(String) });
    expect(await t.ds.getRepository(UserEntity).existsBy({ email: address })).toBe(false);
    const secret = await mailedSecret(t, address, 'invitation');
    await t.http.post(`${INVITE}/validate/`).send({ token: secret }).expect(200);

    const done = await accept(secret).expect(200);
    const userId = done.body.user_id as string;
    const groups = (await t.ds.query('SELECT group_id FROM group_members WHERE user_id = $1', [userId])) as {
      group_id: string;
    }[];
    expect(groups.map((g) => g.group_id).sort()).toEqual([group.id, extra.id].sort());
    const [m] = await t.ds.query(
      'SELECT is_admin FROM user_system_domains WHERE user_id = $1 AND system_domain_id = $2',
      [userId, t.domainId],
    );
    expect(m.is_admin).toBe(false);
    expect((await t.ds.getRepository(UserEntity).findOneByOrFail({ id: userId })).type).toBe('POWER');
    // the published User carries the memberships, the link's primary group among them
    const seen = await t.http.get(`/API/users/v1/users/${userId}/`).set(h).expect(200);
    expect(seen.body).toMatchObject({ primary_group: group.id, teams: [], role_groups: [] });
    expect([...seen.body.groups].sort()).toEqual([group.id, extra.id].sort());
    const listed = await t.http.get('/API/users/v1/users/').set(h).query({ query: address }).expect(200);
    expect(listed.body.objects[0]).toMatchObject({ id: userId, primary_group: group.id });

    // the link is reusable; the single-use invitation is not (replay)
    await accept(secret).expect(419);
    await t.http.post(`${INVITE}/validate/`).send({ token: secret }).expect(419);
    await register(token, email()).expect(201);
  });

  it('answers registration alike for a member, a pending address and a new one (no enumeration), mailing only the new one', async () => {
    const { body } = await requestLink({ primary_group: group.id }).expect(200);
    const member = await createUser(t);
    const a = await register(body.token, member.email).expect(201);
    const fresh = email();
    const b = await register(body.token, fresh).expect(201);
    expect(a.body.detail).toBe(b.body.detail);
    const first = await mailedSecret(t, fresh, 'invitation');
    await register(body.token, fresh).expect(201); // pending: that one stands, no second mail
    expect(await mailedSecret(t, fresh, 'invitation')).toBe(first);
    const [n] = await t.ds.query(
      'SELECT count(*)::int AS n FROM invitations WHERE system_domain_id = $1 AND email = $2',
      [t.domainId, member.email],
    );
    expect(n.n).toBe(0);
  });

  it('refuses guessed, expired and purged tokens', async () => {
    await register('x'.repeat(43), email()).expect(404);
    await t.http.post(`${INVITE}/validate/`).send({ token: randomUUID() }).expect(404);
    await t.http.post(`${INVITE}/validate/`).send({}).expect(400);
    await t.http.post(`${INVITE}/register/`).send({ email: email(), token: 'x' }).expect(400);

    const { body } = await requestLink({ primary_group: group.id }).expect(200);
    t.get(Clock).advance(7 * 24 * 3600 * 1000 + 1000);
    await register(body.token, email()).expect(419);
    await t.http.post(`${INVITE}/validate/`).send({ token: body.token }).expect(419);
    t.get(Clock).reset();

    const live = await requestLink({ primary_group: group.id }).expect(200);
    const address = email();
    await register(live.body.token, address).expect(201);
    const secret = await mailedSecret(t, address, 'invitation');
    await t.http.delete(`${INVITE}/purge/`).set(h).expect(204);
    await register(live.body.token, email()).expect(404);
    await accept(secret).expect(404);
    const [left] = await t.ds.query(
      'SELECT count(*)::int AS n FROM invitations WHERE system_domain_id = $1 AND accepted_at IS NULL',
      [t.domainId],
    );
    expect(left.n).toBe(0);
    const [accepted] = await t.ds.query(
      'SELECT count(*)::int AS n FROM invitations WHERE system_domain_id = $1 AND accepted_at IS NOT NULL',
      [t.domainId],
    );
    expect(accepted.n).toBeGreaterThan(0); // history stays
  });

  // what a link may grant (is_admin, the groups' roles) is InvitationLinksService's rule: its unit spec
  it('a link is asked for with can_write_users, by a caller; an administrator’s link makes an administrator', async () => {
    const own = await newGroup(['can_write_users']);
    const reader = await createUser(t, { roles: ['can_read_users'] });
    await requestLink({ primary_group: own.id }, await as(reader)).expect(403);
    await t.http
      .delete(`${INVITE}/purge/`)
      .set(await as(reader))
      .expect(403);
    await t.http.post(`${INVITE}/token/request/`).send({ primary_group: group.id }).expect(401);

    const adminLink = await requestLink({ primary_group: group.id, is_admin: true }).expect(200);
    const address = email();
    await register(adminLink.body.token, address).expect(201);
    const done = await accept(await mailedSecret(t, address, 'invitation')).expect(200);
    const [m] = await t.ds.query(
      'SELECT is_admin FROM user_system_domains WHERE user_id = $1 AND system_domain_id = $2',
      [done.body.user_id, t.domainId],
    );
    expect(m.is_admin).toBe(true);
  });

  it('keeps domains apart: another domain’s group cannot be named, its purge leaves this domain’s links', async () => {
    const other = await createDomain(t);
    const otherAdmin = await createUser(t, { domainId: other.id, isAdmin: true, roles: ['can_write_users'] });
    const oh = await as(otherAdmin);
    await requestLink({ primary_group: group.id }, oh).expect(404);
    const foreign = await newGroup([], other.id);
    await requestLink({ primary_group: group.id, groups: [foreign.id] }).expect(404);
    const mine = await requestLink({ primary_group: group.id }).expect(200);
    await t.http.delete(`${INVITE}/purge/`).set(oh).expect(204);
    await t.http.post(`${INVITE}/validate/`).send({ token: mine.body.token }).expect(200);
    // a registration through this domain's link lands in this domain only
    const address = email();
    const reg = await register(mine.body.token, address).expect(201);
    expect(reg.body.system_domain_id).toBe(t.domainId);
  });

  it('applies the domain’s seat limits on registration', async () => {
    const domain = await createDomain(t, { billing_limits: { power_users: 0 } as never });
    const boss = await createUser(t, { domainId: domain.id, isAdmin: true, roles: ['can_write_users'] });
    const g = await newGroup([], domain.id);
    const { body } = await requestLink({ primary_group: g.id, type: 'POWER' }, await as(boss)).expect(200);
    const res = await register(body.token, email()).expect(400);
    expect(JSON.stringify(res.body)).toContain('power_users');
  });
});
