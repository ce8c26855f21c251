import { AuditService } from '../../src/delivery/audit/audit.service.js';
import {
  AdminResetError,
  adminResetPassword,
  type AdminResetDeps,
} from '../../src/accounts/passwords/admin-reset.js';
import { PasswordPolicyService } from '../../src/accounts/passwords/password-policy.service.js';
import { TokensService } from '../../src/credentials/tokens/tokens.service.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const LOGIN = '/API/auth/v1/auth/simple/login/';
const CURRENT = '/API/users/v1/users/current/';

describe('npm run admin -- reset-password <email> (the lost administrator password)', () => {
  let t: TestApp;
  let deps: AdminResetDeps;

  beforeAll(async () => {
    t = await createTestApp({ LOCKOUT_THRESHOLD: '2' });
    deps = {
      ds: t.ds,
      tokens: t.get(TokensService),
      policy: t.get(PasswordPolicyService),
      audit: t.get(AuditService),
    };
  });
  afterAll(() => t.close());

  const count = async (sql: string, params: unknown[]) =>
    ((await t.ds.query(sql, params)) as { n: number }[])[0].n;

  it('sets a generated password (shown once), revokes every token, lifts the lock, records it', async () => {
    const admin = await createUser(t, { isAdmin: true });
    const before = bearer((await tokenFor(t, admin)).token);
    await t.http.get(CURRENT).set(before).expect(200);
    // locked out by guesses: the reset lifts the password lock
    for (const p of ['guess-one-1', 'guess-two-2'])
      await t.http.post(LOGIN).send({ email: admin.email, password: p }).expect(401);

    const out = await adminResetPassword(deps, admin.email.toUpperCase(), null, 'ops-person');
    expect(out.userId).toBe(admin.id);
    expect(out.generated).toMatch(/^.{20}$/);
    expect(out.revoked).toBeGreaterThanOrEqual(1);

    await t.http.get(CURRENT).set(before).expect(401);
    await t.http.post(LOGIN).send({ email: admin.email, password: DEFAULT_PASSWORD }).expect(401);
    await t.http.post(LOGIN).send({ email: admin.email, password: out.generated }).expect(201);

    const [record] = await t.ds.query(
      "SELECT * FROM audit_events WHERE action = 'password.reset' AND target_id = $1",
      [admin.id],
    );
    expect(record).toMatchObject({
      actor_kind: 'admin_cli',
      system_domain_id: admin.system_domain_id,
      outcome: 'success',
      details: { operator: 'ops-person', revoked_credentials: out.revoked },
    });
    expect(JSON.stringify(record)).not.toContain(out.generated!);
    const revoked = await t.ds.query(
      "SELECT * FROM audit_events WHERE action = 'token.revoked' AND actor_kind = 'admin_cli'",
    );
    expect(revoked.length).toBe(out.revoked);
  });

  it('a given password goes through the domains’ checks: a weak one is refused and nothing changes', async () => {
    const domain = await createDomain(t);
    await t.ds.query('UPDATE system_domains SET password_checks = $2 WHERE id = $1', [
      domain.id,
      JSON.stringify({ min_length: 16 }),
    ]);
    const user = await createUser(t, { domainId: domain.id });
    const token = bearer((await tokenFor(t, user)).token);
    await expect(adminResetPassword(deps, user.email, 'short-1', null)).rejects.toThrow(AdminResetError);
    await expect(adminResetPassword(deps, user.email, user.email, null)).rejects.toThrow(AdminResetError);
    await t.http.get(CURRENT).set(token).expect(200);
    await t.http.post(LOGIN).send({ email: user.email, password: DEFAULT_PASSWORD }).expect(201);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM audit_events WHERE action = 'password.reset' AND target_id = $1",
        [user.id],
      ),
    ).toBe(0);

    const chosen = 'a-long-enough-passphrase-42';
    const out = await adminResetPassword(deps, user.email, chosen, null);
    expect(out.generated).toBeNull();
    await t.http.post(LOGIN).send({ email: user.email, password: chosen }).expect(201);
  });

  it('an unknown email, or hostile input, changes nothing', async () => {
    for (const email of ['nobody@example.test', "' OR 1=1 --", '', 'a\u0000b@x.test', 'x'.repeat(5000)]) {
      await expect(adminResetPassword(deps, email, null, null)).rejects.toThrow(AdminResetError);
    }
    const user = await createUser(t);
    for (const bad of ['with-a-nul-\u0000-inside-1', 'y'.repeat(2000)]) {
      await expect(adminResetPassword(deps, user.email, bad, null)).rejects.toThrow(AdminResetError);
    }
    await t.http.post(LOGIN).send({ email: user.email, password: DEFAULT_PASSWORD }).expect(201);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM audit_events WHERE action = 'password.reset' AND target_id IS NULL",
        [],
      ),
    ).toBe(0);
  });
});
