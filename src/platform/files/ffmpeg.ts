import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FfmpegConfig } from './ffmpeg-binary.js';
import { sandboxArgs, useSandbox } from './ffmpeg-sandbox.js';
import { JpegStreamError, splitJpegs } from './jpeg-stream.js';

/** ffmpeg could not read the input (or found no picture in it, or ran past a limit): the job fails with this message. */
export class UnreadableMediaError extends Error {}

/**
 * The demuxers ffmpeg may open a tenant's file with (`-format_whitelist`; a demuxer's name is a list such as
 * `mov,mp4,m4a,3gp,3g2,mj2`, and one name on this list admits it): containers of video and single images. None
 * of them follows a reference to another file or URL: not hls, dash, concat, imf (playlists and
 * compositions), lavfi (a filter graph can open files), sdp, rtsp or sap (network sessions), image2 (a file
 * name pattern), nor any other of ffmpeg's 350-odd demuxers. mov's own external references (drefs) stay off
 * (its `enable_drefs` default), and with no file protocol they could open nothing anyway.
 */
export const INPUT_FORMATS = [
  'mov', // mov, mp4, m4v, 3gp
  'matroska', // mkv, webm
  'avi',
  'mpegts',
  'mpeg', // program streams (.mpg, .vob)
  'flv',
  'asf', // wmv
  'ogg',
  'gif',
  'png_pipe',
  'jpeg_pipe',
  'webp_pipe',
  'bmp_pipe',
  'tiff_pipe',
];

/** The decoders ffmpeg may use (`-codec_whitelist`): common video and image codecs; no audio or subtitles. */
export const DECODERS = [
  'h264',
  'hevc',
  'vp8',
  'vp9',
  'libdav1d',
  'av1',
  'mpeg4',
  'mpeg2video',
  'mpeg1video',
  'h263',
  'flv',
  'vp6f',
  'theora',
  'wmv1',
  'wmv2',
  'wmv3',
  'vc1',
  'prores',
  'dnxhd',
  'mjpeg',
  'png',
  'apng',
  'gif',
  'webp',
  'bmp',
  'tiff',
];

/** What one ffmpeg run may use. */
export interface FfmpegLimits {
  /** CPU time (RLIMIT_CPU; SIGKILL when reached). */
  cpuSeconds: number;
  /** Address space (RLIMIT_AS): every mapping, the shared libraries' included. */
  memoryBytes: number;
  /** Open file descriptors (RLIMIT_NOFILE). */
  descriptors: number;
  /** Wall clock: the child is killed (SIGKILL) after it. */
  wallMs: number;
  /** The images on stdout, per keyframe asked for (`-fs`, and the parent stops reading past it). */
  bytesPerFrame: number;
}

export const LIMITS: FfmpegLimits = {
  cpuSeconds: 60,
  memoryBytes: 1024 ** 3,
  descriptors: 64,
  wallMs: 120_000,
  bytesPerFrame: 1024 ** 2,
};

/**
 * The largest file ffmpeg may write (RLIMIT_FSIZE): the cache protocol's copy of what it read of its input
 * (an unlinked temporary file in /tmp, what lets mov seek back in a pipe), so the input's size and a margin.
 * It writes no other file: its output is its stdout.
 */
const FSIZE_MARGIN = 1024 ** 2;

/** The input: the stored bytes as a stream, and their size (the file's recorded size). */
export interface MediaInput {
  stream: Readable;
  size: number;
}

/**
 * The command: prlimit (when there is one) running ffmpeg, and their arguments; inside bubblewrap when
 * `sandboxed` (ffmpeg-sandbox.ts).
 */
export function ffmpegCommand(
  ffmpeg: FfmpegConfig,
  count: number,
  inputSize: number,
  limits: FfmpegLimits = LIMITS,
  sandboxed = false,
): { file: string; args: string[] } {
  const inner = confined(ffmpeg, count, inputSize, limits);
  if (!sandboxed || ffmpeg.sandbox === null) return inner;
  return { file: ffmpeg.sandbox, args: [...sandboxArgs(ffmpeg.path), '--', inner.file, ...inner.args] };
}

function confined(
  ffmpeg: FfmpegConfig,
  count: number,
  inputSize: number,
  limits: FfmpegLimits,
): { file: string; args: string[] } {
  const args = [
    ...['-nostdin', '-hide_banner', '-nostats', '-loglevel', 'error'],
    // the input: stdin only (the pipe protocol), through the cache protocol so mov can seek back to its
    // samples; no file, network or other protocol, so nothing the input names can be opened
    ...['-threads', '1', '-protocol_whitelist', 'cache,pipe', '-read_ahead_limit', '-1'],
    ...['-format_whitelist', INPUT_FORMATS.join(','), '-codec_whitelist', DECODERS.join(',')],
    ...['-i', 'cache:pipe:0'],
    // one frame a second from the start (a single image too: eof_action=pass), 320 px wide, as JPEGs on stdout
    ...['-filter_threads', '1', '-filter_complex_threads', '1', '-an', '-sn', '-dn'],
    ...['-vf', 'fps=1:eof_action=pass,scale=320:-2', '-frames:v', String(count), '-threads', '1'],
    ...['-fs', String(count * limits.bytesPerFrame), '-f', 'image2pipe', '-c:v', 'mjpeg', 'pipe:1'],
  ];
  if (ffmpeg.prlimit === null) return { file: ffmpeg.path, args };
  const rlimits = [
    `--cpu=${limits.cpuSeconds}`,
    `--as=${limits.memoryBytes}`,
    `--fsize=${inputSize + FSIZE_MARGIN}`,
    `--nofile=${limits.descriptors}`,
    '--core=0',
  ];
  return { file: ffmpeg.prlimit, args: [...rlimits, '--', ffmpeg.path, ...args] };
}

/**
 * Up to `count` JPEG keyframes of a video or image (one per second from the start, 320 px wide), in order.
 * ffmpeg reads the bytes on its stdin and nothing else, through an allow-list of demuxers and decoders, with
 * one thread, an empty environment, no shell, and the limits above; the images come back on its stdout.
 * A file it cannot read, or that takes it past a limit, is an UnreadableMediaError; a failure to read the
 * stored bytes is thrown as it is (the worker retries it).
 */
export async function extractKeyframes(
  ffmpeg: FfmpegConfig,
  input: MediaInput,
  count: number,
  limits: FfmpegLimits = LIMITS,
): Promise<Buffer[]> {
  const sandboxed = await useSandbox(ffmpeg);
  const { file, args } = ffmpegCommand(ffmpeg, count, input.size, limits, sandboxed);
  // -fs stops ffmpeg after the packet that reaches count images' worth; the parent stops reading one image later
  const maxStdout = (count + 1) * limits.bytesPerFrame;
  const run = await runChild(file, args, input.stream, maxStdout, limits.wallMs);
  const why = failure(run, limits);
  if (why !== null) throw new UnreadableMediaError(`ffmpeg could not read the file: ${why}`);
  try {
    const images = splitJpegs(run.stdout).slice(0, count);
    if (images.length > 0) return images;
  } catch (err) {
    if (!(err instanceof JpegStreamError)) throw err;
    throw new UnreadableMediaError(`ffmpeg could not read the file: ${err.message}`);
  }
  throw new UnreadableMediaError(
    `ffmpeg could not read the file: ${lastError(run.stderr) ?? 'no picture found'}`,
  );
}

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
  outputExceeded: boolean;
}

/** Why the run failed, in words for the job's message; null when it exited 0 within its limits. */
function failure(run: ChildRun, limits: FfmpegLimits): string | null {
  if (run.timedOut) return `it ran past ${limits.wallMs / 1000} s`;
  if (run.outputExceeded) return `its images passed ${limits.bytesPerFrame} bytes each`;
  if (run.signal === 'SIGXCPU') return `it used ${limits.cpuSeconds} s of CPU`;
  if (run.signal === 'SIGKILL') return `it was stopped at its limits (${limits.cpuSeconds} s of CPU)`;
  if (run.signal === 'SIGXFSZ') return 'it wrote past its file-size limit';
  if (run.signal !== null) return `ffmpeg stopped on ${run.signal}`;
  if (run.code !== 0) return lastError(run.stderr) ?? `ffmpeg exited with ${run.code}`;
  return null;
}

/** The line of ffmpeg's errors that says why, without addresses, the cache protocol's notes or the input's name. */
function lastError(stderr: string): string | null {
  const refused = /\[(\S+) @ [^\]]*\] Format not on whitelist/.exec(stderr);
  if (refused) return `the ${refused[1].split(',')[0]} format is not allowed`;
  const codec = /Codec \((\S+)\) not on whitelist/.exec(stderr);
  if (codec) return `the ${codec[1]} codec is not allowed`;
  const line = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('[cache @') && !l.startsWith('Last message repeated'))
    .pop();
  if (line === undefined) return null;
  return line
    .replace(/ @ 0x[0-9a-f]+/g, '')
    .replaceAll('cache:pipe:0', 'input')
    .slice(0, 300);
}

/**
 * Runs the child with an empty environment, `input` on its stdin, and its stdout kept up to `maxStdout`
 * bytes (past them, or past `wallMs`, it is killed). A failure of `input` itself kills the child and is thrown.
 */
function runChild(
  file: string,
  args: string[],
  input: Readable,
  maxStdout: number,
  wallMs: number,
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: {}, cwd: '/', stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let timedOut = false;
    let outputExceeded = false;
    let inputError: Error | null = null;
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, wallMs);
    input.once('error', (err) => {
      inputError = err;
      kill();
    });
    // ffmpeg stops reading once it has its frames: the broken pipe that follows is no error
    pipeline(input, child.stdin).catch(() => input.destroy());
    child.stdout.on('data', (d: Buffer) => {
      outBytes += d.length;
      if (outBytes > maxStdout) {
        outputExceeded = true;
        kill();
      } else out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 20_000) stderr += d.toString('utf8');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      input.destroy();
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      input.destroy();
      if (inputError) reject(inputError);
      else resolve({ code, signal, stdout: Buffer.concat(out), stderr, timedOut, outputExceeded });
    });
  });
}
