import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type FfmpegConfig, loadFfmpegConfig } from './ffmpeg-binary.js';
import {
  DECODERS,
  extractKeyframes,
  ffmpegCommand,
  INPUT_FORMATS,
  LIMITS,
  UnreadableMediaError,
} from './ffmpeg.js';

const real = loadFfmpegConfig(process.env, []);
const input = (bytes: Buffer) => ({ stream: Readable.from([bytes]), size: bytes.length });
const isJpeg = (b: Buffer) =>
  b.subarray(0, 2).equals(Buffer.from([0xff, 0xd8])) && b.subarray(-2).equals(Buffer.from([0xff, 0xd9]));

/**
 * How ffmpeg runs (issue item 3): the real spawn path with a fake "ffmpeg" that reports what it was given
 * (environment, arguments, limits, stdin), and the real ffmpeg against its limits and a playlist.
 */
describe('ffmpeg: the child keyframes run in', () => {
  let dir: string;
  let video: Buffer;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-ffmpeg-spec-'));
    // 3 s of test pattern, H.264 in MP4 with its moov atom at the end (ffmpeg's default): read from a pipe,
    // mov must seek back to the samples
    const path = join(dir, 'clip.mp4');
    execFileSync(real.path, [
      ...['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=3:size=320x240:rate=25'],
      ...['-pix_fmt', 'yuv420p', '-y', path],
    ]);
    video = readFileSync(path);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('a fake ffmpeg that reports what it got', () => {
    const SECRETS = {
      KEY_ENCRYPTION_SECRET: 'kes-0123456789-0123456789-0123456789',
      DATABASE_URL: 'postgresql://portcullis:db-password@db.internal/portcullis',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-0123456789',
    };
    const saved: Record<string, string | undefined> = {};

    beforeAll(() => {
      for (const [k, v] of Object.entries(SECRETS)) {
        saved[k] = process.env[k];
        process.env[k] = v;
      }
    });
    afterAll(() => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });

    /** A shell script standing in for ffmpeg: writes its environment, arguments, limits and stdin to `out`. */
    const fake = (out: string, extra = ''): FfmpegConfig => {
      const path = join(dir, `fake-ffmpeg-${Math.random().toString(36).slice(2)}`);
      writeFileSync(
        path,
        [
          '#!/bin/sh',
          `cat /proc/$$/environ > '${out}.env'`,
          `for a in "$@"; do printf '%s\\n' "$a"; done > '${out}.args'`,
          `cat /proc/self/limits > '${out}.limits'`,
          `cat > '${out}.stdin'`,
          extra,
          'echo "fake: nothing to see" >&2',
          'exit 1',
          '',
        ].join('\n'),
      );
      chmodSync(path, 0o755);
      // outside the sandbox: these check what ffmpeg.ts itself gives the child (the sandbox has its own tests)
      return { ...loadFfmpegConfig({ ...process.env, FFMPEG_PATH: path }, []), path, sandbox: null };
    };

    it('gets an empty environment: no secret of the service’s', async () => {
      const out = join(dir, 'env-check');
      await expect(extractKeyframes(fake(out), input(video), 5)).rejects.toThrow(UnreadableMediaError);
      const environ = readFileSync(`${out}.env`, 'utf8');
      expect(environ).toBe('');
      for (const secret of Object.values(SECRETS)) expect(environ).not.toContain(secret);
      // and what it read on stdin is the input, whole
      expect(readFileSync(`${out}.stdin`).equals(video)).toBe(true);
    });

    it('is given its input on stdin only, the allow-lists and one thread', async () => {
      const out = join(dir, 'args-check');
      await expect(extractKeyframes(fake(out), input(video), 4)).rejects.toThrow(
        'ffmpeg could not read the file: fake: nothing to see',
      );
      const args = readFileSync(`${out}.args`, 'utf8').trim().split('\n');
      const after = (flag: string) => args[args.indexOf(flag) + 1];
      expect(after('-i')).toBe('cache:pipe:0');
      expect(args.filter((a) => a === '-i')).toHaveLength(1);
      expect(after('-protocol_whitelist')).toBe('cache,pipe');
      const formats = after('-format_whitelist').split(',');
      expect(formats).toEqual(INPUT_FORMATS);
      for (const following of [
        'hls',
        'applehttp',
        'dash',
        'concat',
        'imf',
        'lavfi',
        'image2',
        'sdp',
        'rtsp',
      ]) {
        expect(formats).not.toContain(following);
      }
      expect(after('-codec_whitelist')).toBe(DECODERS.join(','));
      // the decoder's (before -i) and the encoder's
      expect(args.flatMap((a, i) => (a === '-threads' ? [args[i + 1]] : []))).toEqual(['1', '1']);
      expect(after('-filter_threads')).toBe('1');
      expect(after('-frames:v')).toBe('4');
      expect(after('-fs')).toBe(String(4 * LIMITS.bytesPerFrame));
      expect(args.at(-1)).toBe('pipe:1');
      expect(args).toContain('-nostdin');
    });

    it('runs under its CPU, memory, file-size and descriptor limits (prlimit)', async () => {
      expect(real.prlimit).not.toBeNull();
      const out = join(dir, 'limits-check');
      await expect(extractKeyframes(fake(out), input(video), 5)).rejects.toThrow(UnreadableMediaError);
      const limits = readFileSync(`${out}.limits`, 'utf8');
      const limit = (name: string) => new RegExp(`^${name}\\s+(\\S+)\\s+(\\S+)`, 'm').exec(limits)?.slice(1);
      expect(limit('Max cpu time')).toEqual([String(LIMITS.cpuSeconds), String(LIMITS.cpuSeconds)]);
      expect(limit('Max address space')).toEqual([String(LIMITS.memoryBytes), String(LIMITS.memoryBytes)]);
      const fsize = String(video.length + 1024 ** 2);
      expect(limit('Max file size')).toEqual([fsize, fsize]);
      expect(limit('Max open files')).toEqual([String(LIMITS.descriptors), String(LIMITS.descriptors)]);
      expect(limit('Max core file size')).toEqual(['0', '0']);
    });

    it('is killed past its wall-clock limit', async () => {
      const slow = fake(join(dir, 'slow'), 'exec sleep 30');
      const started = Date.now();
      await expect(extractKeyframes(slow, input(video), 5, { ...LIMITS, wallMs: 300 })).rejects.toThrow(
        'ffmpeg could not read the file: it ran past 0.3 s',
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('is killed past its CPU limit', async () => {
      const busy = fake(join(dir, 'busy'), 'while :; do :; done');
      await expect(extractKeyframes(busy, input(video), 5, { ...LIMITS, cpuSeconds: 1 })).rejects.toThrow(
        'ffmpeg could not read the file: it was stopped at its limits (1 s of CPU)',
      );
    });

    it('a failure to read the stored bytes is thrown as it is (the worker retries it)', async () => {
      const broken = new Readable({
        read() {
          this.destroy(new Error('storage went away'));
        },
      });
      await expect(
        extractKeyframes(fake(join(dir, 'broken')), { stream: broken, size: 10 }, 5),
      ).rejects.toThrow('storage went away');
    });
  });

  describe('the real ffmpeg', () => {
    it('gives one JPEG a second of a video whose moov atom comes last', async () => {
      const images = await extractKeyframes(real, input(video), 5);
      expect(images).toHaveLength(3);
      for (const image of images) expect(isJpeg(image)).toBe(true);
    });

    it('gives a single keyframe of a still image', async () => {
      const png = join(dir, 'still.png');
      execFileSync(real.path, [
        '-nostdin',
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc',
        '-frames:v',
        '1',
        '-y',
        png,
      ]);
      const images = await extractKeyframes(real, input(readFileSync(png)), 5);
      expect(images).toHaveLength(1);
      expect(isJpeg(images[0])).toBe(true);
    });

    it('refuses a playlist naming a local file: the demuxer is not on the allow-list', async () => {
      const mp4 = join(dir, 'clip.mp4');
      const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:3.0,\n${mp4}\n#EXT-X-ENDLIST\n`;
      await expect(extractKeyframes(real, input(Buffer.from(playlist)), 5)).rejects.toThrow(
        'ffmpeg could not read the file: the hls format is not allowed',
      );
    });

    it('with the hls demuxer allowed, the protocol allow-list still opens no file', () => {
      // hls opens only file and http URLs itself: a file: URL reaches the protocol layer, which refuses it
      const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:3.0,\nfile:${join(dir, 'clip.mp4')}\n#EXT-X-ENDLIST\n`;
      const { args } = ffmpegCommand({ ...real, prlimit: null }, 5, playlist.length);
      args[args.indexOf('-format_whitelist') + 1] = 'hls,mov';
      const run = (protocols: string) => {
        args[args.indexOf('-protocol_whitelist') + 1] = protocols;
        return spawnSync(real.path, args, { input: playlist, env: {} });
      };
      const refused = run('cache,pipe');
      expect(refused.stdout.length).toBe(0);
      expect(refused.stderr.toString()).toContain("Protocol 'file' not on whitelist 'cache,pipe'");
      // the control: with the file protocol allowed, the frames of the named file come out
      expect(run('cache,pipe,file').stdout.length).toBeGreaterThan(0);
    });

    it('fails past its memory limit', async () => {
      await expect(
        extractKeyframes(real, input(video), 5, { ...LIMITS, memoryBytes: 64 * 1024 ** 2 }),
      ).rejects.toThrow(UnreadableMediaError);
    });

    it('fails past its output limit', async () => {
      await expect(
        extractKeyframes(real, input(video), 5, { ...LIMITS, bytesPerFrame: 1000 }),
      ).rejects.toThrow('ffmpeg could not read the file: its images passed 1000 bytes each');
    });
  });
});
