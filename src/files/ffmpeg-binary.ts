import { accessSync, constants, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';

/**
 * Which ffmpeg makes keyframes, and the prlimit that confines it (src/files/ffmpeg.ts). Read at start-up by
 * files-config.ts, so a missing or refused binary stops the start with one message:
 *
 * - FFMPEG_PATH: the absolute path of an executable ffmpeg. Unset: Debian's `/usr/bin/ffmpeg` when it is there
 *   (the Docker image installs it and sets FFMPEG_PATH).
 * - Neither, outside production only: the binary of the npm package `@ffmpeg-installer` (a static build of
 *   2018 that is never updated), a development fallback. With NODE_ENV=production it is refused, wherever it
 *   comes from, and so is a machine without prlimit (util-linux), which sets the child's limits.
 */
export interface FfmpegConfig {
  path: string;
  /** prlimit (util-linux): the child's CPU, memory, file-size and descriptor limits; null: none found (development only). */
  prlimit: string | null;
  /** The path is the npm package's 2018 build: the development fallback. */
  packaged: boolean;
}

export const SYSTEM_FFMPEG = '/usr/bin/ffmpeg';
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
  return { path: path ?? SYSTEM_FFMPEG, prlimit, packaged };
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
