// The plans of the bench's search (docs/search.md): `npm run build && node dist/bench/search-explain.js`.
// A development aid for the search section of the benchmark (bench/search-bench.ts). It makes a database on
// DATABASE_URL's server (default postgresql://postgres@127.0.0.1:5432/postgres), seeds it as the bench does
// (BENCH_SEARCH_ASSETS, default 100000), builds the statements the service runs for the bench's one-word
// searches as its reader (PostgresAssetSearch's hits, totals and facets; AssetsRepository.pageRows's page),
// and runs each under EXPLAIN (ANALYZE, BUFFERS): the plan of one word, then the planning and execution times
// over SEARCH_EXPLAIN_WORDS words (default 200). SEARCH_EXPLAIN_DB=<name> reuses a database seeded by an
// earlier run (SEARCH_EXPLAIN_KEEP=1 keeps the one it made, and prints its name); otherwise it is dropped.
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { createApp } from '../src/app/app.factory.js';
import { randomSecret } from '../src/base/config/config.js';
import { loadConfig } from '../src/app/config.js';
import type { AuthContext } from '../src/base/common/auth/auth-context.js';
import { AssetsRepository } from '../src/platform/assets/assets.repository.js';
import { PostgresAssetSearch } from '../src/platform/search/postgres-asset-search.js';
import type { SearchRepository, SearchRow } from '../src/platform/search/search.repository.js';
import { adminQuery, databaseUrl } from './scratch-database.js';
import { addReader, seed, vocabulary } from './search-bench.js';

const reuse = process.env.SEARCH_EXPLAIN_DB;
const keep = reuse !== undefined || process.env.SEARCH_EXPLAIN_KEEP === '1';
const dbName = reuse ?? `portcullis_explain_${randomBytes(6).toString('hex')}`;
const WORDS = Number(process.env.SEARCH_EXPLAIN_WORDS ?? 200);
const email = 'explain-admin@portcullis.test';

if (!reuse) await adminQuery(`CREATE DATABASE ${dbName}`);
const app = await createApp(
  loadConfig({
    DATABASE_URL: databaseUrl(dbName),
    // the same on every run, so a kept database's signing keys open again (a scratch database, never a service's)
    KEY_ENCRYPTION_SECRET: `search-explain-scratch-database-${dbName}`,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    PORT: '0',
    LOG_LEVEL: 'error',
    BOOTSTRAP_ADMIN_EMAIL: email,
    BOOTSTRAP_ADMIN_PASSWORD: randomSecret(),
  }),
);
try {
  const ds = app.get(DataSource);
  const [admin] = (await ds.query(`SELECT u.id, u.system_domain_id FROM users u WHERE u.email = $1`, [
    email,
  ])) as { id: string; system_domain_id: string }[];
  let [reader] = (await ds.query(`SELECT id FROM users WHERE email LIKE 'bench-reader-%'`)) as {
    id: string;
  }[];
  if (!reader) {
    reader = await addReader(ds, admin.system_domain_id);
    await seed(ds, admin.system_domain_id, admin.id, reader.id);
  }
  const auth = {
    userId: reader.id,
    systemDomainId: admin.system_domain_id,
    isAdmin: false,
    isSuperAdmin: false,
  } as AuthContext;

  // the statements exactly as the service builds them, captured instead of run
  let captured: { sql: string; values: unknown[] } | null = null;
  const capture = async (sql: string, values: unknown[]) => {
    captured = { sql, values };
    return [] as SearchRow[];
  };
  const search = new PostgresAssetSearch({ run: capture } as unknown as SearchRepository);
  const pages = app.get(AssetsRepository);
  const hitsOf = async (word: string) => {
    await search.search(auth, { query: word, sort: [], filter: null, page: 1, perPage: 10 });
    return captured!;
  };
  const pageOf = async (ids: string[]) => {
    const em = { query: capture } as unknown as EntityManager;
    await pages.pageRows(em, auth, ids, false);
    return captured!;
  };
  const explain = async (s: { sql: string; values: unknown[] }) => {
    const [row] = (await ds.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.sql}`, s.values)) as {
      'QUERY PLAN': [{ 'Planning Time': number; 'Execution Time': number }];
    }[];
    return row['QUERY PLAN'][0];
  };
  const text = async (s: { sql: string; values: unknown[] }) =>
    ((await ds.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.values)) as { 'QUERY PLAN': string }[])
      .map((r) => r['QUERY PLAN'])
      .join('\n');

  const words = vocabulary()
    .filter((_, i) => i % 25 === 0)
    .slice(0, WORDS);
  const hits = await hitsOf(words[0]);
  console.log(`-- hits, totals and facets (one statement), word ${words[0]}:\n${hits.sql}\n`);
  await explain(hits); // warm
  console.log(await text(hits));
  const ids = ((await ds.query(hits.sql, hits.values)) as SearchRow[]).flatMap((r) => (r.id ? [r.id] : []));
  const page = await pageOf(ids);
  console.log(`\n-- the page's objects (AssetsRepository.pageRows), ${ids.length} ids:\n`);
  console.log(await text(page));

  const stats = (xs: number[]) => {
    xs.sort((a, b) => a - b);
    const at = (q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))].toFixed(2);
    return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${xs[xs.length - 1].toFixed(2)} ms`;
  };
  const planning: number[] = [];
  const execution: number[] = [];
  const pagePlanning: number[] = [];
  const pageExecution: number[] = [];
  for (const word of words) {
    const h = await hitsOf(word);
    const plan = await explain(h);
    planning.push(plan['Planning Time']);
    execution.push(plan['Execution Time']);
    const rows = (await ds.query(h.sql, h.values)) as SearchRow[];
    const p = await explain(await pageOf(rows.flatMap((r) => (r.id ? [r.id] : []))));
    pagePlanning.push(p['Planning Time']);
    pageExecution.push(p['Execution Time']);
  }
  console.log(`\n-- over ${words.length} words (warm, one at a time):`);
  console.log(`hits planning:  ${stats(planning)}`);
  console.log(`hits execution: ${stats(execution)}`);
  console.log(`page planning:  ${stats(pagePlanning)}`);
  console.log(`page execution: ${stats(pageExecution)}`);
} finally {
  await app.close();
  if (keep) console.log(`database kept: ${dbName}`);
  else await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
}
process.exit(0);
