import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/base/common/clock.js';
import { sha256Hex } from '../../src/base/common/crypto/secrets.js';
import { InvitationEntity } from '../../src/base/model/invitation.entity.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { INVITATION_TTL_MS } from '../../src/sign-in/invitations/invitations.service.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, login, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret } from '../utils/mail.js';

const USERS = '/API/users/v1/users';
const LINK = '/API/auth/v1/invitation';

/**
 * Invitations are pending until the invited person accepts them through the mailed link. Until then the
 * inviting domain sees nothing of any account the email may have, and reserves nothing outside itself.
 */
describe('invitations', () => {
  let t: TestApp;
  let inviter: UserEntity;
  let h: Record<string, string>;
  const as = async (user: UserEntity, domainId?: string) =>
    bearer((await tokenFor(t, user, { domainId })).token);
  const email = (prefix = 'invitee') => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
  const memberships = (userId: string) =>
    t.ds.getRepository(UserSystemDomainEntity).countBy({ user_id: userId });
  /** When the account last proved its address (OpenID Connect email_verified). */
  const verifiedAt = async (userId: string) =>
    (await t.ds.getRepository(UserEntity).findOneByOrFail({ id: userId })).email_verified_at;
  const invite = async (address: string, headers = h, extra: Record<string, unknown> = {}) =>
    t.http
      .post(`${USERS}/invite/`)
      .set(headers)
      .send({ email: address, ...extra })
      .expect(201);

  beforeAll(async () => {
    t = await createTestApp();
    inviter = await createUser(t, { roles: ['can_write_users', 'can_read_users'] });
    h = await as(inviter);
  });
  afterAll(() => t.close());
  afterEach(() => {
    jest.restoreAllMocks();
    t.get(Clock).reset();
  });

  describe('POST /API/users/v1/users/invite/', () => {
    it('keeps only an email and a hash, creates no account and mails the link', async () => {
      const logged: string[] = [];
      for (const level of ['log', 'warn', 'error', 'debug', 'verbose'] as const) {
        jest.spyOn(Logger.prototype, level).mockImplementation((m: unknown) => {
          logged.push(String(m));
        });
      }
      const address = email();
      const res = await invite(address, h, { first_name: 'New', last_name: 'Comer' });
      expect(res.body).toEqual({
        id: expect.any(String),
        system_domain_id: t.domainId,
        email: address,
        type: 'STANDARD',
        is_existing_user_invitation: false,
        is_initial_user_invitation: false,
        expires: expect.any(String),
        date_created: expect.any(String),
      });
      expect(await t.ds.getRepository(UserEntity).existsBy({ email: address })).toBe(false);
      const secret = await mailedSecret(t, address, 'invitation');
      const invitation = await t.ds
        .getRepository(InvitationEntity)
        .createQueryBuilder('i')
        .addSelect('i.reset_hash_sha256')
        .where('i.id = :id', { id: res.body.id })
        .getOneOrFail();
      expect(invitation).toMatchObject({
        system_domain_id: t.domainId,
        email: address,
        first_name: 'New',
        user_id: null,
        inviter_user_id: inviter.id,
        reset_hash_sha256: sha256Hex(secret),
        accepted_at: null,
      });
      const days = (new Date(invitation.expires).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.99);
      expect(days).toBeLessThanOrEqual(7);
      const raw = await t.ds.query('SELECT * FROM invitations WHERE id = $1', [res.body.id]);
      expect(JSON.stringify(raw)).not.toContain(secret);
      expect(logged).toContain(`invitation mail queued for ${address}`);
      expect(logged.join('\n')).not.toContain(secret);
    });

    it('does not join, reveal or expose an account of another domain before it accepts', async () => {
      const elsewhere = await createDomain(t);
      const existing = await createUser(t, { domainId: elsewhere.id });
      const unknown = email();
      const a = await invite(existing.email.toUpperCase());
      const b = await invite(unknown);
      // the same answer whether or not the email has an account anywhere
      const shape = (body: Record<string, unknown>) => ({
        ...body,
        id: 0,
        email: 0,
        expires: 0,
        date_created: 0,
      });
      expect(shape(a.body)).toEqual(shape(b.body));
      expect(a.body).not.toHaveProperty('user_id');
      expect(a.body.is_existing_user_invitation).toBe(false);
      // nothing changed for the account: one membership, and this domain cannot see or touch it
      expect(await memberships(existing.id)).toBe(1);
      const admin = await as(await createUser(t, { isAdmin: true }));
      await t.http.get(`${USERS}/${existing.id}/`).set(admin).expect(404);
      await t.http.patch(`${USERS}/${existing.id}/`).set(admin).send({ first_name: 'Renamed' }).expect(404);
      const list = await t.http
        .get(`${USERS}/?query=${encodeURIComponent(existing.email)}`)
        .set(admin)
        .expect(200);
      expect(list.body.total).toBe(0);
      expect((await t.ds.getRepository(UserEntity).findOneByOrFail({ id: existing.id })).first_name).toBe(
        'Test',
      );
    });

    it('reserves nothing outside the domain: another domain may create the invited email', async () => {
      const address = email();
      await invite(address);
      const other = await createDomain(t);
      const otherAdmin = await createUser(t, { domainId: other.id, isAdmin: true });
      await t.http
        .post(`${USERS}/`)
        .set(await as(otherAdmin))
        .send({ email: address, password: 'a-good-password-1' })
        .expect(201);
    });

    it('a new invitation replaces the pending one: the old link stops working', async () => {
      const address = email();
      await invite(address);
      const first = await mailedSecret(t, address, 'invitation');
      await invite(address);
      const second = await mailedSecret(t, address, 'invitation');
      expect(second).not.toBe(first);
      await t.http.get(`${LINK}/${first}/`).expect(404);
      await t.http.get(`${LINK}/${second}/`).expect(200);
      expect(
        await t.ds.getRepository(InvitationEntity).countBy({ email: address, system_domain_id: t.domainId }),
      ).toBe(1);
    });

    it('leaves one pending invitation when the same email is invited several times at once', async () => {
      const address = email('racer');
      const results = await Promise.all(
        Array.from({ length: 5 }, () => t.http.post(`${USERS}/invite/`).set(h).send({ email: address })),
      );
      expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
      expect(results.some((r) => r.status === 201)).toBe(true);
      expect(
        await t.ds.getRepository(InvitationEntity).countBy({ email: address, system_domain_id: t.domainId }),
      ).toBe(1);
    });

    it('answers 409 for a member of the domain, validates the body and needs can_write_users', async () => {
      const member = await createUser(t);
      const res = await t.http.post(`${USERS}/invite/`).set(h).send({ email: member.email }).expect(409);
      expect(res.body).toEqual({ errors: ['This user is already a member of this domain'] });
      expect(await t.ds.getRepository(InvitationEntity).countBy({ email: member.email })).toBe(0);
      expect((await t.http.post(`${USERS}/invite/`).set(h).send({ email: 'nope' }).expect(400)).body).toEqual(
        {
          errors: { email: 'must be a valid email address' },
        },
      );
      const reader = await createUser(t, { roles: ['can_read_users'] });
      const refused = await t.http
        .post(`${USERS}/invite/`)
        .set(await as(reader))
        .send({ email: email() })
        .expect(403);
      expect(refused.body).toEqual({ errors: ['Missing role: can_write_users'] });
      await t.http.post(`${USERS}/invite/`).send({ email: email() }).expect(401);
    });
  });

  describe('pending invitations: list and withdraw', () => {
    it('lists the domain’s pending invitations and withdraws one; its link stops working', async () => {
      const address = email();
      const res = await invite(address);
      const secret = await mailedSecret(t, address, 'invitation');
      const list = await t.http.get(`${USERS}/invitations/?per_page=1000`).set(h).expect(200);
      expect(list.body.objects.map((i: { id: string }) => i.id)).toContain(res.body.id);
      // another domain's administrator does not see or withdraw it
      const other = await createDomain(t);
      const stranger = await as(await createUser(t, { domainId: other.id, isAdmin: true }));
      const theirs = await t.http.get(`${USERS}/invitations/`).set(stranger).expect(200);
      expect(theirs.body.total).toBe(0);
      await t.http.delete(`${USERS}/invitations/${res.body.id}/`).set(stranger).expect(404);
      await t.http.delete(`${USERS}/invitations/${res.body.id}/`).set(h).expect(204);
      await t.http.delete(`${USERS}/invitations/${res.body.id}/`).set(h).expect(404);
      await t.http.get(`${LINK}/${secret}/`).expect(404);
    });
  });

  describe('accepting through the link', () => {
    it('creates the account, signs it in to the domain, and works once (419 after)', async () => {
      const address = email();
      await invite(address, h, { first_name: 'New' });
      const secret = await mailedSecret(t, address, 'invitation');
      const seen = await t.http.get(`${LINK}/${secret}/`).expect(200);
      expect(seen.body).toEqual({
        inviter_email: inviter.email,
        local_user_exists: false,
        new_user_email: address,
        new_user_first_name: 'New',
        system_domain_id: t.domainId,
      });
      const mismatch = await t.http
        .put(`${LINK}/complete/${secret}/`)
        .send({ password: 'a-good-password-1', repeat_password: 'another-password-1' })
        .expect(400);
      expect(mismatch.body).toEqual({ errors: { repeat_password: 'must be the same as password' } });
      await t.http
        .put(`${LINK}/complete/${secret}/`)
        .send({ password: 'short', repeat_password: 'short' })
        .expect(400);
      expect(await t.ds.getRepository(UserEntity).existsBy({ email: address })).toBe(false);

      const done = await t.http
        .put(`${LINK}/complete/${secret}`)
        .send({ password: 'a-good-password-1', repeat_password: 'a-good-password-1', last_name: 'Comer' })
        .expect(200);
      expect(done.body).toEqual({
        auto_login: true,
        domain_status: 'ACTIVE',
        login_data: { app_id: expect.any(String), token: expect.any(String) },
        user_id: expect.any(String),
      });
      // the mailed link proved the address: a new account starts verified
      expect(await verifiedAt(done.body.user_id)).toBeInstanceOf(Date);
      const me = await t.http.get(`${USERS}/current/`).set(bearer(done.body.login_data.token)).expect(200);
      expect(me.body).toMatchObject({
        email: address,
        first_name: 'New',
        last_name: 'Comer',
        system_domain_id: t.domainId,
      });
      await login(t, address, 'a-good-password-1');
      // once only
      const again = await t.http
        .put(`${LINK}/complete/${secret}/`)
        .send({ password: 'a-good-password-1', repeat_password: 'a-good-password-1' })
        .expect(419);
      expect(again.body).toEqual({ errors: ['Invitation expired or already used'] });
      await t.http.get(`${LINK}/${secret}/`).expect(419);
    });

    it('joins an existing account only with its own password, which stays as it was', async () => {
      const other = await createDomain(t);
      const existing = await createUser(t, { domainId: other.id });
      await invite(existing.email);
      const secret = await mailedSecret(t, existing.email, 'invitation');
      expect(await verifiedAt(existing.id)).toBeNull(); // made by an administrator: never proved
      expect((await t.http.get(`${LINK}/${secret}/`).expect(200)).body.local_user_exists).toBe(true);
      const wrong = await t.http
        .put(`${LINK}/complete/${secret}/`)
        .send({ password: 'not-the-password', repeat_password: 'not-the-password' })
        .expect(400);
      expect(wrong.body).toEqual({
        errors: { password: 'is not the password of the existing account for this email' },
      });
      // a refused attempt changes nothing and leaves the invitation usable
      expect(await memberships(existing.id)).toBe(1);
      expect(await verifiedAt(existing.id)).toBeNull();
      const done = await t.http
        .put(`${LINK}/complete/${secret}/`)
        .send({ password: DEFAULT_PASSWORD, repeat_password: DEFAULT_PASSWORD })
        .expect(200);
      expect(done.body.user_id).toBe(existing.id);
      expect(await memberships(existing.id)).toBe(2);
      const proved = await verifiedAt(existing.id);
      expect(proved).toBeInstanceOf(Date);
      expect(Math.abs(proved!.getTime() - Date.now())).toBeLessThan(60_000); // the database's now()
      await t.http.get('/API/auth/v1/auth/token/').set(bearer(done.body.login_data.token)).expect(200);
      await login(t, existing.email, DEFAULT_PASSWORD);
      const after = await t.ds.getRepository(UserEntity).findOneByOrFail({ id: existing.id });
      expect(after.system_domain_id).toBe(other.id);
      // from now on a member of two domains: this domain's administrators cannot rename the account
      const admin = await as(await createUser(t, { isAdmin: true }));
      await t.http.patch(`${USERS}/${existing.id}/`).set(admin).send({ first_name: 'Renamed' }).expect(403);
    });

    it('an expired link proves nothing', async () => {
      const other = await createDomain(t);
      const existing = await createUser(t, { domainId: other.id });
      await invite(existing.email);
      const secret = await mailedSecret(t, existing.email, 'invitation');
      t.get(Clock).advance(INVITATION_TTL_MS + 1000);
      await t.http
        .put(`${LINK}/complete/${secret}/`)
        .send({ password: DEFAULT_PASSWORD, repeat_password: DEFAULT_PASSWORD })
        .expect(419);
      expect(await verifiedAt(existing.id)).toBeNull();
      expect(await memberships(existing.id)).toBe(1);
    });

    it('two acceptances of one link at once: one account, one success', async () => {
      const address = email();
      await invite(address);
      const secret = await mailedSecret(t, address, 'invitation');
      const body = { password: 'a-good-password-1', repeat_password: 'a-good-password-1' };
      const results = await Promise.all(
        Array.from({ length: 4 }, () => t.http.put(`${LINK}/complete/${secret}/`).send(body)),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 419, 419, 419]);
      expect(await t.ds.getRepository(UserEntity).countBy({ email: address })).toBe(1);
    });
  });
});
