// The scale section of the benchmark (phase `scale`; issue 23 item 4): 100,000 users and 100,000 apps,
// then 1,000 and later 1,000,000 stored tokens, all seeded directly in SQL (INSERT … SELECT over
// generate_series, one statement each), and at both sizes PAT validation and client_credentials are
// measured. The rows look like the service's own: deterministic ids, SHA-256 digests in token_hash, every
// kind (LOGIN 60%, OAUTH 25%, PAT 15%), about 15% expired and 5% revoked, spread over the seeded users and
// apps; 2% of the users are inactive and every one is a member of the bench domain. `validate_1m_vs_1k` and
// `cc_1m_vs_1k` are ratios of the medians of BENCH_ROUNDS runs at each size (sizes cannot alternate: the
// large table is built once, after the small one is measured). Before measuring at the large size, the
// per-request lookup is EXPLAINed and its access to `tokens` printed (`scale_lookup_plan=`): it must be one
// index scan on the primary key. The seeding connection skips foreign-key triggers
// (session_replication_role = replica, like a restore): every reference is made to exist by construction. Tunables: BENCH_SCALE_USERS, BENCH_SCALE_APPS (100000),
// BENCH_SCALE_TOKENS_SMALL (1000), BENCH_SCALE_TOKENS (1000000).
import pg from 'pg';
import type { INestApplication } from '@nestjs/common';
import { TOKEN_LOOKUP_SQL } from '../src/credentials/tokens/tokens.repository.js';
import { hashPassword } from '../src/base/common/crypto/passwords.js';
import type { LoadConfig } from './measure.js';
import { median, positiveInt } from './measure.js';

type Result = { rps: number; ok: boolean; p99: number };

export interface ScaleBenchContext {
  app: INestApplication;
  /** The bench database: seeding runs on a connection of its own, without the service's statement timeout. */
  databaseUrl: string;
  base: string;
  domainId: string;
  pat: string;
  patId: string;
  clientAuth: string;
  rounds: number;
  measure: (name: string, load: (seconds: number) => LoadConfig) => Promise<Result>;
}

const USERS = positiveInt('BENCH_SCALE_USERS', 100_000);
const APPS = positiveInt('BENCH_SCALE_APPS', 100_000);
const SMALL = positiveInt('BENCH_SCALE_TOKENS_SMALL', 1_000);
const LARGE = positiveInt('BENCH_SCALE_TOKENS', 1_000_000);

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}m` : n >= 1000 ? `${n / 1000}k` : `${n}`);

/** Users (with a real argon2id hash, shared) and their memberships, then apps acting as them. */
async function seedPrincipals(ds: pg.Client, domainId: string): Promise<void> {
  const hash = await hashPassword('scale-user-password');
  await ds.query(
    `INSERT INTO users (id, email, first_name, last_name, password_hash, status, system_domain_id)
     SELECT md5('scale-user-' || i)::uuid, 'scale-' || i || '@bench.test', 'Scale', 'User ' || i, $2,
            CASE WHEN i % 50 = 0 THEN 'INACTIVE' ELSE 'ACTIVE' END, $1::uuid
     FROM generate_series(1, $3::int) AS i`,
    [domainId, hash, USERS],
  );
  await ds.query(
    `INSERT INTO user_system_domains (user_id, system_domain_id, is_admin)
     SELECT md5('scale-user-' || i)::uuid, $1::uuid, i % 100 = 0 FROM generate_series(1, $2::int) AS i`,
    [domainId, USERS],
  );
  // half service accounts (PAT), half confidential OAuth clients; each acts as one seeded user
  await ds.query(
    `INSERT INTO apps (id, system_domain_id, name, type, oauth_client_type, default_user_id, allowed_scopes,
                       client_secret_hash, acting_rights_cap)
     SELECT md5('scale-app-' || i)::uuid, $1::uuid, 'scale app ' || i,
            CASE WHEN i % 2 = 0 THEN 'PAT' ELSE 'OAUTH' END,
            CASE WHEN i % 2 = 0 THEN NULL ELSE 'confidential' END,
            md5('scale-user-' || (1 + i % $3::int))::uuid,
            CASE WHEN i % 2 = 0 THEN '{}'::text[] ELSE '{assets:read}'::text[] END,
            CASE WHEN i % 2 = 0 THEN NULL ELSE encode(sha256(convert_to('secret-' || i, 'UTF8')), 'hex') END,
            '{}'::text[]
     FROM generate_series(1, $2::int) AS i`,
    [domainId, APPS, USERS],
  );
}

/** Token rows `from`..`to` (1-based), in one statement. */
async function seedTokens(ds: pg.Client, domainId: string, from: number, to: number): Promise<void> {
  await ds.query(
    `INSERT INTO tokens (id, system_domain_id, user_id, app_id, kind, scopes, token_hash, expires, revoked_at,
                         last_used_at, is_mfa_authenticated, grant_id, rights_cap, auth_time, date_created,
                         date_modified)
     SELECT md5('scale-token-' || g)::uuid, $1::uuid, md5('scale-user-' || (1 + g % $4::int))::uuid,
            md5('scale-app-' || (1 + g % $5::int))::uuid, k.kind,
            CASE WHEN k.kind = 'OAUTH' THEN '{assets:read}'::text[] END,
            encode(sha256(convert_to('scale-token-' || g || '-' || random(), 'UTF8')), 'hex'),
            CASE WHEN g % 20 < 3 THEN now() - interval '1 day' ELSE now() + interval '30 days' END,
            CASE WHEN g % 20 = 3 THEN now() - interval '1 hour' END,
            CASE WHEN g % 3 = 0 THEN now() - interval '2 hours' END,
            g % 10 = 0,
            CASE WHEN k.kind = 'OAUTH' AND g % 2 = 0 THEN md5('scale-grant-' || g / 4)::uuid END,
            CASE WHEN k.kind <> 'LOGIN' THEN '{}'::text[] END,
            CASE WHEN k.kind = 'LOGIN' THEN now() - interval '3 hours' END,
            now() - (g % 1440) * interval '1 minute', now() - (g % 1440) * interval '1 minute'
     FROM generate_series($2::int, $3::int) AS g
     CROSS JOIN LATERAL (SELECT CASE WHEN g % 20 < 12 THEN 'LOGIN' WHEN g % 20 < 17 THEN 'OAUTH'
                                     ELSE 'PAT' END AS kind) AS k`,
    [domainId, from, to, USERS, APPS],
  );
  await ds.query('ANALYZE tokens');
}

/** The access path of the per-request lookup to `tokens`, from EXPLAIN of the statement itself. */
async function lookupPlan(ds: pg.Client, tokenId: string): Promise<string> {
  const {
    rows: [row],
  } = await ds.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${TOKEN_LOOKUP_SQL}`, [[tokenId]]);
  const found: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    if (node['Relation Name'] === 'tokens') {
      found.push(`${String(node['Node Type'])} using ${String(node['Index Name'] ?? '-')}`);
    }
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  const plan = row['QUERY PLAN'] as { Plan: Record<string, unknown> }[];
  walk(plan[0].Plan);
  return found.join('; ');
}

/** The scale phase: both sizes, both measurements, the plan at the large size. */
export async function scalePhase(ctx: ScaleBenchContext): Promise<Result[]> {
  const ds = new pg.Client({ connectionString: ctx.databaseUrl });
  await ds.connect();
  try {
    await ds.query('SET statement_timeout = 0');
    await ds.query("SET session_replication_role = 'replica'");
    return await measureSizes(ds, ctx);
  } finally {
    await ds.end();
  }
}

async function measureSizes(ds: pg.Client, ctx: ScaleBenchContext): Promise<Result[]> {
  const results: Result[] = [];
  let started = Date.now();
  await seedPrincipals(ds, ctx.domainId);
  console.log(`scale_seed_principals_s=${((Date.now() - started) / 1000).toFixed(1)}`);
  const at = async (size: number) => {
    const validated: number[] = [];
    const granted: number[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      const suffix = `${label(size)}${ctx.rounds > 1 ? `_round${round}` : ''}`;
      const v = await ctx.measure(`scale_validate_${suffix}`, (seconds) => ({
        url: `${ctx.base}/API/auth/v1/auth/token/`,
        seconds,
        headers: { Authorization: `Bearer ${ctx.pat}` },
      }));
      const c = await ctx.measure(`scale_cc_${suffix}`, (seconds) => ({
        url: `${ctx.base}/API/auth/v1/oauth/token/`,
        seconds,
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: ctx.clientAuth },
        body: 'grant_type=client_credentials&scope=assets%3Aread',
      }));
      results.push(v, c);
      validated.push(v.rps);
      granted.push(c.rps);
    }
    return { validate: median(validated), cc: median(granted) };
  };
  started = Date.now();
  await seedTokens(ds, ctx.domainId, 1, SMALL);
  console.log(`scale_seed_tokens_small_s=${((Date.now() - started) / 1000).toFixed(1)}`);
  const small = await at(SMALL);
  started = Date.now();
  await seedTokens(ds, ctx.domainId, SMALL + 1, LARGE);
  console.log(`scale_seed_tokens_large_s=${((Date.now() - started) / 1000).toFixed(1)}`);
  const {
    rows: [{ n }],
  } = await ds.query<{ n: number }>('SELECT count(*)::int AS n FROM tokens');
  console.log(`scale_tokens_stored=${n}`);
  console.log(`scale_lookup_plan=${await lookupPlan(ds, ctx.patId)}`);
  const large = await at(LARGE);
  const name = (kind: string) => `${kind}_${label(LARGE)}_vs_${label(SMALL)}`;
  console.log(`${name('validate')}=${(large.validate / small.validate).toFixed(3)}`);
  console.log(`${name('cc')}=${(large.cc / small.cc).toFixed(3)}`);
  return results;
}
