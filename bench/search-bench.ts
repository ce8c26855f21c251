// The search section of the benchmark (phase `search`; alone: BENCH_ONLY=search npm run bench): seeds
// BENCH_SEARCH_ASSETS (default 100000) assets with metadata directly in SQL, then measures a one-word search
// as a user who is not an administrator (so the ACL is part of every query: the user may read half of the
// assets), first one request at a time (search_sequential_*: latency without queueing), then at
// BENCH_SEARCH_CONNECTIONS (default 4) connections, and asset creation in requests/s. Target: a p99 under
// 50 ms on this machine. BENCH_SEARCH_BASELINE=<dist directory of another build> (e.g. main's, built and
// copied aside) serves the same database from that build's code too, and alternates the two one-at-a-time
// and at BENCH_SEARCH_CONNECTIONS (search_baseline_*), so a change is measured against its predecessor
// under the same load rather than minutes apart.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppEntity } from '../src/base/model/app.entity.js';
import { SEARCH_DOCUMENT_SQL } from '../src/platform/assets/search-document.js';
import { CredentialMintService } from '../src/credentials/mint/credential-mint.service.js';

export interface SearchBenchContext {
  app: INestApplication;
  /** The configuration `app` was made with (a baseline build is made with the same). */
  config: unknown;
  base: string;
  adminToken: string;
  adminId: string;
  domainId: string;
  measure: (
    name: string,
    load: (seconds: number) => {
      url: string;
      seconds: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      bodies?: string[];
      connections?: number;
    },
  ) => Promise<{ rps: number; ok: boolean; p99: number }>;
}

const ASSETS = Number(process.env.BENCH_SEARCH_ASSETS ?? 100_000);
const SEARCH_CONNECTIONS = Number(process.env.BENCH_SEARCH_CONNECTIONS ?? 4);
const BASELINE = process.env.BENCH_SEARCH_BASELINE;
const SEQUENTIAL = 300;
const WARM = 50;
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'de', 'fu', 'gi', 'ho', 'ja'];

/** 5000 made-up words (3 syllables), so each word names a few hundred assets. */
function vocabulary(): string[] {
  const words: string[] = [];
  for (let i = 0; words.length < 5000; i++) {
    const n = SYLLABLES.length;
    words.push(SYLLABLES[i % n] + SYLLABLES[Math.floor(i / n) % n] + SYLLABLES[Math.floor(i / (n * n)) % n]);
  }
  return words;
}

export async function seed(
  ds: DataSource,
  domainId: string,
  ownerId: string,
  readerId: string,
): Promise<void> {
  const words = vocabulary();
  const started = Date.now();
  // titles of 3 words, a description of 4 and 2 keywords, picked by multiplicative hashing of the row number
  const pick = (k: number) => `($2::text[])[1 + ((g::bigint * ${k}) % array_length($2::text[], 1))]`;
  await ds.query(
    `INSERT INTO assets (system_domain_id, title, created_by_user)
     SELECT $1, ${pick(7919)} || ' ' || ${pick(104729)} || ' ' || ${pick(1299709)}, $3
       FROM generate_series(1, $4::int) g`,
    [domainId, words, ownerId, ASSETS],
  );
  await ds.query(
    `WITH v AS (INSERT INTO asset_versions (asset_id, created_by_user)
                SELECT id, created_by_user FROM assets WHERE system_domain_id = $1 RETURNING id, asset_id)
     UPDATE assets a SET current_version_id = v.id FROM v WHERE a.id = v.asset_id`,
    [domainId],
  );
  await ds.query(
    `INSERT INTO metadata_values (version_id, field_name, asset_id, field_values)
     SELECT a.current_version_id, f.name, a.id,
            CASE f.name
              WHEN 'description' THEN jsonb_build_array(jsonb_build_object('value',
                ${pick(15485863)} || ' ' || ${pick(32452843)} || ' ' || ${pick(49979687)} || ' ' || ${pick(67867967)}))
              ELSE jsonb_build_array(jsonb_build_object('value', ${pick(86028121)}),
                                     jsonb_build_object('value', ${pick(104395301)}))
            END
       FROM (SELECT a.*, row_number() OVER (ORDER BY a.id) AS g FROM assets a WHERE a.system_domain_id = $1) a
       CROSS JOIN (VALUES ('description'), ('keywords')) AS f(name)`,
    [domainId, words],
  );
  await ds.query(
    `INSERT INTO asset_acls (asset_id, user_id, permissions)
     SELECT id, $2, ARRAY['read','write','delete','change-acl'] FROM assets WHERE system_domain_id = $1`,
    [domainId, ownerId],
  );
  // the reader may read every other asset
  await ds.query(
    `INSERT INTO asset_acls (asset_id, user_id, permissions)
     SELECT id, $2, ARRAY['read'] FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM assets WHERE system_domain_id = $1) x
      WHERE n % 2 = 0`,
    [domainId, readerId],
  );
  await ds.query(`UPDATE assets a SET search_vector = ${SEARCH_DOCUMENT_SQL} WHERE a.system_domain_id = $1`, [
    domainId,
  ]);
  await ds.query('VACUUM ANALYZE assets');
  await ds.query('VACUUM ANALYZE asset_acls');
  await ds.query('VACUUM ANALYZE metadata_values');
  console.log(`search_seeded_assets=${ASSETS}`);
  console.log(`search_seed_s=${((Date.now() - started) / 1000).toFixed(1)}`);
}

export async function searchPhase(ctx: SearchBenchContext): Promise<{ ok: boolean }[]> {
  const ds = ctx.app.get(DataSource);
  const [reader] = (await ds.query(
    `INSERT INTO users (email, first_name, last_name, system_domain_id) VALUES ($1, 'Bench', 'Reader', $2) RETURNING id`,
    [`bench-reader-${randomUUID().slice(0, 8)}@portcullis.test`, ctx.domainId],
  )) as { id: string }[];
  await ds.query(
    'INSERT INTO user_system_domains (user_id, system_domain_id, is_admin) VALUES ($1, $2, false)',
    [reader.id, ctx.domainId],
  );
  const [group] = (await ds.query(
    `INSERT INTO groups (system_domain_id, name, roles) VALUES ($1, 'bench readers', ARRAY['can_read_assets']) RETURNING id`,
    [ctx.domainId],
  )) as { id: string }[];
  await ds.query('INSERT INTO group_members (group_id, user_id) VALUES ($1, $2)', [group.id, reader.id]);
  await seed(ds, ctx.domainId, ctx.adminId, reader.id);
  const builtin = await ds
    .getRepository(AppEntity)
    .findOneByOrFail({ system_domain_id: ctx.domainId, is_builtin: true });
  const { token } = await ctx.app.get(CredentialMintService).signIn(ds.manager, {
    userId: reader.id,
    appId: builtin.id,
    systemDomainId: ctx.domainId,
    kind: 'LOGIN',
  });

  // one word per request, cycling through 200 words of the vocabulary
  const words = vocabulary().filter((_, i) => i % 25 === 0);
  const [probe] = (await ds.query(
    `SELECT count(*)::int AS n FROM assets WHERE search_vector @@ websearch_to_tsquery('simple', $1)`,
    [words[0]],
  )) as { n: number }[];
  console.log(`search_matches_per_word=${probe.n}`);
  const json = { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` };
  const baseline = BASELINE ? await startBaseline(BASELINE, ctx.config) : null;
  try {
    const targets = [{ name: 'search', base: ctx.base }];
    if (baseline) targets.push({ name: 'search_baseline', base: baseline.base });
    // latency without queueing behind the benchmark's own requests: one request at a time, the targets
    // alternating in blocks of 10
    const times = new Map<string, number[]>(targets.map((x) => [x.name, []]));
    for (let i = 0; i < SEQUENTIAL * targets.length; i++) {
      const target = targets[Math.floor(i / 10) % targets.length];
      const started = performance.now();
      const res = await fetch(`${target.base}/API/search/v1/search/`, {
        method: 'POST',
        headers: json,
        // each target gets the same words
        body: JSON.stringify({
          query: words[(Math.floor(i / (10 * targets.length)) * 10 + (i % 10)) % words.length],
          doc_types: ['assets'],
        }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${target.name} answered ${res.status}`);
      if (i >= WARM * targets.length) times.get(target.name)!.push(performance.now() - started);
    }
    for (const [name, xs] of times) {
      xs.sort((a, b) => a - b);
      const at = (q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))].toFixed(1);
      console.log(`${name}_sequential_p50_ms=${at(0.5)}`);
      console.log(`${name}_sequential_p99_ms=${at(0.99)}`);
    }
    const results: { ok: boolean; p99: number }[] = [];
    for (const target of targets) {
      const r = await ctx.measure(target.name, (seconds) => ({
        url: `${target.base}/API/search/v1/search/`,
        seconds,
        method: 'POST',
        headers: json,
        bodies: words.map((w) => JSON.stringify({ query: w, doc_types: ['assets'] })),
        connections: SEARCH_CONNECTIONS,
      }));
      results.push(r);
    }
    console.log(`search_connections=${SEARCH_CONNECTIONS}`);
    console.log(`search_p99_under_50ms=${results[0].p99 < 50}`);
    const create = await ctx.measure('asset_create', (seconds) => ({
      url: `${ctx.base}/API/assets/v1/assets/`,
      seconds,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ctx.adminToken}` },
      body: JSON.stringify({ title: 'bench asset created over HTTP', external_id: 'bench' }),
    }));
    return [...results, create];
  } finally {
    await baseline?.app.close();
  }
}

/** Another build of the service (its dist directory) on the same database, listening on its own port. */
async function startBaseline(
  dist: string,
  config: unknown,
): Promise<{ app: INestApplication; base: string }> {
  const factory = pathToFileURL(resolve(dist, 'src/app/app.factory.js')).href;
  const { createApp } = (await import(factory)) as {
    createApp: (c: unknown) => Promise<INestApplication>;
  };
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, base: `http://127.0.0.1:${port}` };
}
