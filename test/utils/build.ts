import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STALE_MS = 180_000;

/** Blocks this thread for `ms` (the suites' beforeAll hooks are synchronous here). */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * The service as built (`dist/`), for the suites that start it as a process (graceful-stop, terminal). `tsc -b`
 * compiles only what changed; two workers asking at once would compile the same tree twice side by side, so a
 * lock directory lets one build while the other waits, then finds the build up to date. A lock left by a
 * killed run is taken over after three minutes.
 */
export function buildService(root: string): void {
  const lock = join(
    tmpdir(),
    `portcullis-build-${createHash('sha256').update(root).digest('hex').slice(0, 12)}.lock`,
  );
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile: try again
      }
      pause(200);
    }
  }
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.build.json'], {
      cwd: root,
    });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
