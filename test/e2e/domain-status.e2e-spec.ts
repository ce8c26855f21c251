import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/base/common/clock.js';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { SignInAuthority } from '../../src/sign-in/login/sign-in-authority.js';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { DEFAULT_WARNING_MESSAGE, FROZEN_MESSAGE } from '../../src/base/model/domain-status.js';
import { DomainScheduleWorker } from '../../src/accounts/system-domains/domain-schedule.worker.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret } from '../utils/mail.js';

const TOKEN = '/API/auth/v1/auth/token/';
const LOGIN = '/API/auth/v1/auth/simple/login/';
const GROUPS = '/API/users/v1/groups/';
const FROZEN_ERROR = { errors: ['System domain is frozen: it is read-only until it is reactivated'] };

/**
 * What a domain's status means, on the very next request: WARNING works and says so on every Token, FROZEN is
 * read-only but sign-in and sign-out work, DEACTIVATED refuses sign-in and every existing token. Passed
 * freeze/deactivate dates take effect without anyone acting.
 */
describe('system domain status semantics', () => {
  let t: TestApp;
  const set = (id: string, fields: Partial<SystemDomainEntity>) =>
    t.ds.getRepository(SystemDomainEntity).update({ id }, fields);
  const groupCount = (domainId: string) =>
    t.ds.getRepository(GroupEntity).countBy({ system_domain_id: domainId });

  /** A domain with an administrator who can write groups, signed in. */
  async function tenant(fields: Partial<SystemDomainEntity> = {}) {
    const domain = await createDomain(t, fields);
    const user = await createUser(t, {
      domainId: domain.id,
      isAdmin: true,
      roles: ['can_read_groups', 'can_write_groups'],
    });
    // long-lived, so tests that move the clock by days see the domain's status, not the token's expiry
    const h = bearer((await tokenFor(t, user, { expiresInSeconds: 30 * 86_400 })).token);
    return { domain, user, h };
  }
  const signIn = (user: UserEntity) =>
    t.http.post(LOGIN).send({ email: user.email, password: DEFAULT_PASSWORD });
  const newGroup = (h: Record<string, string>) =>
    t.http
      .post(GROUPS)
      .set(h)
      .send({ name: `g-${randomUUID().slice(0, 8)}`, roles: [] });

  beforeAll(async () => {
    // the job runs on demand here (runOnce), not on its own timer in the middle of a test
    t = await createTestApp({ DOMAIN_SCHEDULE_INTERVAL_MS: '3600000' });
  });
  afterAll(() => t.close());
  afterEach(() => t.get(Clock).reset());

  describe('ACTIVE', () => {
    it('carries no warning message, even one left over from an earlier warning', async () => {
      const { h } = await tenant({ warning_message: 'old news' });
      const res = await t.http.get(TOKEN).set(h).expect(200);
      expect(res.body).toMatchObject({ system_domain_status: 'ACTIVE', system_domain_warning_message: null });
    });
  });

  describe('WARNING', () => {
    it('works normally and every Token answer carries the warning message', async () => {
      const { domain, user, h } = await tenant();
      await set(domain.id, { status: 'WARNING', warning_message: 'Your invoice is overdue' });
      const validated = await t.http.get(TOKEN).set(h).expect(200);
      expect(validated.body).toMatchObject({
        system_domain_status: 'WARNING',
        system_domain_warning_message: 'Your invoice is overdue',
      });
      const signedIn = await signIn(user).expect(201);
      expect(signedIn.body).toMatchObject({
        system_domain_status: 'WARNING',
        system_domain_warning_message: 'Your invoice is overdue',
      });
      const renewed = await t.http.post(TOKEN).set(h).expect(201);
      expect(renewed.body.system_domain_warning_message).toBe('Your invoice is overdue');
      await newGroup(h).expect(201);
    });

    it('says something even when the operator wrote no message', async () => {
      const { domain, h } = await tenant();
      await set(domain.id, { status: 'WARNING', warning_message: null });
      const res = await t.http.get(TOKEN).set(h).expect(200);
      expect(res.body.system_domain_warning_message).toBe(DEFAULT_WARNING_MESSAGE);
    });
  });

  describe('FROZEN', () => {
    it('refuses any write with a 403 that says why, and changes nothing', async () => {
      const { domain, h } = await tenant();
      const group = await newGroup(h).expect(201);
      await set(domain.id, { status: 'FROZEN' });
      const before = await groupCount(domain.id);
      expect((await newGroup(h).expect(403)).body).toEqual(FROZEN_ERROR);
      expect(
        (await t.http.patch(`${GROUPS}${group.body.id}/`).set(h).send({ name: 'renamed' }).expect(403)).body,
      ).toEqual(FROZEN_ERROR);
      expect((await t.http.delete(`${GROUPS}${group.body.id}/`).set(h).expect(403)).body).toEqual(
        FROZEN_ERROR,
      );
      expect(await groupCount(domain.id)).toBe(before);
    });

    it('still reads, signs in, renews and signs out', async () => {
      const { domain, user, h } = await tenant();
      await set(domain.id, { status: 'FROZEN' });
      await t.http.get(GROUPS).set(h).expect(200);
      const signedIn = await signIn(user).expect(201);
      expect(signedIn.body).toMatchObject({
        system_domain_status: 'FROZEN',
        system_domain_warning_message: FROZEN_MESSAGE,
      });
      const fresh = bearer(signedIn.body.token as string);
      await t.http.get(TOKEN).set(fresh).expect(200);
      const renewed = await t.http.put(TOKEN).set(fresh).expect(200);
      await t.http
        .delete(TOKEN)
        .set(bearer(renewed.body.token as string))
        .expect(200);
      await t.http
        .get(TOKEN)
        .set(bearer(renewed.body.token as string))
        .expect(401);
    });

    it('lets a super administrator working from the frozen domain write (to thaw it)', async () => {
      const domain = await createDomain(t);
      const boss = await createUser(t, { domainId: domain.id, isSuperAdmin: true });
      await set(domain.id, { status: 'FROZEN' });
      await newGroup(bearer((await tokenFor(t, boss)).token)).expect(201);
    });

    it('refuses completing an invitation into it: 403 in the guard’s words, nothing joins', async () => {
      const { domain } = await tenant();
      const adminH = bearer(
        (
          await tokenFor(
            t,
            await createUser(t, { domainId: domain.id, isAdmin: true, roles: ['can_write_users'] }),
          )
        ).token,
      );
      const newcomer = `frozen-${randomUUID().slice(0, 8)}@example.com`;
      const existing = await createUser(t, { domainId: (await createDomain(t)).id });
      for (const address of [newcomer, existing.email]) {
        await t.http.post('/API/users/v1/users/invite/').set(adminH).send({ email: address }).expect(201);
      }
      await set(domain.id, { status: 'FROZEN' });
      for (const [address, password] of [
        [newcomer, 'a-good-password-1'],
        [existing.email, DEFAULT_PASSWORD],
      ]) {
        const secret = await mailedSecret(t, address, 'invitation');
        const res = await t.http
          .put(`/API/auth/v1/invitation/complete/${secret}/`)
          .send({ password, repeat_password: password })
          .expect(403);
        expect(res.body).toEqual(FROZEN_ERROR);
      }
      expect(await t.ds.getRepository(UserEntity).existsBy({ email: newcomer })).toBe(false);
      expect(
        await t.ds
          .getRepository(UserSystemDomainEntity)
          .existsBy({ user_id: existing.id, system_domain_id: domain.id }),
      ).toBe(false);
    });

    it('an operator-written message replaces the default', async () => {
      const { domain, h } = await tenant();
      await set(domain.id, { status: 'FROZEN', warning_message: 'Frozen for non-payment' });
      expect((await t.http.get(TOKEN).set(h).expect(200)).body.system_domain_warning_message).toBe(
        'Frozen for non-payment',
      );
    });
  });

  describe('DEACTIVATED', () => {
    it('a token stops working the moment its domain is deactivated', async () => {
      const { domain, h } = await tenant();
      await t.http.get(TOKEN).set(h).expect(200);
      await set(domain.id, { status: 'DEACTIVATED' });
      expect((await t.http.get(TOKEN).set(h).expect(401)).body).toEqual({
        errors: ['System domain is deactivated'],
      });
      await t.http.get(GROUPS).set(h).expect(401);
    });

    it('refuses sign-in; a person with another domain signs in to that one only', async () => {
      const { domain, user } = await tenant();
      const other = await createDomain(t);
      const both = await createUser(t, { domainId: domain.id, alsoIn: [other.id] });
      await set(domain.id, { status: 'DEACTIVATED' });
      await signIn(user).expect(401);
      const res = await signIn(both).expect(201);
      expect(
        res.body.auth_system_domains.map((d: { system_domain_id: string }) => d.system_domain_id),
      ).toEqual([other.id]);
      expect(res.body.system_domains).toEqual([other.id]);
    });
  });

  it('no sign-in flow gets a login token for a deactivated domain', async () => {
    const { domain, user } = await tenant();
    await set(domain.id, { status: 'DEACTIVATED' });
    await expect(
      t
        .get(SignInAuthority)
        .serviceSession(t.ds.manager, { userId: user.id, domainId: domain.id }, { method: 'password' }),
    ).rejects.toMatchObject({
      status: 401,
      errors: ['System domain is deactivated'],
    });
    await set(domain.id, { status: 'ACTIVE', deactivate_date: new Date(Date.now() - 1000) });
    await expect(
      t
        .get(SignInAuthority)
        .serviceSession(t.ds.manager, { userId: user.id, domainId: domain.id }, { method: 'password' }),
    ).rejects.toMatchObject({
      status: 401,
    });
  });

  describe('freeze_date and deactivate_date', () => {
    it('a passed freeze_date makes the domain read-only at once, before the job runs', async () => {
      const { domain, h } = await tenant();
      await set(domain.id, { freeze_date: new Date(Date.now() + 10 * 60_000) });
      await newGroup(h).expect(201);
      t.get(Clock).advance(20 * 60_000);
      expect((await newGroup(h).expect(403)).body).toEqual(FROZEN_ERROR);
      expect((await t.http.get(TOKEN).set(h).expect(200)).body.system_domain_status).toBe('FROZEN');
    });

    it('a passed deactivate_date refuses tokens and sign-in at once', async () => {
      const { domain, user, h } = await tenant();
      await set(domain.id, { deactivate_date: new Date(Date.now() - 1000) });
      await t.http.get(TOKEN).set(h).expect(401);
      await signIn(user).expect(401);
    });

    it('the job records the change once, clears the date it carried out and announces it', async () => {
      const { domain, h } = await tenant();
      await t.http
        .post('/API/notifications/v1/webhooks/')
        .set(h)
        .send({ url: 'http://127.0.0.1:9/hook', event_type: 'system_domains', status: 'ENABLED' })
        .expect(201);
      const later = new Date(Date.now() + 7 * 86_400_000);
      await set(domain.id, { freeze_date: new Date(Date.now() - 1000), deactivate_date: later });
      const worker = t.get(DomainScheduleWorker);
      // several instances' jobs at once: the row is carried out exactly once
      const changed = await Promise.all([worker.runOnce(), worker.runOnce(), worker.runOnce()]);
      expect(changed.flat().filter((id) => id === domain.id)).toHaveLength(1);
      const after = await t.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: domain.id });
      expect(after).toMatchObject({ status: 'FROZEN', freeze_date: null });
      expect(new Date(after.deactivate_date!).getTime()).toBe(later.getTime());
      const events = (await t.ds.query(
        `SELECT data FROM webhook_events WHERE system_domain_id = $1 AND event_type = 'system_domains'`,
        [domain.id],
      )) as { data: Record<string, unknown> }[];
      expect(events.map((e) => e.data)).toEqual([
        { id: domain.id, status: 'FROZEN', previous_status: 'ACTIVE', reason: 'scheduled' },
      ]);
      expect(await worker.runOnce()).not.toContain(domain.id);

      // an operator who reactivates the domain is not overruled by the date already carried out
      await set(domain.id, { status: 'ACTIVE' });
      expect(await worker.runOnce()).not.toContain(domain.id);
      await newGroup(h).expect(201);

      // the deactivation date passes: carried out, and it wins over any freeze
      t.get(Clock).advance(8 * 86_400_000);
      expect((await t.http.get(TOKEN).set(h).expect(401)).body).toEqual({
        errors: ['System domain is deactivated'],
      });
      await worker.runOnce();
      expect(await t.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: domain.id })).toMatchObject({
        status: 'DEACTIVATED',
        deactivate_date: null,
      });
    });
  });
});
