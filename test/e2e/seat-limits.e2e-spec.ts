import { randomUUID } from 'node:crypto';
import { SystemDomainEntity, type BillingLimits } from '../../src/base/model/system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret } from '../utils/mail.js';

const USERS = '/API/users/v1/users/';
const INVITE = '/API/users/v1/users/invite/';
const limitError = (field: string, n: number) => ({
  errors: [`The domain's billing limit ${field} (${n}) is reached: no more users of this type can be added`],
});

/**
 * BillingLimits cap a domain's users by type: standard_users, power_users, browse_users (both browse types).
 * Active members and pending invitations hold seats; going over is a 400 naming the limit, and changes nothing.
 */
describe('billing limits cap users by type', () => {
  let t: TestApp;
  const email = () => `seat-${randomUUID().slice(0, 8)}@example.com`;
  const members = (domainId: string) =>
    t.ds.query('SELECT count(*)::int AS n FROM user_system_domains WHERE system_domain_id = $1', [domainId]);

  /** A domain with limits and an administrator (a STANDARD user: holds one standard seat). */
  async function tenant(limits: BillingLimits) {
    const domain = await createDomain(t, { billing_limits: limits });
    const admin = await createUser(t, {
      domainId: domain.id,
      isAdmin: true,
      roles: ['can_read_users', 'can_write_users', 'can_delete_users'],
    });
    return { domain, admin, h: bearer((await tokenFor(t, admin)).token) };
  }
  const create = (h: Record<string, string>, type: string, extra: Record<string, unknown> = {}) =>
    t.http
      .post(USERS)
      .set(h)
      .send({ email: email(), type, ...extra });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creating a user beyond a type’s limit is a 400 naming the limit, and creates nothing', async () => {
    const { domain, h } = await tenant({ standard_users: 2, browse_users: 1, power_users: null });
    await create(h, 'STANDARD').expect(201);
    const before = await members(domain.id);
    const refused = create(h, 'STANDARD');
    expect((await refused.expect(400)).body).toEqual(limitError('standard_users', 2));
    expect(await members(domain.id)).toEqual(before);
    // power_users is null: not capped; browse types share browse_users
    await create(h, 'POWER').expect(201);
    await create(h, 'POWER').expect(201);
    await create(h, 'BROWSE_ONLY').expect(201);
    expect((await create(h, 'BROWSE_API_ONLY').expect(400)).body).toEqual(limitError('browse_users', 1));
    // an INACTIVE user holds no seat
    await create(h, 'STANDARD', { status: 'INACTIVE' }).expect(201);
  });

  it('a limit of 0 refuses every user of that type; a domain without limits is not capped', async () => {
    const { h } = await tenant({ power_users: 0 });
    expect((await create(h, 'POWER').expect(400)).body).toEqual(limitError('power_users', 0));
    await create(h, 'STANDARD').expect(201);
    const free = await tenant({});
    for (let i = 0; i < 3; i++) await create(free.h, 'POWER').expect(201);
  });

  it('changing a user’s type or reactivating them needs a free seat', async () => {
    const { h } = await tenant({ standard_users: 1 });
    const power = await create(h, 'POWER').expect(201);
    expect(
      (await t.http.patch(`${USERS}${power.body.id}/`).set(h).send({ type: 'STANDARD' }).expect(400)).body,
    ).toEqual(limitError('standard_users', 1));
    const idle = await create(h, 'STANDARD', { status: 'INACTIVE' }).expect(201);
    await t.http.patch(`${USERS}${idle.body.id}/`).set(h).send({ status: 'ACTIVE' }).expect(400);
    expect(await t.ds.getRepository(UserEntity).findOneByOrFail({ id: power.body.id })).toMatchObject({
      type: 'POWER',
    });
    // renaming a user is not taking a seat
    await t.http.patch(`${USERS}${power.body.id}/`).set(h).send({ first_name: 'Renamed' }).expect(200);
  });

  it('a pending invitation holds its seat; accepting it never fails on the limit', async () => {
    const { domain, h } = await tenant({ standard_users: 2 });
    const invitee = email();
    const invited = await t.http.post(INVITE).set(h).send({ email: invitee }).expect(201);
    expect(invited.body.type).toBe('STANDARD');
    // the seat is taken by the invitation: neither another invitation nor a new user fits
    expect((await t.http.post(INVITE).set(h).send({ email: email() }).expect(400)).body).toEqual(
      limitError('standard_users', 2),
    );
    await create(h, 'STANDARD').expect(400);
    // re-inviting the same email replaces the pending invitation, it does not take a second seat
    await t.http.post(INVITE).set(h).send({ email: invitee }).expect(201);
    const secret = await mailedSecret(t, invitee, 'invitation');
    const accepted = await t.http
      .put(`/API/auth/v1/invitation/complete/${secret}/`)
      .send({ password: 'a-long-unusual-passphrase-9', repeat_password: 'a-long-unusual-passphrase-9' })
      .expect(200);
    expect(await t.ds.getRepository(UserEntity).findOneByOrFail({ id: accepted.body.user_id })).toMatchObject(
      {
        type: 'STANDARD',
      },
    );
    expect(await members(domain.id)).toEqual([{ n: 2 }]);
    await create(h, 'STANDARD').expect(400);
    // an invitation of another type takes a seat of its type
    const browse = await t.http.post(INVITE).set(h).send({ email: email(), type: 'BROWSE_ONLY' }).expect(201);
    expect(browse.body.type).toBe('BROWSE_ONLY');
  });

  it('an invitation with an unknown type is a 400', async () => {
    const { h } = await tenant({});
    const res = await t.http.post(INVITE).set(h).send({ email: email(), type: 'ADMIN' }).expect(400);
    expect(res.body.errors).toHaveProperty('type');
  });

  it('two requests racing for the last seat: exactly one gets it', async () => {
    const { domain, h } = await tenant({ standard_users: 2 });
    const results = await Promise.all([create(h, 'STANDARD'), create(h, 'STANDARD'), create(h, 'STANDARD')]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    const [{ n }] = (await t.ds.query(
      `SELECT count(*)::int AS n FROM user_system_domains m JOIN users u ON u.id = m.user_id
       WHERE m.system_domain_id = $1 AND u.type = 'STANDARD' AND u.status = 'ACTIVE'`,
      [domain.id],
    )) as { n: number }[];
    expect(n).toBe(2);
    expect(
      (await t.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: domain.id })).billing_limits,
    ).toEqual({ standard_users: 2 });
  });
});
