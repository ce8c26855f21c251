// The heap settings under the memory line (issue 41, docs/performance.md "Memory"): runs the benchmark's
// livez, token_validate, client_credentials and login phases once per candidate setting of the servers' Node
// flags (BENCH_NODE_FLAGS), the candidates alternating, for BENCH_SWEEP_ROUNDS rounds (default 2), and prints
// each candidate's medians: requests/s and server CPU per request of livez, validation and client_credentials,
// the ratios against the floor and the durable peer of the same run, sign-ins per second, the upload's CPU and
// ratio to cp (BENCH_UPLOAD_MB, default 1024), and the largest resident sets (sign-in's argon2id runs, the
// upload's body buffers, every phase). Run after `npm run build`:
//   node bench/heap-sweep.mjs ['<flags>' ...]     (default: the candidates below)
// Benchmarks are never run in CI.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CANDIDATES =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [
        '--max-semi-space-size=8 --heap-growing-percent=25',
        '--max-semi-space-size=16 --heap-growing-percent=25',
        '--max-semi-space-size=16 --heap-growing-percent=50',
        '--max-semi-space-size=32 --heap-growing-percent=25',
        '--max-semi-space-size=32 --heap-growing-percent=50',
      ];
const ROUNDS = Number(process.env.BENCH_SWEEP_ROUNDS ?? 2);
const BENCH = fileURLToPath(new URL('../dist/bench/bench.js', import.meta.url));
const KEYS = [
  'livez_rps',
  'livez_server_cpu_us_per_request',
  'livez_vs_floor',
  'token_validate_rps',
  'token_validate_server_cpu_us_per_request',
  'validate_vs_durable_introspect',
  'client_credentials_rps',
  'client_credentials_server_cpu_us_per_request',
  'cc_vs_durable_peer',
  'login_rps',
  'login_rss_mb',
  'upload_server_cpu_s',
  'upload_vs_cp_ratio',
  'upload_max_rss_mb',
  'rss_mb_under_load',
];

function runOnce(flags) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BENCH], {
      env: {
        ...process.env,
        BENCH_NODE_FLAGS: flags,
        BENCH_ROUNDS: '1',
        BENCH_PHASES: 'livez,token_validate,client_credentials,login,upload',
        BENCH_UPLOAD_MB: process.env.BENCH_UPLOAD_MB ?? '1024',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      // 1: a run went over a line (the upload's RSS limit, a non-2xx): its figures still count, marked
      if (code !== 0 && code !== 1) return reject(new Error(`bench exited with ${code} for ${flags}`));
      const values = { exit: code };
      for (const line of out.split('\n')) {
        const m = /^([a-z0-9_]+)=(.*)$/.exec(line.trim());
        if (m) values[m[1]] = Number(m[2]);
      }
      resolve(values);
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = new Map(CANDIDATES.map((c) => [c, []]));
for (let round = 1; round <= ROUNDS; round++) {
  for (const flags of CANDIDATES) {
    const values = await runOnce(flags);
    results.get(flags).push(values);
    console.log(`round ${round} ${flags}: exit=${values.exit} ${KEYS.map((k) => `${k}=${values[k]}`).join(' ')}`);
  }
}
console.log(`\n| flags | ${KEYS.join(' | ')} |`);
console.log(`| --- |${KEYS.map(() => ' --- |').join('')}`);
for (const [flags, runs] of results) {
  const cells = KEYS.map((k) => {
    const xs = runs.map((r) => r[k]).filter((x) => Number.isFinite(x));
    if (xs.length === 0) return '–';
    const m = /rss_mb/.test(k) ? Math.max(...xs) : median(xs);
    return Number.isInteger(m) ? String(m) : m.toFixed(3);
  });
  console.log(`| \`${flags}\` | ${cells.join(' | ')} |`);
}
