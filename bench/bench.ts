import inspector from 'node:inspector';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
// Throughput of the token validation path against the cheapest route: npm run bench.
//
// The service runs in this process on a fresh PostgreSQL database (created from DATABASE_URL, default
// postgresql://postgres@127.0.0.1:5432/postgres, and dropped at the end); autocannon runs in a child process
// (its CLI, --json). Why a child: autocannon in-process would share this process's single JavaScript thread
// with the server, so the server would get about half of it and every figure would be understated. In a
// child, the server owns its event loop and the load generator gets the other core, like a real client.
// Everything is on loopback. Tunables: BENCH_CONNECTIONS (default 20), BENCH_DURATION (seconds, default 10),
// BENCH_WARMUP (seconds, default 5: the JIT needs that long to settle on either server), BENCH_ROUNDS (default 3: client_credentials here and on the peer are
// measured alternately this many times, and the ratio is the median of the rounds' ratios, because this
// VM's throughput drifts by ±20% from one minute to the next), BENCH_PHASES (comma-separated subset of
// livez,token_validate,client_credentials,refresh_token,search,upload; default all; BENCH_ONLY=search runs the
// search section alone: bench/search-bench.ts; BENCH_ONLY=upload the 1 GiB resumable upload: bench/upload-bench.ts).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app.factory.js';
import { OAuthTokensService } from '../src/oauth/oauth-tokens.service.js';
import { loadConfig, randomSecret } from '../src/config/config.js';
import { searchPhase } from './search-bench.js';
import { uploadPhase } from './upload-bench.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** BENCH_PROFILE=dir: a V8 CPU profile of the server per phase (<dir>/<phase>.cpuprofile). */
async function profiled<T>(phase: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return run();
  const session = new inspector.Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, res) => (err ? reject(err) : resolve(res))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/${phase}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
}

const SERVER_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 20);
const DURATION = positiveInt('BENCH_DURATION', 10);
const WARMUP = positiveInt('BENCH_WARMUP', 5);
const ROUNDS = positiveInt('BENCH_ROUNDS', 3);
const ALL_PHASES = ['livez', 'token_validate', 'client_credentials', 'refresh_token', 'search', 'upload'];
// BENCH_ONLY=search: the search section alone (the same as BENCH_PHASES=search)
const PHASES = (process.env.BENCH_ONLY ?? process.env.BENCH_PHASES ?? ALL_PHASES.join(','))
  .split(',')
  .map((p) => p.trim());
for (const p of PHASES) if (!ALL_PHASES.includes(p)) throw new Error(`BENCH_PHASES: unknown phase ${p}`);
// Hard bound: setup, every warm-up and measured run, and teardown.
const DEADLINE_MS = (90 + (3 + 2 * ROUNDS) * (WARMUP + DURATION + 15)) * 1000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}

function positiveInt(name: string, def: number): number {
  const v = Number(process.env[name] ?? def);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
}

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface LoadConfig {
  url: string;
  seconds: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Refresh-token chains, one per connection: the form body without refresh_token, and the first tokens. */
  chain?: { body: string; initial: string[] };
  /** Bodies the requests cycle through (instead of one `body`). */
  bodies?: string[];
  /** Overrides BENCH_CONNECTIONS for this run. */
  connections?: number;
}

const LOAD_WORKER = fileURLToPath(new URL('../../bench/load.mjs', import.meta.url));

/** One autocannon run in a child process (bench/load.mjs); resolves with its JSON summary. */
function cannon(cfg: LoadConfig): Promise<CannonResult> {
  const { seconds, ...rest } = cfg;
  const args = [LOAD_WORKER, JSON.stringify({ connections: CONNECTIONS, ...rest, duration: seconds })];
  return new Promise((resolve, reject) => {
    // Spawned, never spawnSync: this process's event loop must keep serving the requests.
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`load worker exited with ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(out) as CannonResult);
      } catch {
        reject(new Error(`load worker printed no JSON: ${out.slice(0, 200)} ${err.slice(0, 200)}`));
      }
    });
  });
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A process's command name and CPU time (user + system, all threads, microseconds) from /proc (Linux). */
function procStat(pid: number | string): { command: string; cpu: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    // after the parenthesised command name: field 3 onwards; utime and stime (14, 15) are in clock ticks
    const fields = stat.slice(close + 2).split(' ');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    return { command, cpu: ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100 };
  } catch {
    return null; // not Linux, or the process has ended
  }
}

/**
 * CPU time a server process has used so far, in microseconds: this process's, or a child's from /proc.
 * Per request it is steadier than requests/s, which also depends on how much of the two cores the load
 * generator and PostgreSQL take at that moment.
 */
function cpuMicros(pid?: number): number {
  if (pid === undefined) {
    const u = process.cpuUsage();
    return u.user + u.system;
  }
  return procStat(pid)?.cpu ?? NaN;
}

/** CPU time (microseconds) of each PostgreSQL process on this machine, by pid (Linux; null elsewhere). */
function postgresCpu(): Map<string, number> | null {
  try {
    const out = new Map<string, number>();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = procStat(pid);
      if (stat?.command === 'postgres') out.set(pid, stat.cpu);
    }
    return out;
  } catch {
    return null;
  }
}

/** CPU the database used between two snapshots: processes that ended meanwhile are not counted. */
function postgresCpuSince(before: Map<string, number> | null): number {
  const after = postgresCpu();
  if (!before || !after) return NaN;
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}

/** Warm-up then measured run; `load` builds each run's config (refresh chains need fresh tokens per run). */
async function measure(
  name: string,
  load: (seconds: number) => LoadConfig | Promise<LoadConfig>,
  serverPid?: number,
) {
  await cannon(await load(WARMUP));
  const cpuBefore = cpuMicros(serverPid);
  const pgBefore = postgresCpu();
  const r = await cannon(await load(DURATION));
  const cpu = cpuMicros(serverPid) - cpuBefore;
  const pgCpu = postgresCpuSince(pgBefore);
  const rps = r.requests.average;
  console.log(`${name}_rps=${rps.toFixed(0)}`);
  if (Number.isFinite(cpu))
    console.log(`${name}_server_cpu_us_per_request=${(cpu / r.requests.total).toFixed(0)}`);
  // the database's share (all its processes, whatever else they were doing), when there is a database
  if (Number.isFinite(pgCpu) && serverPid === undefined && !name.startsWith('livez'))
    console.log(`${name}_postgres_cpu_us_per_request=${(pgCpu / r.requests.total).toFixed(0)}`);
  console.log(`${name}_p99_ms=${r.latency.p99}`);
  console.log(`${name}_requests=${r.requests.total}`);
  console.log(`${name}_non2xx=${r.non2xx}`);
  console.log(`${name}_errors=${r.errors + r.timeouts}`);
  return { rps, p99: r.latency.p99, ok: r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 };
}

/** The oidc-provider peer in its own process, like ours (bench/oidc-peer.mjs). */
async function startPeer(
  clientId: string,
  clientSecret: string,
): Promise<{ url: string; pid?: number; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const script = fileURLToPath(new URL('../../bench/oidc-peer.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, String(port), clientId, clientSecret], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`oidc-provider peer exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/token`, pid: child.pid, stop: () => child.kill() };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

const dbName = `portcullis_bench_${randomBytes(6).toString('hex')}`;
const deadline = setTimeout(() => {
  console.error(`bench: exceeded ${DEADLINE_MS / 1000}s; giving up (database ${dbName} may remain)`);
  process.exit(2);
}, DEADLINE_MS);
deadline.unref();

await adminQuery(`CREATE DATABASE ${dbName}`);
// the FILE storage of the upload section (removed at the end)
const storageDir = mkdtempSync(join(tmpdir(), 'portcullis-bench-files-'));
let exitCode = 0;
try {
  const email = 'bench-admin@portcullis.test';
  const password = randomSecret();
  const config = loadConfig({
    DATABASE_URL: databaseUrl(dbName),
    KEY_ENCRYPTION_SECRET: process.env.KEY_ENCRYPTION_SECRET ?? randomSecret(),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    BOOTSTRAP_ADMIN_EMAIL: email,
    BOOTSTRAP_ADMIN_PASSWORD: password,
    STORAGE_DIR: storageDir,
    // the load comes from one address and one token: every request is charged to its bucket in Redis as
    // in production, with budgets no run reaches (RATE_LIMIT_ENABLED=false measures without the limiter)
    RATE_LIMIT_ENABLED: process.env.RATE_LIMIT_ENABLED ?? 'true',
    ...Object.fromEntries(
      [
        'RATE_LIMIT',
        'RATE_LIMIT_USER',
        'RATE_LIMIT_SIGNIN',
        'RATE_LIMIT_OAUTH',
        'RATE_LIMIT_ANONYMOUS',
      ].flatMap((p) => [
        [`${p}_BURST`, '1000000000'],
        [`${p}_PER_SECOND`, '1000000000'],
      ]),
    ),
  });
  const app = await createApp(config);
  try {
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;

    const login = await call(base, 'POST', '/API/auth/v1/auth/simple/login/', undefined, { email, password });
    const adminToken = login.token as string;
    const adminId = login.user_id as string;
    const svc = await call(base, 'POST', '/API/auth/v1/apps/', adminToken, {
      name: 'bench service account',
      type: 'PAT',
      default_user_id: adminId,
    });
    const pat = (await call(base, 'POST', `/API/auth/v1/apps/${svc.id as string}/token/`, adminToken))
      .token as string;

    console.log(`connections=${CONNECTIONS}`);
    console.log(`duration_s=${DURATION}`);
    console.log(`warmup_s=${WARMUP}`);
    const results: { ok: boolean }[] = [];
    const run = PHASES.includes.bind(PHASES);
    if (run('livez') || run('token_validate')) {
      const livez = await profiled('livez', () =>
        measure('livez', (seconds) => ({ url: `${base}/API/auth/livez/`, seconds })),
      );
      results.push(livez);
      if (run('token_validate')) {
        const token = await profiled('token_validate', () =>
          measure('token_validate', (seconds) => ({
            url: `${base}/API/auth/v1/auth/token/`,
            seconds,
            headers: { Authorization: `Bearer ${pat}` },
          })),
        );
        results.push(token);
        console.log(`token_validate_ratio=${(token.rps / livez.rps).toFixed(3)}`);
      }
    }

    // OAuth: a backend service (confidential, acting as the admin) for both grants
    const client = await call(base, 'POST', '/API/auth/v1/apps/', adminToken, {
      name: 'bench backend service',
      type: 'OAUTH',
      oauth_client_type: 'confidential',
      default_user_id: adminId,
      allowed_scopes: ['assets:read'],
    });
    const clientAuth = basic(client.id as string, client.client_secret as string);
    const ccBody = 'grant_type=client_credentials&scope=assets%3Aread';
    if (run('client_credentials')) {
      // ours and the peer's, alternately, so that both see the same drift of the machine
      const peerSecret = randomSecret();
      const peer = await startPeer('bench-peer-client', peerSecret);
      const ours: number[] = [];
      const theirs: number[] = [];
      try {
        for (let round = 1; round <= ROUNDS; round++) {
          const suffix = ROUNDS > 1 ? `_round${round}` : '';
          const cc = await profiled(`client_credentials${suffix}`, () =>
            measure(`client_credentials${suffix}`, (seconds) => ({
              url: `${base}/API/auth/v1/oauth/token/`,
              seconds,
              method: 'POST',
              headers: { ...FORM, Authorization: clientAuth },
              body: ccBody,
            })),
          );
          const peerCc = await measure(
            `peer_client_credentials${suffix}`,
            (seconds) => ({
              url: peer.url,
              seconds,
              method: 'POST',
              headers: { ...FORM, Authorization: basic('bench-peer-client', peerSecret) },
              body: ccBody,
            }),
            peer.pid,
          );
          results.push(cc, peerCc);
          ours.push(cc.rps);
          theirs.push(peerCc.rps);
        }
      } finally {
        peer.stop();
      }
      console.log(`client_credentials_median_rps=${median(ours).toFixed(0)}`);
      console.log(`peer_client_credentials_median_rps=${median(theirs).toFixed(0)}`);
      console.log(`client_credentials_vs_peer_ratio=${median(ours.map((o, i) => o / theirs[i])).toFixed(3)}`);
    }
    if (run('refresh_token')) {
      const oauthTokens = app.get(OAuthTokensService);
      const ds = app.get(DataSource);
      const mintRefreshTokens = async () => {
        const out: string[] = [];
        for (let i = 0; i < CONNECTIONS; i++) {
          const issued = await ds.transaction((em) =>
            oauthTokens.issue(
              em,
              {
                appId: client.id as string,
                userId: adminId,
                systemDomainId: login.system_domain_id as string,
                scopes: ['assets:read'],
                grantId: randomUUID(),
              },
              true,
            ),
          );
          out.push(issued.refresh_token as string);
        }
        return out;
      };
      results.push(
        await profiled('refresh_token', () =>
          measure('refresh_token', async (seconds) => ({
            url: `${base}/API/auth/v1/oauth/token/`,
            seconds,
            method: 'POST',
            headers: { ...FORM, Authorization: clientAuth },
            chain: { body: 'grant_type=refresh_token', initial: await mintRefreshTokens() },
          })),
        ),
      );
    }
    if (run('search')) {
      results.push(
        ...(await searchPhase({
          app,
          base,
          adminToken,
          adminId,
          domainId: login.system_domain_id as string,
          measure: (name, load) => profiled(name, () => measure(name, load)),
        })),
      );
    }
    if (run('upload')) results.push(...(await uploadPhase({ base, adminToken, storageDir })));
    if (!results.every((r) => r.ok)) {
      console.error('bench: some responses were not 2xx (see *_non2xx / *_errors)');
      exitCode = 1;
    }
  } finally {
    await app.close();
  }
} finally {
  await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(storageDir, { recursive: true, force: true });
}
clearTimeout(deadline);
process.exit(exitCode);
