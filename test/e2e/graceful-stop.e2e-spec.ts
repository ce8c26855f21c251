import { jest } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { buildService } from '../utils/build.js';
import { seedPgliteDataDir } from '../utils/test-database.js';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePortBelowEphemeralRange } from '../utils/ports.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../utils/wait-for.js';

/**
 * SIGTERM under load: the built service (embedded database) stops accepting, finishes what it accepted, and
 * ends by the signal. A request is accepted once the service has read it: each one is in its access log
 * (LOG_LEVEL=debug logs every answer, and a request cut off as `request aborted`), found by the
 * X-Request-Id the client sent. Every accepted request must have been answered, below 500. What the service
 * never read may fail to connect: refused after the listener closed, or reset while it still sat in the
 * kernel's accept queue when the listener closed (TCP gives a client no way to tell that from a reset).
 */
const ROOT = process.cwd();
const EMAIL = 'admin@stop.test';
const PASSWORD = 'graceful-stop-password-1';

interface Outcome {
  id: string;
  status?: number;
  error?: string;
  connected: boolean;
  endedAt: number;
}

/** One sign-in (argon2: a request that takes a while) on a fresh connection. */
let sequence = 0;
function signIn(port: number): Promise<Outcome> {
  const id = `stop-test-${++sequence}`;
  return new Promise<Omit<Outcome, 'id'>>((resolve) => {
    let connected = false;
    const body = JSON.stringify({ email: EMAIL, password: PASSWORD });
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/API/auth/v1/auth/simple/login/',
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'X-Request-Id': id,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, connected, endedAt: Date.now() }));
        res.on('error', (e) =>
          resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message, connected, endedAt: Date.now() }),
        );
      },
    );
    req.on('socket', (s) => s.on('connect', () => (connected = true)));
    req.on('error', (e) =>
      resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message, connected, endedAt: Date.now() }),
    );
    req.end(body);
  }).then((o) => ({ id, ...o }));
}

describe('graceful stop (SIGTERM under load)', () => {
  jest.setTimeout(240_000);
  let child: ChildProcess;
  let dataDir: string;

  beforeAll(() => {
    // the service as built, compiled once for both suites that start it (test/utils/build.ts)
    buildService(ROOT);
  });
  afterAll(() => {
    if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('no accepted request fails; the process ends by SIGTERM within the grace period', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'portcullis-stop-'));
    // from the migrated template instead of initdb and every migration (test/utils/test-database.ts)
    await seedPgliteDataDir(dataDir);
    const port = await freePortBelowEphemeralRange();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      BOOTSTRAP_ADMIN_EMAIL: EMAIL,
      BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      SHUTDOWN_GRACE_MS: '20000',
      RATE_LIMIT_SIGNIN_BURST: '1000000',
      RATE_LIMIT_SIGNIN_PER_SECOND: '1000000',
      LOCKOUT_THRESHOLD: '1000',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // the access log is read from stdout alone: chunks of the two pipes interleave at any byte, and a
    // stderr chunk landing before a log line would hide that line from the parser below
    let output = '';
    let stdout = '';
    child.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
      stdout += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<[number | null, string | null, number]>((resolve) =>
      child.once('exit', (code, signal) => resolve([code, signal, Date.now()])),
    );
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`did not start:\n${output.slice(-4000)}`);
        return output.includes('Portcullis is listening');
      },
      150_000,
      100,
      `the service's start (${output.slice(-4000)})`,
    );

    // eight clients signing in back to back until the service is gone
    const outcomes: Outcome[] = [];
    let signalledAt = Number.POSITIVE_INFINITY;
    const client = async () => {
      for (;;) {
        const o = await signIn(port);
        outcomes.push(o);
        if (o.error === 'ECONNREFUSED') return;
        if (Date.now() - signalledAt > 30_000) return;
      }
    };
    const clients = Array.from({ length: 8 }, client);
    // the signal comes while the clients are at work: each has had answers, and more are in flight
    await waitFor(
      () => outcomes.filter((o) => o.status === 201).length >= 16,
      60_000,
      20,
      'sign-ins under way',
    );
    const before = outcomes.length;
    signalledAt = Date.now();
    child.kill('SIGTERM');
    await Promise.all(clients);
    const [code, signal, endedAt] = await exited;

    expect(before).toBeGreaterThan(0);
    expect([code, signal]).toEqual([null, 'SIGTERM']);
    expect(endedAt - signalledAt).toBeLessThan(20_000);
    // the service's own account of each request it read: its id and answer (access log, JSON lines)
    const served = new Map<string, { status: number; msg: string }>();
    for (const line of stdout.split('\n')) {
      if (!line.startsWith('{')) continue;
      const o = JSON.parse(line) as { msg?: string; req?: { id?: string }; res?: { statusCode: number } };
      if (o.req?.id?.startsWith('stop-test-'))
        served.set(o.req.id, { status: o.res!.statusCode, msg: o.msg! });
    }
    expect(output).not.toMatch(/request aborted/);
    expect([...served.values()].filter((s) => s.status !== 201)).toEqual([]);
    // every request it read got its answer to the client; the ones that failed were never read
    // (as lists, so that a failure shows the outcomes at fault)
    expect(outcomes.filter((o) => served.has(o.id) && o.status !== 201)).toEqual([]);
    expect(
      outcomes.filter((o) => !served.has(o.id) && !['ECONNREFUSED', 'ECONNRESET'].includes(o.error ?? '')),
    ).toEqual([]);
    // the requests in flight at the signal were finished after it, not cut off
    expect(outcomes.filter((o) => o.status === 201 && o.endedAt > signalledAt).length).toBeGreaterThan(0);
    expect(outcomes.some((o) => o.error === 'ECONNREFUSED')).toBe(true);
    expect(output).toMatch(/SIGTERM: stopping/);
  });
});
