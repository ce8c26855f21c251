import { jest } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { buildService } from '../utils/build.js';
import { seedPgliteDataDir } from '../utils/test-database.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The built service started the way a person starts it, under a pseudo-terminal (util-linux `script`), on a
 * fresh embedded database: a readable log, and a start that ends with the banner and the first password.
 */
const ROOT = process.cwd();
// eslint-disable-next-line no-control-regex -- the escape sequences of a terminal are what is stripped
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

interface Started {
  lines: string[];
  child: ChildProcess;
}

/** Starts `node dist/src/main.js` under `script` and resolves once the banner is out, plus a quiet second. */
async function startUnderPty(env: Record<string, string>): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portcullis-tty-'));
  // a first start, from the migrated template instead of initdb and every migration (test/utils/test-database.ts)
  await seedPgliteDataDir(dataDir);
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ...env,
  };
  // the embedded database on a fresh directory: none of the suite's servers or its chosen password
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'BOOTSTRAP_ADMIN_PASSWORD', 'LOG_LEVEL', 'LOG_FORMAT'])
    if (!(k in env)) delete childEnv[k];
  const child = spawn('script', ['-qfec', 'node dist/src/main.js', '/dev/null'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no banner within 150 s:\n${out.slice(-3000)}`)),
      150_000,
    );
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (/Password:/.test(out) && !(child as { settled?: boolean }).settled) {
        (child as { settled?: boolean }).settled = true;
        // anything logged right after the banner would show up within this second
        setTimeout(() => {
          clearTimeout(timer);
          resolve({ lines: out.replace(ANSI, '').replace(/\r/g, '').split('\n'), child });
        }, 1500);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before the banner:\n${out.slice(-3000)}`)));
  }).finally(() => {
    setTimeout(() => rmSync(dataDir, { recursive: true, force: true }), 5000).unref();
  }) as Promise<Started>;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

describe('a terminal a person can read (TTY: pretty log, start ends with the banner)', () => {
  jest.setTimeout(240_000);

  beforeAll(() => {
    // the service as built, compiled once for both suites that start it (test/utils/build.ts)
    buildService(ROOT);
  });

  it('first start on a TTY: human-readable lines, the banner with the password last, no JSON after it', async () => {
    const { lines, child } = await startUnderPty({});
    try {
      const nonEmpty = lines.filter((l) => l.trim() !== '');
      const at = nonEmpty.findIndex((l) => /^\s*Password:\s+\S{16,}/.test(l));
      expect(at).toBeGreaterThan(-1);
      // among the last lines printed, and nothing logged after it
      expect(nonEmpty.length - at).toBeLessThanOrEqual(3);
      expect(nonEmpty.slice(at).some((l) => l.trimStart().startsWith('{'))).toBe(false);
      // the whole start is readable: no JSON line at all, a handful of lines rather than one per route
      expect(nonEmpty.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
      expect(nonEmpty.length).toBeLessThan(40);
      expect(nonEmpty.join('\n')).not.toMatch(/Mapped \{|dependencies initialized/);
      expect(nonEmpty.join('\n')).toMatch(/\d\d:\d\d:\d\d INFO/);
      const banner = nonEmpty.slice(at - 8).join('\n');
      expect(banner).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(banner).toContain('/API/auth/spec/ui');
      expect(banner).toContain('/oauth/authorize/');
      expect(banner).toContain('First start: super administrator admin@localhost');
    } finally {
      await stop(child);
    }
  });

  it('LOG_FORMAT=json on a TTY: every log line is JSON, the banner still ends the start', async () => {
    const { lines, child } = await startUnderPty({ LOG_FORMAT: 'json' });
    try {
      const nonEmpty = lines.filter((l) => l.trim() !== '');
      const at = nonEmpty.findIndex((l) => /^\s*Password:/.test(l));
      expect(nonEmpty.length - at).toBeLessThanOrEqual(3);
      const bannerStart = nonEmpty.findIndex((l) => /Portcullis is listening/.test(l));
      const logLines = nonEmpty.slice(0, bannerStart);
      expect(logLines.length).toBeGreaterThan(0);
      for (const l of logLines) expect(() => JSON.parse(l)).not.toThrow();
    } finally {
      await stop(child);
    }
  });
});
