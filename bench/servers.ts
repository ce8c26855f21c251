// The servers under test, each in its own process (bench/server-process.ts): the service and the framework
// floor. The benchmark talks to them over HTTP like any client, and to the process over IPC only between
// runs (profiles, shutdown). CPU time and resident set are read from /proc for the server's pid.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ServerMessage } from './server-process.js';
import { serviceNodeFlags } from '../scripts/node-flags.js';

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  base: string;
  pid: number;
  /** Its resident set now, in bytes (Linux /proc; 0 elsewhere or once it has ended). */
  rss: () => number;
  profileStart: () => Promise<void>;
  profileStop: (path: string) => Promise<void>;
  close: () => Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./server-process.js', import.meta.url));
/** The Node flags production runs the service with (package.json start:prod, the Dockerfile's CMD). */
const PACKAGE = fileURLToPath(new URL('../../package.json', import.meta.url));
export const SERVICE_FLAGS = process.env.BENCH_NODE_FLAGS
  ? // a candidate setting instead (bench/heap-sweep.mjs): the same for the service and the floor
    process.env.BENCH_NODE_FLAGS.trim().split(/\s+/)
  : serviceNodeFlags(
      (JSON.parse(readFileSync(PACKAGE, 'utf8')) as { scripts: Record<string, string> }).scripts['start:prod'],
    );

/** Starts a server process; `env` is the service's environment record (loadConfig's input). */
export async function startServer(
  kind: 'service' | 'floor',
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const child = fork(ENTRY, [kind], {
    env: { ...process.env, BENCH_SERVER_ENV: JSON.stringify(env) },
    // the service's production flags for both servers (the floor is run exactly like the service); the
    // benchmark's own flags go first, so BENCH runs can add more (`node --some-flag dist/bench/bench.js`)
    execArgv: [...process.execArgv, ...SERVICE_FLAGS],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code} before listening`)));
    child.on('message', (m: { ready?: number; id?: number; error?: string }) => {
      if (m.ready) return resolve(m.ready);
      const waiter = m.id === undefined ? undefined : pending.get(m.id);
      if (!waiter) return;
      pending.delete(m.id!);
      if (m.error) waiter.reject(new Error(`${kind} server: ${m.error}`));
      else waiter.resolve();
    });
  });
  child.removeAllListeners('exit');
  const ask = (m: Omit<ServerMessage, 'id'>) =>
    new Promise<void>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ ...m, id });
    });
  const pid = child.pid!;
  return {
    base: `http://127.0.0.1:${port}`,
    pid,
    rss: () => {
      try {
        const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        return line ? Number(line[1]) * 1024 : 0;
      } catch {
        return 0;
      }
    },
    profileStart: () => ask({ cmd: 'profile-start' }),
    profileStop: (path) => ask({ cmd: 'profile-stop', path } as Omit<ServerMessage, 'id'>),
    close: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await ask({ cmd: 'close' }).catch(() => child.kill('SIGKILL'));
      await exited;
      clearTimeout(timer);
    },
  };
}
