import { accessSync, constants, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';

/**
 * Which ffmpeg makes keyframes, and the prlimit that confines it (src/platform/files/ffmpeg.ts). Read at start-up by
 * files-config.ts, so a missing or refused binary stops the start with one message:
 *
 * - FFMPEG_PATH: the absolute path of an executable ffmpeg. Unset: Debian's `/usr/bin/ffmpeg` when it is there
 *   (the Docker image installs it and sets FFMPEG_PATH).
 * - Neither, outside production only: the binary of the npm package `@ffmpeg-installer` (a static build of
 *   2018 that is never updated), a development fallback. With NODE_ENV=production it is refused, wherever it
 *   comes from, and so is a machine without prlimit (util-linux), which sets the child's limits.
 * - FFMPEG_SANDBOX: `auto` (default) runs ffmpeg inside bubblewrap when `bwrap` is installed and works here
 *   (a container whose seccomp profile forbids user namespaces: without it, and a warning); `bwrap` requires
 *   it (start refused without bwrap; a job fails rather than run outside it); `none` never.
 */
export interface FfmpegConfig {
  path: string;
  /**
   * bubblewrap (`bwrap`), the sandbox ffmpeg runs in (FFMPEG_SANDBOX, src/platform/files/ffmpeg.ts `sandboxArgs`): no
   * file of the host but the system's programs and libraries, read-only, no network, no other process;
   * null: none (FFMPEG_SANDBOX=none, or auto without bwrap installed).
   */
  sandbox: string | null;
  /** FFMPEG_SANDBOX=bwrap: a sandbox that does not work is an error, never a run without it. */
  sandboxRequired: boolean;
  /** FFMPEG_SANDBOX=none: the operator chose to run ffmpeg without a sandbox (no warning about it). */
  sandboxDeclined: boolean;
  /** prlimit (util-linux): the child's CPU, memory, file-size and descriptor limits; null: none found (development only). */
  prlimit: string | null;
  /** The path is the npm package's 2018 build: the development fallback. */
  packaged: boolean;
}

export const SYSTEM_FFMPEG = '/usr/bin/ffmpeg';
const BWRAP = ['/usr/bin/bwrap', '/bin/bwrap'];
const SANDBOX_MODES = ['auto', 'bwrap', 'none'] as const;
const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'];
const INSTALL = 'install a maintained ffmpeg (Debian: apt-get install ffmpeg) or set FFMPEG_PATH';

/** What the resolution looks at, replaceable in tests: whether a path is an executable file, the npm binary. */
export interface FfmpegProbe {
  executable(path: string): boolean;
  packagedPath(): string | null;
}

const realProbe: FfmpegProbe = {
  executable(path) {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  packagedPath() {
    try {
      // loaded only when no maintained ffmpeg is there (a tree without the package has no fallback)
      const require = createRequire(import.meta.url);
      const installer = require('@ffmpeg-installer/ffmpeg') as { path: string };
      return installer.path;
    } catch {
      return null;
    }
  },
};

export function loadFfmpegConfig(
  env: NodeJS.ProcessEnv,
  problems: string[],
  probe: FfmpegProbe = realProbe,
): FfmpegConfig {
  const production = env.NODE_ENV === 'production';
  const prlimit = PRLIMIT.find((p) => probe.executable(p)) ?? null;
  if (production && prlimit === null) {
    problems.push(
      'prlimit (util-linux) was not found in /usr/bin or /bin: with NODE_ENV=production ffmpeg runs only under its CPU, memory and file-size limits',
    );
  }
  const given = env.FFMPEG_PATH?.trim() || null;
  let path: string | null = null;
  if (given !== null) {
    if (!isAbsolute(given) || !probe.executable(given)) {
      problems.push(`FFMPEG_PATH must be the absolute path of an executable ffmpeg (got "${given}")`);
    } else path = given;
  } else if (probe.executable(SYSTEM_FFMPEG)) {
    path = SYSTEM_FFMPEG;
  } else if (production) {
    problems.push(`No ffmpeg for keyframes: ${INSTALL} (${SYSTEM_FFMPEG} is not there)`);
  } else {
    path = probe.packagedPath();
    if (path === null) problems.push(`No ffmpeg for keyframes: ${INSTALL}`);
  }
  const packaged = path !== null && isPackaged(path);
  if (production && packaged) {
    problems.push(
      `FFMPEG_PATH: the npm package's ffmpeg (@ffmpeg-installer, a 2018 build) is refused with NODE_ENV=production: ${INSTALL}`,
    );
  }
  const mode = (env.FFMPEG_SANDBOX?.trim() || 'auto') as (typeof SANDBOX_MODES)[number];
  if (!SANDBOX_MODES.includes(mode))
    problems.push(`FFMPEG_SANDBOX must be one of ${SANDBOX_MODES.join(', ')} (got "${mode}")`);
  const bwrap = mode === 'none' ? null : (BWRAP.find((p) => probe.executable(p)) ?? null);
  if (mode === 'bwrap' && bwrap === null)
    problems.push(
      'FFMPEG_SANDBOX=bwrap: bubblewrap was not found in /usr/bin or /bin (Debian: apt-get install bubblewrap)',
    );
  return {
    path: path ?? SYSTEM_FFMPEG,
    prlimit,
    packaged,
    sandbox: bwrap,
    sandboxRequired: mode === 'bwrap',
    sandboxDeclined: mode === 'none',
  };
}

/** The path (or what a link at it points to) is inside an @ffmpeg-installer package. */
function isPackaged(path: string): boolean {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // a probe's invented path in tests: judged as written
  }
  return [path, real].some((p) => p.includes('/@ffmpeg-installer/'));
}
