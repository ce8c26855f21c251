import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { AuditRetentionWorker } from '../../src/delivery/audit/audit-retention.worker.js';
import { Clock } from '../../src/base/common/clock.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { AuditService } from '../../src/delivery/audit/audit.service.js';
import { OUTSIDE_REQUEST } from '../../src/delivery/audit/audit-origin.js';
import { createApp, createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { IDP_ENTITY_ID, IDP_SSO_URL, makeIdpKeys } from '../utils/saml-idp.js';

const AUDIT = '/API/audit/v1/events/';
const LOGIN = '/API/auth/v1/auth/simple/login/';
const NEW_PASSWORD = 'amber-lantern-quiet-77';

interface Row {
  id: string;
  system_domain_id: string | null;
  actor_user_id: string | null;
  actor_app_id: string | null;
  actor_kind: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: string;
  request_id: string | null;
  client_address: string | null;
  details: Record<string, unknown>;
}

describe('audit trail (every security-relevant change recorded in its transaction; read-only list API)', () => {
  let t: TestApp;
  let domainId: string;
  let admin: UserEntity;
  let h: Record<string, string>;
  /** Every credential and secret value the suite sees: none may appear in any audit record or event. */
  const secrets: string[] = [DEFAULT_PASSWORD, NEW_PASSWORD];

  const rows = async (where = 'true', params: unknown[] = []): Promise<Row[]> =>
    t.ds.query(`SELECT * FROM audit_events WHERE ${where} ORDER BY date_created, id`, params);
  const of = async (action: string, targetId?: string): Promise<Row[]> =>
    targetId ? rows('action = $1 AND target_id = $2', [action, targetId]) : rows('action = $1', [action]);

  beforeAll(async () => {
    t = await createTestApp({ LOCKOUT_THRESHOLD: '3' });
    domainId = (await createDomain(t)).id;
    admin = await createUser(t, { domainId, isAdmin: true });
    const minted = await tokenFor(t, admin);
    secrets.push(minted.token);
    h = bearer(minted.token);
  });
  afterAll(() => t.close());

  describe('sign-in', () => {
    it('success: one record per domain signed in to, actor the person, with request id and address', async () => {
      const user = await createUser(t, { domainId });
      const res = await t.http
        .post(LOGIN)
        .send({ email: user.email, password: DEFAULT_PASSWORD })
        .expect(201);
      secrets.push(res.body.token);
      const [r] = await of('signin.success', user.id);
      expect(r).toMatchObject({
        system_domain_id: domainId,
        actor_user_id: user.id,
        target_type: 'user',
        outcome: 'success',
        request_id: res.headers['x-request-id'],
        client_address: expect.stringMatching(/127\.0\.0\.1|::1/),
      });
    });

    it('wrong password, unknown account, lockout: failures recorded although nothing else changes', async () => {
      const user = await createUser(t, { domainId });
      for (let i = 0; i < 3; i++) {
        await t.http
          .post(LOGIN)
          .send({ email: user.email, password: `wrong-guess-${i}` })
          .expect(401);
        secrets.push(`wrong-guess-${i}`);
      }
      await t.http.post(LOGIN).send({ email: user.email, password: DEFAULT_PASSWORD }).expect(401);
      const failures = await of('signin.failure', user.id);
      expect(failures.map((f) => f.details.reason)).toEqual(['wrong', 'wrong', 'wrong', 'locked']);
      expect(failures.every((f) => f.system_domain_id === domainId && f.outcome === 'failure')).toBe(true);
      const [locked] = await of('signin.locked', user.id);
      expect(locked.details).toMatchObject({ factor: 'password', failures: 3 });
      expect(await of('signin.success', user.id)).toEqual([]);

      const ghost = `nobody-${randomUUID()}@example.test`;
      const res = await t.http.post(LOGIN).send({ email: ghost, password: 'whatever-1' }).expect(401);
      const [unknown] = await rows('request_id = $1', [res.headers['x-request-id']]);
      expect(unknown).toMatchObject({ action: 'signin.failure', system_domain_id: null, target_id: null });
      expect(JSON.stringify(unknown)).not.toContain(ghost);
    });

    it('the right password for an inactive account: refused, and recorded as a failure', async () => {
      const user = await createUser(t, { domainId, status: 'INACTIVE' });
      await t.http.post(LOGIN).send({ email: user.email, password: DEFAULT_PASSWORD }).expect(401);
      const failures = await of('signin.failure', user.id);
      expect(failures.map((f) => [f.system_domain_id, f.details.reason])).toEqual([[domainId, 'inactive']]);
      expect(await of('signin.success', user.id)).toEqual([]);
    });

    it('a sign-in that owes a second factor is recorded as such, and its completion as a success', async () => {
      const clock = t.get(Clock);
      const user = await createUser(t, { domainId });
      const login = bearer((await tokenFor(t, user)).token);
      const started = await t.http.post('/API/users/v1/users/current/totp/configure/').set(login).expect(201);
      const code = (steps = 0) =>
        new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate({
          timestamp: clock.now().getTime() + steps * 30_000,
        });
      secrets.push(started.body.secret);
      const confirmed = await t.http
        .post('/API/users/v1/users/current/totp/validate_configuration/')
        .set(login)
        .send({ otp: code() })
        .expect(200);
      secrets.push(...(confirmed.body.recovery_codes as string[]));
      expect(await of('mfa.enrolled', user.id)).toHaveLength(1);
      await t.ds.query('UPDATE system_domains SET mfa_required = false WHERE id = $1', [domainId]);
      clock.advance(30_000);
      // a user with a factor owes it where their own factors count
      const res = await t.http
        .post(LOGIN)
        .send({ email: user.email, password: DEFAULT_PASSWORD })
        .expect(201);
      if (res.body.temp_token) {
        secrets.push(res.body.temp_token);
        expect(await of('signin.second_factor_owed', user.id)).toHaveLength(1);
      }
      await t.http
        .delete('/API/users/v1/users/current/totp/configure/')
        .set(login)
        .send({ otp: code() })
        .expect(204);
      expect(await of('mfa.removed', user.id)).toHaveLength(1);
    });
  });

  describe('administrative changes', () => {
    it('app created, secret rotated, PAT minted, token revoked', async () => {
      const member = await createUser(t, { domainId });
      const created = await t.http
        .post('/API/auth/v1/apps/')
        .set(h)
        .send({
          name: 'backend',
          type: 'OAUTH',
          oauth_client_type: 'confidential',
          default_user_id: member.id,
        })
        .expect(201);
      secrets.push(created.body.client_secret);
      const appId: string = created.body.id;
      expect(await of('app.created', appId)).toHaveLength(1);
      const rotated = await t.http.post(`/API/auth/v1/apps/${appId}/secret/`).set(h).expect(201);
      secrets.push(rotated.body.client_secret);
      const [rot] = await of('app.secret_rotated', appId);
      expect(rot).toMatchObject({ actor_user_id: admin.id, actor_kind: 'LOGIN', system_domain_id: domainId });

      // a token minted at the OAuth token endpoint: on record with the token request's id and address
      const cc = await t.http
        .post('/API/auth/v1/oauth/token/')
        .type('form')
        .auth(appId, rotated.body.client_secret as string)
        .send({ grant_type: 'client_credentials' })
        .expect(200);
      secrets.push(cc.body.access_token);
      const [ccMinted] = await rows("action = 'token.minted' AND details->>'app_id' = $1", [appId]);
      expect(ccMinted).toMatchObject({
        actor_user_id: member.id,
        actor_app_id: appId,
        actor_kind: 'oauth_client',
        request_id: cc.headers['x-request-id'],
        client_address: expect.stringMatching(/127\.0\.0\.1|::1/),
      });

      const patApp = await createApp(t, { defaultUserId: member.id, domainId });
      const pat = await t.http.post(`/API/auth/v1/apps/${patApp.id}/token/`).set(h).expect(200);
      secrets.push(pat.body.token);
      const [minted] = await rows("action = 'token.minted' AND details->>'app_id' = $1", [patApp.id]);
      expect(minted).toMatchObject({ actor_user_id: admin.id, target_type: 'token', outcome: 'success' });
      expect(minted.details).toMatchObject({ kind: 'PAT', user_id: member.id });

      await t.http.delete(`/API/auth/v1/auth/token/${minted.target_id}/`).set(h).expect(200);
      const [revoked] = await of('token.revoked', minted.target_id!);
      expect(revoked).toMatchObject({ actor_user_id: admin.id, system_domain_id: domainId });
    });

    it('user changed, password set by an administrator, group changed, webhook changed', async () => {
      const user = await createUser(t, { domainId });
      await t.http
        .patch(`/API/users/v1/users/${user.id}/`)
        .set(h)
        .send({ first_name: 'Renamed' })
        .expect(200);
      expect((await of('user.changed', user.id))[0]).toMatchObject({ actor_user_id: admin.id });
      await t.http
        .patch(`/API/users/v1/users/${user.id}/`)
        .set(h)
        .send({ password: NEW_PASSWORD })
        .expect(200);
      expect(await of('password.changed', user.id)).toHaveLength(1);

      const group = await t.http
        .post('/API/users/v1/groups/')
        .set(h)
        .send({ name: `g-${randomUUID().slice(0, 8)}`, roles: ['can_read_users'] })
        .expect(201);
      expect(await of('group.changed', group.body.id)).toHaveLength(1);

      const hook = await t.http
        .post('/API/notifications/v1/webhooks/')
        .set(h)
        .send({ url: 'https://hooks.example.com/x', event_type: 'assets', status: 'ENABLED' })
        .expect(201);
      secrets.push(hook.body.secret);
      expect(await of('webhook.changed', hook.body.id)).toHaveLength(1);
    });

    it('identity-provider settings changed (no setting value in the record)', async () => {
      const keys = await makeIdpKeys();
      const idp = await t.http
        .post('/API/auth/v1/auth/saml/idp/')
        .set(h)
        .send({
          type: 'GENERIC',
          settings: {
            name: 'Acme',
            idp_entity_id: IDP_ENTITY_ID,
            idp_sso_post_url: IDP_SSO_URL,
            idp_x509cert: keys.cert,
          },
        })
        .expect(201);
      await t.http
        .patch(`/API/auth/v1/auth/saml/idp/${idp.body.id}/`)
        .set(h)
        .send({ enabled: false })
        .expect(200);
      const changes = await of('identity_provider.changed', idp.body.id);
      expect(changes.map((c) => c.details.operation)).toEqual(['create', 'update']);
      expect(JSON.stringify(changes)).not.toContain(IDP_ENTITY_ID);
    });

    it('domain changed by a super administrator', async () => {
      const superH = bearer((await tokenFor(t, t.admin)).token);
      await t.http
        .patch(`/API/auth/v1/system_domains/${domainId}/`)
        .set(superH)
        .send({ name: 'Renamed domain' })
        .expect(200);
      const [r] = await of('domain.changed', domainId);
      expect(r).toMatchObject({ actor_user_id: t.admin.id, system_domain_id: t.domainId });
    });

    it('a change that rolls back leaves no record, nor its event (same transaction)', async () => {
      const target = randomUUID();
      await expect(
        t.ds.transaction(async (em) => {
          await t.get(AuditService).record(em, OUTSIDE_REQUEST, {
            systemDomainId: domainId,
            action: 'user.changed',
            targetType: 'user',
            targetId: target,
            outcome: 'success',
          });
          throw new Error('the change fails after its record');
        }),
      ).rejects.toThrow('the change fails');
      expect(await rows('target_id = $1', [target])).toEqual([]);
    });
  });

  describe('each record is a webhook event (event_type audit)', () => {
    it('a webhook on audit receives the record, without secrets', async () => {
      await t.http
        .post('/API/notifications/v1/webhooks/')
        .set(h)
        .send({ url: 'https://hooks.example.com/audit', event_type: 'audit', status: 'ENABLED' })
        .expect(201);
      const user = await createUser(t, { domainId });
      await t.http.patch(`/API/users/v1/users/${user.id}/`).set(h).send({ last_name: 'Audited' }).expect(200);
      const events: { operation: string; data: Record<string, unknown> }[] = await t.ds.query(
        "SELECT operation, data FROM webhook_events WHERE event_type = 'audit' AND data->>'target_id' = $1",
        [user.id],
      );
      expect(events).toEqual([
        expect.objectContaining({
          operation: 'user.changed',
          data: expect.objectContaining({ action: 'user.changed', outcome: 'success' }),
        }),
      ]);
    });

    it('records written together outside a transaction share one statement: each its event, with its id', async () => {
      // a grant's record (client_credentials) is written outside a transaction: concurrent ones are batched
      const audit = t.app.get(AuditService);
      const targets = Array.from({ length: 8 }, () => randomUUID());
      const entry = (targetId: string) => ({
        systemDomainId: domainId,
        action: 'token.minted' as const,
        targetType: 'token',
        targetId,
        outcome: 'success' as const,
        details: { kind: 'OAUTH', password: 'never-stored' },
      });
      // one malformed entry in the same turn: it alone fails, its neighbours are written
      const bad = audit.record(t.ds.manager, OUTSIDE_REQUEST, {
        ...entry('x'),
        systemDomainId: 'not-a-uuid',
      });
      await Promise.all(targets.map((id) => audit.record(t.ds.manager, OUTSIDE_REQUEST, entry(id))));
      await expect(bad).rejects.toThrow();
      const records: { id: string; target_id: string; details: Record<string, unknown> }[] = await t.ds.query(
        'SELECT id, target_id, details FROM audit_events WHERE target_id = ANY($1::text[])',
        [targets],
      );
      expect(records.map((r) => r.target_id).sort()).toEqual([...targets].sort());
      for (const r of records) expect(r.details).toEqual({ kind: 'OAUTH' });
      const events: { id: string; data: { id: string; target_id: string } }[] = await t.ds.query(
        "SELECT id, data FROM webhook_events WHERE event_type = 'audit' AND data->>'target_id' = ANY($1::text[])",
        [targets],
      );
      expect(events.map((e) => [e.data.target_id, e.data.id]).sort()).toEqual(
        records.map((r) => [r.target_id, r.id]).sort(),
      );
      const [{ n }]: { n: number }[] = await t.ds.query(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])',
        [events.map((e) => e.id)],
      );
      expect(n).toBe(targets.length); // one webhook on audit: one delivery each
    });
  });

  describe('no secret in any record or event', () => {
    it('no password, token, client secret, TOTP seed or recovery code appears anywhere', async () => {
      const dump =
        JSON.stringify(await rows()) +
        JSON.stringify(await t.ds.query("SELECT data FROM webhook_events WHERE event_type = 'audit'"));
      expect(dump.length).toBeGreaterThan(1000);
      for (const s of secrets.filter((x) => typeof x === 'string' && x.length >= 6))
        expect(dump).not.toContain(s);
    });
  });

  describe('GET /API/audit/v1/events/', () => {
    let otherAdminH: Record<string, string>;
    let otherDomainId: string;

    beforeAll(async () => {
      otherDomainId = (await createDomain(t)).id;
      const other = await createUser(t, { domainId: otherDomainId, isAdmin: true });
      otherAdminH = bearer((await tokenFor(t, other)).token);
      await t.http
        .post(`/API/users/v1/groups/`)
        .set(otherAdminH)
        .send({ name: 'other-g', roles: [] })
        .expect(201);
    });

    it('a domain administrator lists their domain only (page style, newest first)', async () => {
      const res = await t.http.get(AUDIT).set(h).query({ per_page: 1000 }).expect(200);
      expect(res.body).toMatchObject({ page: 1, per_page: 1000, total: expect.any(Number) });
      expect(res.body.objects.length).toBeGreaterThan(5);
      for (const o of res.body.objects) expect(o.system_domain_id).toBe(domainId);
      const dates = res.body.objects.map((o: { date_created: string }) => o.date_created);
      expect([...dates].sort().reverse()).toEqual(dates);
      const other = await t.http.get(AUDIT).set(otherAdminH).expect(200);
      for (const o of other.body.objects) expect(o.system_domain_id).toBe(otherDomainId);
      expect(other.body.total).toBeGreaterThan(0);
    });

    it('filters by actor, action and time', async () => {
      const byAction = await t.http.get(AUDIT).set(h).query({ action: 'app.secret_rotated' }).expect(200);
      expect(byAction.body.total).toBe(1);
      expect(byAction.body.objects[0]).toMatchObject({
        action: 'app.secret_rotated',
        actor: { user_id: admin.id, kind: 'LOGIN' },
      });
      const byActor = await t.http
        .get(AUDIT)
        .set(h)
        .query({ actor_user_id: admin.id, per_page: 1000 })
        .expect(200);
      for (const o of byActor.body.objects) expect(o.actor.user_id).toBe(admin.id);
      const future = new Date(Date.now() + 3600_000).toISOString();
      expect((await t.http.get(AUDIT).set(h).query({ from: future }).expect(200)).body.total).toBe(0);
      const all = (await t.http.get(AUDIT).set(h).expect(200)).body.total;
      expect((await t.http.get(AUDIT).set(h).query({ to: future }).expect(200)).body.total).toBe(all);
      expect(
        (await t.http.get(AUDIT).set(h).query({ to: '2000-01-01T00:00:00Z' }).expect(200)).body.total,
      ).toBe(0);
    });

    it('members who are not administrators, and anonymous callers, are refused', async () => {
      const member = await createUser(t, { domainId, roles: ['can_read_users'] });
      await t.http
        .get(AUDIT)
        .set(bearer((await tokenFor(t, member)).token))
        .expect(403);
      await t.http.get(AUDIT).expect(401);
    });

    it('records cannot be changed or deleted through the API', async () => {
      const [r] = await rows('system_domain_id = $1', [domainId]);
      for (const method of ['put', 'patch', 'delete', 'post'] as const) {
        const res = await t.http[method](`${AUDIT}${r.id}/`).set(h).send({ action: 'x' });
        expect([404, 405]).toContain(res.status);
        const base = await t.http[method](AUDIT).set(h).send({ action: 'x' });
        expect([404, 405]).toContain(base.status);
      }
      expect((await rows('id = $1', [r.id]))[0]).toEqual(r);
    });

    it('hostile filters → 400 in the error shape, nothing leaks', async () => {
      for (const q of [
        { actor_user_id: "' OR 1=1 --" },
        { action: 'DROP TABLE audit_events' },
        { from: 'yesterday' },
        { per_page: '0' },
        { sort: 'password,asc' },
      ]) {
        const res = await t.http.get(AUDIT).set(h).query(q).expect(400);
        expect(Object.keys(res.body)).toEqual(['errors']);
      }
    });
  });

  describe('retention', () => {
    it('the worker purges records older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
      const old = randomUUID();
      await t.ds.query(
        `INSERT INTO audit_events (id, action, outcome, details, date_created)
         VALUES ($1, 'user.changed', 'success', '{}', now() - interval '400 days')`,
        [old],
      );
      const before = (await rows()).length;
      expect(await t.get(AuditRetentionWorker).runOnce()).toBeGreaterThanOrEqual(1);
      expect(await rows('id = $1', [old])).toEqual([]);
      expect((await rows()).length).toBe(before - 1);
    });
  });
});
