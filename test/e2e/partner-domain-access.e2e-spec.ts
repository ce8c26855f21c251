import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const ACCESS = '/API/users/v1/users/partner_domain_access/';

/** A customer domain lets a partner domain's administrators administer it, until it revokes that. */
describe('partner domain access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function world() {
    const customer = await createDomain(t, { billing_limits: { standard_users: 1 } as never });
    const partner = await createDomain(t, { type: 'PARTNER' });
    const customerAdmin = await createUser(t, { domainId: customer.id, isAdmin: true });
    const partnerAdmin = await createUser(t, { domainId: partner.id, isAdmin: true });
    const partnerStaff = await createUser(t, { domainId: partner.id, roles: ['can_read_users'] });
    const ch = bearer((await tokenFor(t, customerAdmin)).token);
    return { customer, partner, customerAdmin, partnerAdmin, partnerStaff, ch };
  }
  const membership = (userId: string, domainId: string) =>
    t.ds.query('SELECT is_admin FROM user_system_domains WHERE user_id = $1 AND system_domain_id = $2', [
      userId,
      domainId,
    ]) as Promise<{ is_admin: boolean }[]>;

  it('makes the partner’s administrators administrators of the customer domain (no seat) until revoked', async () => {
    const w = await world();
    const body = { customer_domain_id: w.customer.id, partner_domain_id: w.partner.id };
    const res = await t.http.post(ACCESS).set(w.ch).send(body).expect(202);
    expect(res.body).toEqual({ ...body, users_added: 1 });
    expect(await membership(w.partnerAdmin.id, w.customer.id)).toEqual([{ is_admin: true }]);
    expect(await membership(w.partnerStaff.id, w.customer.id)).toEqual([]);
    // the partner administrator acts in the customer domain with its token for it
    const ph = bearer((await tokenFor(t, w.partnerAdmin, { domainId: w.customer.id })).token);
    await t.http.get('/API/users/v1/users/').set(ph).expect(200);
    await t.http.post(ACCESS).set(w.ch).send(body).expect(202); // idempotent
    expect((await t.http.post(ACCESS).set(w.ch).send(body)).body.users_added).toBe(0);

    await t.http.delete(ACCESS).set(w.ch).send(body).expect(204);
    expect(await membership(w.partnerAdmin.id, w.customer.id)).toEqual([]);
    await t.http.get('/API/users/v1/users/').set(ph).expect(401);
    await t.http.delete(ACCESS).set(w.ch).send(body).expect(404);
    // the partner administrator's own domain is untouched
    expect(await membership(w.partnerAdmin.id, w.partner.id)).toEqual([{ is_admin: true }]);
  });

  it('holds no seat of the customer domain', async () => {
    const w = await world();
    await t.http
      .post(ACCESS)
      .set(w.ch)
      .send({ customer_domain_id: w.customer.id, partner_domain_id: w.partner.id })
      .expect(202);
    const [{ n }] = await t.ds.query(
      `SELECT count(*)::int AS n FROM user_system_domains WHERE system_domain_id = $1 AND via_partner_domain_id IS NULL`,
      [w.customer.id],
    );
    expect(n).toBe(1);
    // the one standard seat is the customer administrator's: the limit still refuses a new user
    await t.http.post('/API/users/v1/users/').set(w.ch).send({ email: 'seat-x@example.com' }).expect(400);
  });

  it('only the customer domain’s administrator, for a live PARTNER domain', async () => {
    // the rules (a partner cannot let itself in; the partner must be a PARTNER domain, not the customer, and
    // exist) are PartnerAccessService's: partner-access.service.spec.ts. Here the guard and the live-domain SQL.
    const w = await world();
    const body = { customer_domain_id: w.customer.id, partner_domain_id: w.partner.id };
    // a non-administrator of the customer domain
    const writer = await createUser(t, { domainId: w.customer.id, roles: ['can_write_users'] });
    await t.http
      .post(ACCESS)
      .set(bearer((await tokenFor(t, writer)).token))
      .send(body)
      .expect(403);
    await t.http.post(ACCESS).send(body).expect(401);
    // a deactivated partner domain is no partner
    const gone = await createDomain(t, { type: 'PARTNER', status: 'DEACTIVATED' });
    await t.http
      .post(ACCESS)
      .set(w.ch)
      .send({ ...body, partner_domain_id: gone.id })
      .expect(404);
    // the literal path is never a user id
    const bad = await t.http.delete(ACCESS).set(w.ch).send({}).expect(400);
    expect(JSON.stringify(bad.body)).not.toContain('User not found');
    await t.http.get(ACCESS).set(w.ch).expect(404);
  });
});
