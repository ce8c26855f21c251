// How the benchmark measures one run: autocannon in a child process (bench/load.mjs), the server's and
// PostgreSQL's CPU per request from /proc, optional V8 CPU profiles (BENCH_PROFILE).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ServerProcess } from './servers.js';
interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}

export function positiveInt(name: string, def: number): number {
  const v = Number(process.env[name] ?? def);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
}

/** The median of a run's rounds (the upper one of an even count): what every `_vs_` figure reports. */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 20);
export const DURATION = positiveInt('BENCH_DURATION', 10);
export const WARMUP = positiveInt('BENCH_WARMUP', 5);

let service: ServerProcess | null = null;
/** The service under test (its own process): the default server of `profiled` and `measure`. */
export function setService(s: ServerProcess | null): void {
  service = s;
}

/** BENCH_PROFILE=dir: a V8 CPU profile of the server (default: the service) per run (<dir>/<phase>.cpuprofile). */
export async function profiled<T>(
  phase: string,
  run: () => Promise<T>,
  server: ServerProcess | null = service,
): Promise<T> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir || !server) return run();
  await server.profileStart();
  try {
    return await run();
  } finally {
    await server.profileStop(`${dir}/${phase}.cpuprofile`);
  }
}

export interface LoadConfig {
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

/** A process's command name and CPU time (user + system, all threads, microseconds) from /proc (Linux). */
function procStat(pid: number | string, path = `/proc/${pid}/stat`): { command: string; cpu: number } | null {
  try {
    const stat = readFileSync(path, 'utf8');
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
 * CPU time a server process has used so far, in microseconds: a child's from /proc (this process's when no
 * pid is known).
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

let maxRss = 0;
/** The largest resident set of the service's process sampled during its measured runs, in MB. */
export const maxRssMb = () => maxRss / 2 ** 20;

/**
 * Warm-up then measured run; `load` builds each run's config (refresh chains need fresh tokens per run).
 * `serverPid`: the process serving the run (default: the service's).
 */
export async function measure(
  name: string,
  load: (seconds: number) => LoadConfig | Promise<LoadConfig>,
  serverPid: number | undefined = service?.pid,
) {
  await cannon(await load(WARMUP));
  const cpuBefore = cpuMicros(serverPid);
  // the main (JavaScript) thread alone: the rest is the thread pool (argon2id), V8's GC helpers and I/O
  const mainThread = () =>
    serverPid === undefined
      ? NaN
      : (procStat(serverPid, `/proc/${serverPid}/task/${serverPid}/stat`)?.cpu ?? NaN);
  const mainBefore = mainThread();
  const pgBefore = postgresCpu();
  // the service's resident set, sampled under load from /proc (the floor and the peers are not sampled)
  let rss = 0;
  const sampled = service && serverPid === service.pid ? service : null;
  const sampler = sampled ? setInterval(() => (rss = Math.max(rss, sampled.rss())), 250) : undefined;
  const r = await cannon(await load(DURATION)).finally(() => clearInterval(sampler));
  maxRss = Math.max(maxRss, rss);
  if (rss) console.log(`${name}_rss_mb=${(rss / 2 ** 20).toFixed(0)}`);
  const cpu = cpuMicros(serverPid) - cpuBefore;
  const pgCpu = postgresCpuSince(pgBefore);
  const rps = r.requests.average;
  console.log(`${name}_rps=${rps.toFixed(0)}`);
  if (Number.isFinite(cpu))
    console.log(`${name}_server_cpu_us_per_request=${(cpu / r.requests.total).toFixed(0)}`);
  const main = mainThread() - mainBefore;
  if (Number.isFinite(main))
    console.log(`${name}_server_main_thread_cpu_us_per_request=${(main / r.requests.total).toFixed(0)}`);
  // the database's share (all its processes, whatever else they were doing), when there is a database
  // (the in-memory peer and the floor touch no database; the durable peer does)
  if (Number.isFinite(pgCpu) && !/^(livez|floor|peer_)/.test(name))
    console.log(`${name}_postgres_cpu_us_per_request=${(pgCpu / r.requests.total).toFixed(0)}`);
  // the median and the tail of the run's latencies, beside its rate: a tail that grows under load shows
  console.log(`${name}_p50_ms=${r.latency.p50}`);
  console.log(`${name}_p99_ms=${r.latency.p99}`);
  console.log(`${name}_requests=${r.requests.total}`);
  console.log(`${name}_non2xx=${r.non2xx}`);
  console.log(`${name}_errors=${r.errors + r.timeouts}`);
  return { rps, p50: r.latency.p50, p99: r.latency.p99, ok: r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 };
}
