import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

/** The ffmpeg binary shipped inside the registry package @ffmpeg-installer/<platform> (nothing downloaded). */
export const FFMPEG_PATH: string = ffmpegInstaller.path;

/** ffmpeg could not read the input (or found no picture in it): the job fails with this message. */
export class UnreadableMediaError extends Error {}

const TIMEOUT_MS = 120_000;

/**
 * Up to `count` JPEG keyframes of a video or image file (one per second from the start, 320 px wide), in
 * order. The input is a local path; ffmpeg runs as a child process with a time limit and no shell, its
 * output in a temporary directory removed afterwards.
 */
export async function extractKeyframes(input: string, count: number): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'portcullis-kf-'));
  try {
    const args = [
      '-nostdin',
      '-v',
      'error',
      '-i',
      input,
      '-vf',
      'fps=1,scale=320:-2',
      '-frames:v',
      String(count),
    ];
    args.push('-f', 'image2', join(dir, 'kf%03d.jpg'));
    const { code, stderr } = await run(args);
    const names = (await readdir(dir)).filter((n) => n.endsWith('.jpg')).sort();
    if (code !== 0 || names.length === 0) {
      const why = stderr.trim().split('\n').filter(Boolean).pop() ?? 'no picture found';
      throw new UnreadableMediaError(
        `ffmpeg could not read the file: ${why.replace(input, 'input').slice(0, 300)}`,
      );
    }
    return Promise.all(names.map((n) => readFile(join(dir, n))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG_PATH, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 10_000) stderr += d.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stderr });
    });
  });
}
