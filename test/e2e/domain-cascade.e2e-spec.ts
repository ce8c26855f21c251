import { randomUUID } from 'node:crypto';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

/**
 * Deleting a domain is one DELETE of its row: every table that names a domain cascades from it through its
 * foreign key (migration DomainCascade1795700500000), on PGlite and on PostgreSQL alike.
 */
describe('domain deletion through ON DELETE CASCADE', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  /** What a delete of the domain does to the tables that keep a row of their own (all others: CASCADE). */
  /** The tables whose rows do not go with their domain, with the foreign key's action (null: none at all). */
  const NOT_CASCADE: Record<string, string | null> = {
    // the service moves or deletes each user first (it must keep the last super administrator)
    users: 'r',
    // the row is the replay record of a marketplace token: it stays spent after its domain goes
    marketplace_nonces: 'n',
    // the audit trail outlives what it names, the domain too (its deletion is the last record); retention
    // (AUDIT_RETENTION_DAYS) purges it like any other record
    audit_events: null,
  };

  it('every table with a system_domain_id has a foreign key to system_domains with the documented action', async () => {
    const tables: { table_name: string }[] = await t.ds.query(
      `SELECT table_name FROM information_schema.columns
        WHERE column_name = 'system_domain_id' AND table_schema = current_schema() ORDER BY table_name`,
    );
    const fks: { tbl: string; action: string }[] = await t.ds.query(
      `SELECT cl.relname AS tbl, con.confdeltype AS action
         FROM pg_constraint con
         JOIN pg_class cl ON cl.oid = con.conrelid
         JOIN pg_class ref ON ref.oid = con.confrelid
         JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
        WHERE con.contype = 'f' AND ref.relname = 'system_domains' AND a.attname = 'system_domain_id'
          AND array_length(con.conkey, 1) = 1`,
    );
    expect(tables.length).toBeGreaterThan(15);
    for (const { table_name } of tables) {
      const actions = fks.filter((f) => f.tbl === table_name).map((f) => String(f.action));
      const expected = table_name in NOT_CASCADE ? NOT_CASCADE[table_name] : 'c';
      expect([table_name, actions]).toEqual([table_name, expected === null ? [] : [expected]]);
    }
  });

  it('deleting a domain removes its rows in every table, keeps another domain’s, and keeps shared users and apps', async () => {
    const gone = await createDomain(t);
    const kept = await createDomain(t);
    // a user and an app of the main domain acting in both domains: only the domain's own rows may go
    const shared = await createUser(t, { alsoIn: [gone.id, kept.id] });
    const app = await createApp(t, {});
    const rows = async (domainId: string) => {
      const grant = randomUUID();
      const far = new Date(Date.now() + 3_600_000);
      await t.ds.query(
        `INSERT INTO approved_app_instances (id, system_domain_id, app_id, user_id, rights_cap) VALUES ($1, $2, $3, $4, '{}')`,
        [randomUUID(), domainId, app.id, shared.id],
      );
      await t.ds.query(
        `INSERT INTO external_auth_requests (secret_hash, system_domain_id, app_id, user_id, expires, rights_cap)
         VALUES ($1, $2, $3, $4, $5, '{}')`,
        [randomUUID(), domainId, app.id, shared.id, far],
      );
      await t.ds.query(
        `INSERT INTO oauth_authorization_codes (code_hash, app_id, user_id, system_domain_id, redirect_uri, scopes,
           code_challenge, expires, grant_id) VALUES ($1, $2, $3, $4, 'https://app.example.test/cb', '{}', 'x', $5, $6)`,
        [randomUUID(), app.id, shared.id, domainId, far, grant],
      );
      await t.ds.query(
        `INSERT INTO oauth_refresh_tokens (token_hash, grant_id, app_id, user_id, system_domain_id, scopes, expires)
         VALUES ($1, $2, $3, $4, $5, '{}', $6)`,
        [randomUUID(), grant, app.id, shared.id, domainId, far],
      );
      await t.ds.query(
        `INSERT INTO registrations (email, first_name, last_name, country, password_hash, secret_sha256, expires,
           verified_at, system_domain_id) VALUES ($1, 'R', 'R', 'DE', 'x', $2, $3, now(), $4)`,
        [`reg-${randomUUID().slice(0, 8)}@example.test`, randomUUID(), far, domainId],
      );
      await t.ds.query(
        `INSERT INTO marketplace_nonces (cloud, jti, nonce_sha256, customer_id, entitlement_id, token_expires, expires,
           used_at, system_domain_id) VALUES ('aws', $1, $2, 'c', 'e', $3, $3, now(), $4)`,
        [randomUUID(), randomUUID(), far, domainId],
      );
    };
    await rows(gone.id);
    await rows(kept.id);
    const token = bearer((await tokenFor(t, shared, { domainId: gone.id })).token);
    await t.http.get('/API/users/v1/users/current/').set(token).expect(200);
    const count = async (table: string, domainId: string) =>
      (
        await t.ds.query(`SELECT count(*)::int AS n FROM "${table}" WHERE system_domain_id = $1`, [domainId])
      )[0].n as number;
    const tables = (
      (await t.ds.query(
        `SELECT table_name FROM information_schema.columns
          WHERE column_name = 'system_domain_id' AND table_schema = current_schema()`,
      )) as { table_name: string }[]
    ).map((r) => r.table_name);
    const nonceJtis = async () =>
      (await t.ds.query(`SELECT jti FROM marketplace_nonces ORDER BY jti`)) as { jti: string }[];
    const jtisBefore = await nonceJtis();
    const keptBefore = Object.fromEntries(
      await Promise.all(tables.map(async (x) => [x, await count(x, kept.id)])),
    );
    for (const table of [
      'approved_app_instances',
      'external_auth_requests',
      'oauth_refresh_tokens',
      'registrations',
    ])
      expect([table, await count(table, gone.id)]).toEqual([table, 1]);

    const sa = bearer((await tokenFor(t, t.admin)).token);
    await t.http.delete(`/API/auth/v1/system_domains/${gone.id}/`).set(sa).expect(204);

    for (const table of tables) expect([table, await count(table, gone.id)]).toEqual([table, 0]);
    for (const table of tables)
      expect([table, await count(table, kept.id)]).toEqual([table, keptBefore[table]]);
    // the shared account and the main domain's app stay; the consumed marketplace tokens stay spent
    expect(await t.ds.query('SELECT 1 FROM users WHERE id = $1', [shared.id])).toHaveLength(1);
    expect(await t.ds.query('SELECT 1 FROM apps WHERE id = $1', [app.id])).toHaveLength(1);
    expect(await nonceJtis()).toEqual(jtisBefore);
    // the domain's credentials are refused at once
    await t.http.get('/API/users/v1/users/current/').set(token).expect(401);
  });
});
