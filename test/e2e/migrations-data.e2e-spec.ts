import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/app/config.js';
import { dataSourceOptions } from '../../src/base/database/data-source.js';
import { MIGRATIONS } from '../../src/base/database/migrations/index.js';
import { CredentialCeilings1795263800000 } from '../../src/base/database/migrations/1795263800000-credential-ceilings.js';
import { DomainVerification1795700800000 } from '../../src/base/database/migrations/1795700800000-domain-verification.js';
import { SignInAuthority1795700700000 } from '../../src/base/database/migrations/1795700700000-sign-in-authority.js';
import { createTestDatabase } from '../utils/test-database.js';

/**
 * The data steps of the security migrations, on rows written by the schema before them: what an existing
 * installation has when it upgrades.
 */
/** A database migrated up to (not including) `first`: the schema an installation had before it. */
function migratedBefore(first: (typeof MIGRATIONS)[number]) {
  const state: { ds?: DataSource; drop?: () => Promise<void> } = {};
  beforeAll(async () => {
    const db = await createTestDatabase();
    state.drop = db.drop;
    const config = loadConfig({
      DATA_DIR: 'memory://',
      KEY_ENCRYPTION_SECRET: 'test-key-encryption-secret-0123456789',
      ...(db.url ? { DATABASE_URL: db.url } : {}),
    });
    const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(first));
    state.ds = await new DataSource({
      ...dataSourceOptions(config),
      migrations: before,
    } as never).initialize();
    await state.ds.runMigrations({ transaction: 'each' });
  });
  afterAll(async () => {
    await state.ds?.destroy();
    await state.drop?.();
  });
  return {
    q: (sql: string, params: unknown[] = []) => state.ds!.query(sql, params),
    /** Runs `first` and every migration after it. */
    upgrade: async () => {
      const runner = state.ds!.createQueryRunner();
      for (const M of MIGRATIONS.slice(MIGRATIONS.indexOf(first))) await new M().up(runner);
      await runner.release();
    },
  };
}

describe('migrations: data of earlier versions', () => {
  const { q, upgrade } = migratedBefore(CredentialCeilings1795263800000);

  it('caps existing apps and their tokens, and turns pending invitations into invitations of an email', async () => {
    const id = () => randomUUID();
    const [a, c] = [id(), id()];
    for (const d of [a, c])
      await q(`INSERT INTO system_domains (id, name, base_url) VALUES ($1, $2, 'https://x')`, [
        d,
        `domain ${d}`,
      ]);
    const user = async (
      u: string,
      domain: string,
      o: { superAdmin?: boolean; inactive?: boolean; password?: boolean } = {},
    ) => {
      await q(
        `INSERT INTO users (id, email, password_hash, status, is_super_admin, system_domain_id) VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          u,
          `${u}@example.com`,
          o.password === false ? null : 'hash',
          o.inactive ? 'INACTIVE' : 'ACTIVE',
          o.superAdmin ?? false,
          domain,
        ],
      );
      await q(`INSERT INTO user_system_domains (user_id, system_domain_id) VALUES ($1, $2)`, [u, domain]);
    };
    const [root, domainAdmin, victim, existing, placeholder] = [id(), id(), id(), id(), id()];
    await user(root, a, { superAdmin: true });
    await user(domainAdmin, a);
    await user(victim, a, { superAdmin: true });
    await user(existing, a);
    await user(placeholder, c, { inactive: true, password: false });
    await q(`INSERT INTO user_system_domains (user_id, system_domain_id) VALUES ($1, $2)`, [existing, c]);
    const app = async (creator: string, acting: string | null) => {
      const appId = id();
      await q(
        `INSERT INTO apps (id, system_domain_id, name, type, default_user_id, created_by_user_id) VALUES ($1, $2, 'n', 'PAT', $3, $4)`,
        [appId, a, acting, creator],
      );
      return appId;
    };
    const escalating = await app(domainAdmin, victim);
    const bySuper = await app(root, victim);
    const actingNobody = await app(domainAdmin, null);
    const token = async (appId: string, kind = 'PAT', grant: string | null = null) => {
      const tid = id();
      await q(
        `INSERT INTO tokens (id, system_domain_id, user_id, app_id, kind, token_hash, expires, grant_id)
         VALUES ($1, $2, $3, $4, $5, 'h', now() + interval '1 day', $6)`,
        [tid, a, victim, appId, kind, grant],
      );
      return tid;
    };
    const escalatedPat = await token(escalating);
    const superPat = await token(bySuper);
    const consented = await token(escalating, 'OAUTH', id());
    const invitation = async (u: string, domain: string) => {
      const iid = id();
      await q(
        `INSERT INTO invitations (id, system_domain_id, user_id, reset_hash_sha256, expires) VALUES ($1, $2, $3, $4, now() + interval '7 days')`,
        [iid, domain, u, randomUUID()],
      );
      return iid;
    };
    const toExisting = await invitation(existing, c);
    const toPlaceholder = await invitation(placeholder, c);

    // the rest, as an upgrade applies them (on this same database: PGlite in memory is one per data source)
    await upgrade();

    const cap = async (table: string, rowId: string, column: string) =>
      (
        (await q(`SELECT ${column} AS cap FROM ${table} WHERE id = $1`, [rowId]))[0] as {
          cap: string[] | null;
        }
      ).cap;
    // an app a domain administrator pointed at a super administrator loses super power; one a super administrator set up keeps it
    expect(await cap('apps', escalating, 'acting_rights_cap')).not.toContain('@super');
    expect(await cap('apps', escalating, 'acting_rights_cap')).toContain('@admin');
    expect(await cap('apps', bySuper, 'acting_rights_cap')).toContain('@super');
    expect(await cap('apps', actingNobody, 'acting_rights_cap')).toBeNull();
    expect(await cap('tokens', escalatedPat, 'rights_cap')).not.toContain('@super');
    expect(await cap('tokens', superPat, 'rights_cap')).toContain('@super');
    expect(await cap('tokens', consented, 'rights_cap')).toBeNull();

    // pending invitations: an email, no membership granted, no placeholder account
    const inv = await q(`SELECT id, email, user_id FROM invitations ORDER BY email`);
    expect(inv).toEqual(
      expect.arrayContaining([
        { id: toExisting, email: `${existing}@example.com`, user_id: null },
        { id: toPlaceholder, email: `${placeholder}@example.com`, user_id: null },
      ]),
    );
    expect(
      await q(`SELECT system_domain_id FROM user_system_domains WHERE user_id = $1`, [existing]),
    ).toEqual([{ system_domain_id: a }]);
    expect(await q(`SELECT id FROM users WHERE id = $1`, [placeholder])).toEqual([]);
    expect(await q(`SELECT id FROM users WHERE id = $1`, [existing])).toHaveLength(1);
  });
});

/** Email-domain bindings made before verification existed: they routed people, so they stay verified. */
describe('migrations: domain verification on existing bindings', () => {
  const { q, upgrade } = migratedBefore(DomainVerification1795700800000);

  it('keeps existing bindings verified, each with a challenge token of its own; new claims start unverified', async () => {
    const [a, b, idpA, idpB] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const [d, idp] of [
      [a, idpA],
      [b, idpB],
    ]) {
      await q(`INSERT INTO system_domains (id, name, base_url) VALUES ($1, $2, 'https://x')`, [
        d,
        `domain ${d}`,
      ]);
      await q(
        `INSERT INTO identity_providers (id, public_id, system_domain_id, type, settings) VALUES ($1, $2, $3, 'GENERIC', '{}')`,
        [idp, randomUUID(), d],
      );
    }
    for (const name of ['one.test', 'two.test'])
      await q(
        `INSERT INTO identity_provider_domains (domain, identity_provider_id, system_domain_id) VALUES ($1, $2, $3)`,
        [name, idpA, a],
      );

    await upgrade();

    const rows = (await q(
      `SELECT domain, verified_at, challenge_token FROM identity_provider_domains ORDER BY domain`,
    )) as { domain: string; verified_at: Date | null; challenge_token: string }[];
    expect(rows.map((r) => r.domain)).toEqual(['one.test', 'two.test']);
    for (const r of rows) {
      expect(r.verified_at).not.toBeNull();
      expect(r.challenge_token).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(rows[0].challenge_token).not.toBe(rows[1].challenge_token);
    // another domain may now claim a name (unverified), but not hold it verified beside the first
    await q(
      `INSERT INTO identity_provider_domains (domain, identity_provider_id, system_domain_id, challenge_token)
       VALUES ('one.test', $1, $2, 'x')`,
      [idpB, b],
    );
    await expect(
      q(
        `UPDATE identity_provider_domains SET verified_at = now() WHERE domain = 'one.test' AND system_domain_id = $1`,
        [b],
      ),
    ).rejects.toThrow(/uq_identity_provider_domains_verified|duplicate key/);
  });
});

describe('migrations: the sign-in authority on existing tokens and SSO links', () => {
  const { q, upgrade } = migratedBefore(SignInAuthority1795700700000);

  it('takes the second-factor mark and sign-in time from live login tokens only; existing links are administrators’', async () => {
    const [d, u, app, idp] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await q(`INSERT INTO system_domains (id, name, base_url) VALUES ($1, 'd', 'https://x')`, [d]);
    await q(
      `INSERT INTO users (id, email, password_hash, status, is_super_admin, system_domain_id) VALUES ($1, $2, 'h', 'ACTIVE', false, $3)`,
      [u, `${u}@example.com`, d],
    );
    await q(`INSERT INTO user_system_domains (user_id, system_domain_id) VALUES ($1, $2)`, [u, d]);
    await q(
      `INSERT INTO apps (id, system_domain_id, name, type, created_by_user_id) VALUES ($1, $2, 'n', 'PAT', $3)`,
      [app, d, u],
    );
    const token = async (kind: string, expires: string, revoked = false) => {
      const id = randomUUID();
      await q(
        `INSERT INTO tokens (id, system_domain_id, user_id, app_id, kind, token_hash, expires, is_mfa_authenticated,
                             auth_time, revoked_at)
         VALUES ($1, $2, $3, $4, $5, 'h', now() + $6::interval, true, now(), CASE WHEN $7 THEN now() END)`,
        [id, d, u, app, kind, expires, revoked],
      );
      return id;
    };
    const live = await token('LOGIN', '1 day');
    const expired = await token('LOGIN', '-1 day');
    const revoked = await token('LOGIN', '1 day', true);
    const oauth = await token('OAUTH', '1 day');
    await q(
      `INSERT INTO identity_providers (id, public_id, system_domain_id, type, settings) VALUES ($1, $2, $3, 'GENERIC', '{}')`,
      [idp, randomUUID(), d],
    );
    await q(
      `INSERT INTO user_saml_identities (user_id, system_domain_id, identity_provider_id, email) VALUES ($1, $2, $3, 'x@idp.test')`,
      [u, d, idp],
    );

    await upgrade();

    const rows = (await q(
      `SELECT id, is_mfa_authenticated AS mfa, auth_time IS NOT NULL AS timed, vouched_by_tenant FROM tokens`,
    )) as { id: string; mfa: boolean; timed: boolean; vouched_by_tenant: boolean }[];
    const of = (id: string) => rows.find((r) => r.id === id)!;
    // a live login token may have been a tenant's word: no factor, and its next account change signs in again
    expect(of(live)).toMatchObject({ mfa: false, timed: false, vouched_by_tenant: false });
    // nothing else changes: what is dead stays as it was, and OAuth tokens never change an account
    for (const id of [expired, revoked, oauth]) expect(of(id)).toMatchObject({ mfa: true, timed: true });
    const [link] = (await q(`SELECT linked_by_self FROM user_saml_identities`)) as {
      linked_by_self: boolean;
    }[];
    expect(link.linked_by_self).toBe(false);
  });
});
