import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { Logger } from '@nestjs/common';
import type { FfmpegConfig } from './ffmpeg-binary.js';

/**
 * The sandbox ffmpeg runs in when bubblewrap is there (FFMPEG_SANDBOX, ffmpeg-binary.ts): a decoder bug that a
 * tenant's bytes exploit runs in a world of its own, not with the service's files and processes.
 * - files: the system's programs and libraries (/usr, and the few files of /etc the loader reads) read-only,
 *   the ffmpeg binary's own directory read-only when it lives elsewhere, an empty /tmp (the cache protocol's
 *   copy of the input), /dev's null, zero and random devices, its own /proc; nothing of DATA_DIR, the stored
 *   files, the service's code or configuration;
 * - no network, no other process (its own pid namespace: not even the service's /proc/<pid>/environ), no
 *   capabilities, no controlling terminal, an empty environment (bwrap itself is started with none), and it
 *   dies with the service.
 * prlimit runs inside it and sets the limits of ffmpeg.ts; stdin and stdout stay the pipes to the service.
 */
export function sandboxArgs(ffmpegPath: string): string[] {
  const args = [
    ...['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--clearenv'],
    ...['--ro-bind', '/usr', '/usr', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64'],
    ...['--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin'],
    ...['--ro-bind-try', '/etc/alternatives', '/etc/alternatives'],
    ...['--ro-bind-try', '/etc/ld.so.cache', '/etc/ld.so.cache'],
    ...['--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--chdir', '/'],
  ];
  for (const dir of new Set([dirname(ffmpegPath), dirname(real(ffmpegPath))])) {
    if (dir !== '/usr' && !dir.startsWith('/usr/')) args.push('--ro-bind', dir, dir);
  }
  return args;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const logger = new Logger('Keyframes');
const PROBE_TIMEOUT_MS = 10_000;
const usable = new Map<string, Promise<boolean>>();

/**
 * Whether ffmpeg runs sandboxed: bwrap is configured and works on this machine (tried once per process: a
 * container whose seccomp profile forbids user namespaces refuses it). Auto without a working bwrap runs
 * unsandboxed, once warned; FFMPEG_SANDBOX=bwrap throws instead (the job is retried, never run unsandboxed).
 */
export async function useSandbox(ffmpeg: FfmpegConfig): Promise<boolean> {
  if (ffmpeg.sandbox === null) return false;
  const key = `${ffmpeg.sandbox}\0${ffmpeg.path}`;
  let works = usable.get(key);
  if (!works) {
    works = tryOnce(ffmpeg.sandbox, [
      ...sandboxArgs(ffmpeg.path),
      '--',
      ffmpeg.path,
      '-hide_banner',
      '-version',
    ]);
    usable.set(key, works);
  }
  if (await works) return true;
  if (ffmpeg.sandboxRequired)
    throw new Error(`FFMPEG_SANDBOX=bwrap, but ${ffmpeg.sandbox} cannot run ffmpeg on this machine`);
  return false;
}

function tryOnce(file: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: {}, stdio: ['ignore', 'ignore', 'pipe'] });
    // `ffmpeg -version` answers at once; a sandbox that hangs counts as one that does not work
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 2000) stderr += d.toString('utf8');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      logger.warn(`bubblewrap could not start (${err.message}): ffmpeg runs without its sandbox`);
      resolve(false);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0)
        logger.warn(
          `bubblewrap refused to run ffmpeg here (${stderr.trim().split('\n').pop() ?? `exit ${code}`}): ffmpeg runs without its sandbox (docs/files-and-upload.md)`,
        );
      resolve(code === 0);
    });
  });
}
