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
import pg from 'pg';
import { DataSource } from 'typeorm';
import { AppEntity } from '../src/base/model/app.entity.js';
import { SEARCH_CONFIG, SEARCH_DOCUMENT_SQL } from '../src/platform/assets/search-document.js';
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

const VOCABULARY = 5000;

/** 5000 made-up words (3 syllables), so each word names a few hundred assets. */
export function vocabulary(): string[] {
  const words: string[] = [];
  for (let i = 0; words.length < VOCABULARY; i++) {
    const n = SYLLABLES.length;
    words.push(SYLLABLES[i % n] + SYLLABLES[Math.floor(i / n) % n] + SYLLABLES[Math.floor(i / (n * n)) % n]);
  }
  return words;
}

/** The tables the seed fills: their secondary indexes and foreign keys are set aside during the bulk load. */
const SEEDED_TABLES = ['assets', 'asset_versions', 'metadata_values', 'asset_acls'];

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, string>[]>;

/**
 * Registers the seeded fields in the domain's `metadata_fields` ($1: the domain): `description` one text,
 * `keywords` a tag cloud of several values. A field already registered keeps its definition.
 */
export const REGISTER_FIELDS_SQL = `
  INSERT INTO metadata_fields (system_domain_id, name, label, field_type, multi)
  VALUES ($1, 'description', 'Description', 'text', false), ($1, 'keywords', 'Keywords', 'tag_cloud', true)
  ON CONFLICT (system_domain_id, name) DO NOTHING`;

/** The seeded tables' indexes (but those of their primary keys) and foreign keys, as the catalog defines them. */
async function droppable(
  q: Query,
): Promise<{ indexes: Record<string, string>[]; foreignKeys: Record<string, string>[] }> {
  const indexes = await q(
    `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)
      ORDER BY i.indexname`,
    [SEEDED_TABLES],
  );
  const foreignKeys = await q(
    `SELECT c.conname AS name, c.conrelid::regclass::text AS "table", pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c
      WHERE c.contype = 'f' AND c.conrelid::regclass::text = ANY($1) ORDER BY c.conname`,
    [SEEDED_TABLES],
  );
  return { indexes, foreignKeys };
}

/**
 * Seeds ASSETS assets of `domainId` (owner `ownerId` holds every permission; `readerId` may read every
 * other one), each with a version and two metadata fields (registered in the domain's field registry), in set-based SQL on a connection of its own: one pass
 * makes the rows (each word picked by hashing the row number), then one INSERT per table, the search
 * document computed as the rows are inserted. The bench's database is a scratch database made for this run,
 * so the seeded tables' secondary indexes and foreign keys are dropped for the load and made again from the
 * definitions the catalog held (the migrations'), which is checked before measuring; the foreign keys are
 * validated as they are added back. A sample of the documents is checked against SEARCH_DOCUMENT_SQL, the
 * SQL the service writes them with.
 */
export async function seed(
  ds: DataSource,
  domainId: string,
  ownerId: string,
  readerId: string,
): Promise<void> {
  const started = Date.now();
  // a connection of its own, without the service's query and statement bounds: at a million assets a
  // statement of the load takes longer than a request may
  const client = new pg.Client({ connectionString: (ds.options as { url: string }).url });
  await client.connect();
  try {
    const q: Query = async (sql, params) =>
      (await client.query(sql, params)).rows as Record<string, string>[];
    await q("SET maintenance_work_mem = '256MB'");
    const schema = await droppable(q);
    for (const c of schema.foreignKeys) await q(`ALTER TABLE ${c.table} DROP CONSTRAINT "${c.name}"`);
    for (const i of schema.indexes) await q(`DROP INDEX "${i.name}"`);

    // word k of row g: the vocabulary's word at a hash of (g, k), so the words of an asset are independent;
    // spelled from its syllables as vocabulary() spells it (indexing the words array would walk it each time)
    const hash = (k: number) => `(hashint8(g::bigint * 16 + ${k})::bigint + 2147483648) % ${VOCABULARY}`;
    const word = (k: number) => `s[1 + x${k} % n] || s[1 + x${k} / n % n] || s[1 + x${k} / (n * n) % n]`;
    const ks = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    await q(
      `CREATE TEMP TABLE bench_seed AS
       SELECT g, gen_random_uuid() AS id, gen_random_uuid() AS version_id,
              ${word(1)} || ' ' || ${word(2)} || ' ' || ${word(3)} AS title,
              ${word(4)} || ' ' || ${word(5)} || ' ' || ${word(6)} || ' ' || ${word(7)} AS description,
              ${word(8)} AS keyword1, ${word(9)} AS keyword2
         FROM (SELECT $1::text[] AS s, array_length($1::text[], 1) AS n) v,
              generate_series(1, $2::int) g,
              LATERAL (SELECT ${ks.map((k) => `${hash(k)} AS x${k}`).join(', ')}) h`,
      [SYLLABLES, ASSETS],
    );
    // the document as SEARCH_DOCUMENT_SQL makes it: the title (A), then the values of the current version's
    // fields in the order they are stored, description first (B); the check at the end compares the two
    await q(
      `INSERT INTO assets (id, system_domain_id, title, created_by_user, current_version_id, search_vector)
       SELECT id, $1, title, $2, version_id,
              setweight(to_tsvector('${SEARCH_CONFIG}', title), 'A') ||
              setweight(to_tsvector('${SEARCH_CONFIG}', description || ' ' || keyword1 || ' ' || keyword2), 'B')
         FROM bench_seed`,
      [domainId, ownerId],
    );
    await q(
      `INSERT INTO asset_versions (id, asset_id, created_by_user) SELECT version_id, id, $1 FROM bench_seed`,
      [ownerId],
    );
    await q(
      `INSERT INTO metadata_values (version_id, field_name, asset_id, field_values)
       SELECT s.version_id, f.name, s.id,
              CASE f.name
                WHEN 'description' THEN jsonb_build_array(jsonb_build_object('value', s.description))
                ELSE jsonb_build_array(jsonb_build_object('value', s.keyword1), jsonb_build_object('value', s.keyword2))
              END
         FROM bench_seed s CROSS JOIN (VALUES ('description'), ('keywords')) AS f(name)`,
    );
    // the fields of those values, in the domain's registry: without them the values are not the asset's
    // metadata to GET /API/metadata/v1/assets/{id}/ (only registered fields are answered)
    await q(REGISTER_FIELDS_SQL, [domainId]);
    // the owner holds every permission; the reader may read every other asset
    await q(
      `INSERT INTO asset_acls (asset_id, user_id, permissions)
       SELECT s.id, e.user_id, e.permissions
         FROM bench_seed s
         CROSS JOIN LATERAL (SELECT $1::uuid, ARRAY['read','write','delete','change-acl']
                             UNION ALL SELECT $2::uuid, ARRAY['read'] WHERE s.g % 2 = 0) AS e(user_id, permissions)`,
      [ownerId, readerId],
    );
    await q('DROP TABLE bench_seed');
    const loaded = Date.now();

    for (const i of schema.indexes) await q(i.def);
    for (const c of schema.foreignKeys) await q(`ALTER TABLE ${c.table} ADD CONSTRAINT "${c.name}" ${c.def}`);
    const restored = await droppable(q);
    if (JSON.stringify(restored) !== JSON.stringify(schema)) {
      throw new Error(
        `seed: the indexes and foreign keys differ after the load: ${JSON.stringify({ schema, restored })}`,
      );
    }
    const indexed = Date.now();
    for (const t of SEEDED_TABLES) await q(`VACUUM ANALYZE ${t}`);

    const [check] = await q(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE a.search_vector IS DISTINCT FROM ${SEARCH_DOCUMENT_SQL})::int AS differ
         FROM (SELECT * FROM assets WHERE system_domain_id = $1 ORDER BY id LIMIT 1000) a`,
      [domainId],
    );
    if (Number(check.differ) > 0) {
      throw new Error(
        `seed: ${check.differ} of ${check.n} search documents differ from SEARCH_DOCUMENT_SQL's`,
      );
    }
    const s = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
    console.log(`search_seeded_assets=${ASSETS}`);
    console.log(`search_seed_s=${s(started, Date.now())}`);
    console.log(`search_seed_load_s=${s(started, loaded)}`);
    console.log(`search_seed_indexes_s=${s(loaded, indexed)}`);
  } finally {
    await client.end();
  }
}

/**
 * The user the bench searches as: not an administrator, in a group that holds `can_read_assets` (the role
 * the search route asks for), so every search carries the ACL.
 */
export async function addReader(ds: DataSource, domainId: string): Promise<{ id: string }> {
  const [reader] = (await ds.query(
    `INSERT INTO users (email, first_name, last_name, system_domain_id) VALUES ($1, 'Bench', 'Reader', $2) RETURNING id`,
    [`bench-reader-${randomUUID().slice(0, 8)}@portcullis.test`, domainId],
  )) as { id: string }[];
  await ds.query(
    'INSERT INTO user_system_domains (user_id, system_domain_id, is_admin) VALUES ($1, $2, false)',
    [reader.id, domainId],
  );
  const [group] = (await ds.query(
    `INSERT INTO groups (system_domain_id, name, roles) VALUES ($1, 'bench readers', ARRAY['can_read_assets']) RETURNING id`,
    [domainId],
  )) as { id: string }[];
  await ds.query('INSERT INTO group_members (group_id, user_id) VALUES ($1, $2)', [group.id, reader.id]);
  return reader;
}

export async function searchPhase(ctx: SearchBenchContext): Promise<{ ok: boolean }[]> {
  const ds = ctx.app.get(DataSource);
  const reader = await addReader(ds, ctx.domainId);
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
