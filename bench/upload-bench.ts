// The upload section of the benchmark (phase `upload`; alone: BENCH_ONLY=upload npm run bench): a file of
// BENCH_UPLOAD_MB (default 1024) MiB is sent through the resumable upload in BENCH_UPLOAD_CHUNK_MB (default 8)
// MiB chunks, as a client does (create asset and file, start, PUT each chunk, PATCH CLOSED), to the FILE
// storage under a temporary STORAGE_DIR, by a client in a child process (bench/upload-client.mjs); the
// service's RSS (its own process, read from /proc) is sampled every 50 ms throughout (target: under
// 256 MB: the service streams, it never holds the file), and the throughput is set against a plain `cp` of
// the same bytes on this machine. The PATCH CLOSED that records the checksum is timed on its own.
// BENCH_PROFILE=dir: a V8 CPU profile of the service during the upload (<dir>/upload.cpuprofile).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profiled } from './measure.js';

export interface UploadBenchContext {
  base: string;
  adminToken: string;
  storageDir: string;
}

const MIB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const CHUNK_MB = Number(process.env.BENCH_UPLOAD_CHUNK_MB ?? 8);
const RSS_LIMIT_MB = 256;
const CLIENT = fileURLToPath(new URL('../../bench/upload-client.mjs', import.meta.url));

/**
 * The service's process: the child of this one that runs bench/server-process.js as `service`
 * (bench/servers.ts forks it). The RSS sampled is its own, not this process's (which holds an app too).
 */
function servicePid(): number {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv.some((a) => a.endsWith('server-process.js')) && argv.includes('service')) return Number(pid);
    } catch {
      // a process that ended meanwhile
    }
  }
  throw new Error('upload: the service process was not found');
}

/** CPU time of a process, all its threads, in seconds (utime + stime of /proc/<pid>/stat, 100 ticks a second). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

function rssOf(pid: number): number {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function api(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export async function uploadPhase(ctx: UploadBenchContext): Promise<{ ok: boolean }[]> {
  const size = SIZE_MB * MIB;
  const chunkSize = CHUNK_MB * MIB;
  const source = join(ctx.storageDir, 'bench-source.bin');
  const copy = join(ctx.storageDir, 'bench-copy.bin');
  // the source: 8 MiB of random bytes repeated (incompressible enough for a disk)
  const block = randomBytes(chunkSize);
  const fd = openSync(source, 'w');
  for (let written = 0; written < size; written += chunkSize)
    writeSync(fd, block, 0, Math.min(chunkSize, size - written));
  closeSync(fd);
  spawnSync('sync');

  let started = process.hrtime.bigint();
  const cp = spawnSync('cp', [source, copy]);
  spawnSync('sync');
  const cpSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  rmSync(copy, { force: true });
  if (cp.status !== 0) throw new Error(`cp failed: ${cp.stderr.toString()}`);

  const asset = await api(ctx.base, ctx.adminToken, 'POST', '/API/assets/v1/assets/', {
    title: 'bench upload',
  });
  const file = await api(
    ctx.base,
    ctx.adminToken,
    'POST',
    `/API/files/v1/assets/${asset.id as string}/files/`,
    {
      original_name: 'bench.bin',
      directory_path: '',
      size,
      type: 'FILE',
    },
  );
  const url = new URL(file.upload_url as string);
  const target = new URL(`${url.pathname}${url.search}`, ctx.base);
  const start = await fetch(target, { method: 'POST', headers: { 'x-goog-resumable': 'start' } });
  if (start.status !== 201) throw new Error(`start: ${start.status}`);

  // the client runs in a child process (bench/upload-client.mjs), the service in another: its RSS from /proc
  const pid = servicePid();
  const rssBefore = rssOf(pid);
  let maxRss = rssBefore;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, rssOf(pid))), 50);
  const sendAll = () =>
    new Promise<{ ok: boolean; seconds: number }>((resolve, reject) => {
      const child = spawn(process.execPath, [CLIENT, target.toString(), source, String(chunkSize)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0
          ? resolve(JSON.parse(out) as { ok: boolean; seconds: number })
          : reject(new Error(`upload client exited ${code}`)),
      );
    });
  const cpuBefore = cpuSeconds(pid);
  const client = await profiled('upload', sendAll);
  const uploadCpu = cpuSeconds(pid) - cpuBefore;
  let ok = client.ok;
  const uploadSeconds = client.seconds;
  started = process.hrtime.bigint();
  await api(
    ctx.base,
    ctx.adminToken,
    'PATCH',
    `/API/files/v1/assets/${asset.id as string}/files/${file.id as string}/`,
    {
      status: 'CLOSED',
    },
  ).catch((err: Error) => {
    console.error(`upload: CLOSED failed: ${err.message}`);
    ok = false;
  });
  const closeSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  rmSync(source, { force: true });

  const mbps = (s: number) => (size / MIB / s).toFixed(1);
  const maxRssMb = maxRss / MIB;
  console.log(`upload_size_mb=${SIZE_MB}`);
  console.log(`upload_chunk_mb=${CHUNK_MB}`);
  console.log(`upload_s=${uploadSeconds.toFixed(2)}`);
  console.log(`upload_mb_per_s=${mbps(uploadSeconds)}`);
  console.log(`cp_mb_per_s=${mbps(cpSeconds)}`);
  console.log(`upload_vs_cp_ratio=${(cpSeconds / uploadSeconds).toFixed(3)}`);
  // the service's CPU time (every thread: JavaScript, garbage collector, writes) while the chunks streamed:
  // steadier than the wall clock on a shared machine
  console.log(`upload_server_cpu_s=${uploadCpu.toFixed(2)}`);
  console.log(`close_s=${closeSeconds.toFixed(3)}`);
  console.log(`close_checksum_mb_per_s=${mbps(closeSeconds)}`);
  console.log(`upload_rss_before_mb=${(rssBefore / MIB).toFixed(0)}`);
  console.log(`upload_max_rss_mb=${maxRssMb.toFixed(0)}`);
  if (maxRssMb >= RSS_LIMIT_MB) {
    console.error(`upload: RSS reached ${maxRssMb.toFixed(0)} MB (limit ${RSS_LIMIT_MB} MB)`);
    ok = false;
  }
  return [{ ok }];
}
