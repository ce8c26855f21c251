import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type FfmpegConfig, loadFfmpegConfig } from './ffmpeg-binary.js';
import { sandboxArgs, useSandbox } from './ffmpeg-sandbox.js';
import { extractKeyframes, UnreadableMediaError } from './ffmpeg.js';

const real = loadFfmpegConfig(process.env, []);
// CI installs bubblewrap (.ci/run): there, a machine without a working sandbox fails these tests rather than
// skipping them; elsewhere (a developer's machine without bwrap) the tests of a real sandbox are skipped
const haveBwrap = real.sandbox !== null;
if (process.env.CI === 'true' && !haveBwrap) throw new Error('CI: bubblewrap (bwrap) is not installed');
const withBwrap = haveBwrap ? it : it.skip;

describe('the sandbox keyframes’ ffmpeg runs in (bubblewrap)', () => {
  it('shares nothing but the system’s programs, read-only: no network, no process, no capability, no environment', () => {
    const args = sandboxArgs('/usr/bin/ffmpeg');
    for (const flag of ['--unshare-all', '--die-with-parent', '--new-session', '--clearenv'])
      expect(args).toContain(flag);
    expect(args.join(' ')).toContain('--cap-drop ALL');
    const binds = args.flatMap((a, i) => (a.startsWith('--') && a.includes('bind') ? [args[i + 1]] : []));
    expect(binds).toEqual(['/usr', '/etc/alternatives', '/etc/ld.so.cache']);
    expect(args.join(' ')).toContain('--tmpfs /tmp');
  });

  it('adds the binary’s own directory, read-only, when it lives outside /usr', () => {
    const args = sandboxArgs('/opt/ffmpeg/bin/ffmpeg');
    expect(args.join(' ')).toContain('--ro-bind /opt/ffmpeg/bin /opt/ffmpeg/bin');
    expect(args).not.toContain('--bind');
  });

  describe('on this machine', () => {
    let dir: string;
    let secrets: string;

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'portcullis-sandbox-bin-'));
      secrets = mkdtempSync(join(tmpdir(), 'portcullis-sandbox-secret-'));
      writeFileSync(join(secrets, 'key'), 'the-service-secret');
      process.env.PORTCULLIS_SANDBOX_SPEC_SECRET = 'an-environment-secret';
    });
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(secrets, { recursive: true, force: true });
      delete process.env.PORTCULLIS_SANDBOX_SPEC_SECRET;
    });

    /** A stand-in for ffmpeg that answers -version, and otherwise reports on stderr what it can reach. */
    function spy(): FfmpegConfig {
      const path = join(dir, `ffmpeg-${Math.random().toString(36).slice(2)}`);
      const line = [
        `secret=[$(cat '${join(secrets, 'key')}' 2>/dev/null || echo unreadable)]`,
        `service=[$(ls '${process.cwd()}' 2>/dev/null | head -c 40 || true)]`,
        `pid1=[$(tr '\\0' ' ' < /proc/1/environ)]`,
        `self=[$(tr '\\0' ' ' < /proc/self/environ)]`,
        `processes=[$(ls /proc | grep -c '^[0-9]')]`,
        `servicepid=[$(tr '\\0' ' ' < /proc/${process.pid}/cmdline 2>/dev/null || true)]`,
        `tmp=[$(touch /tmp/x && echo writable)]`,
        `usr=[$(touch /usr/x 2>/dev/null && echo writable || echo read-only)]`,
      ].join(' ');
      writeFileSync(
        path,
        [
          '#!/bin/sh',
          'if [ "$2" = "-version" ]; then echo "ffmpeg version spy"; exit 0; fi',
          `echo "report ${line}" >&2`,
          'exit 1',
          '',
        ].join('\n'),
      );
      chmodSync(path, 0o755);
      return { ...real, path, sandboxRequired: true };
    }

    withBwrap('the real ffmpeg runs in it', async () => {
      expect(await useSandbox(real)).toBe(true);
    });

    withBwrap('a process in it reads no file of the service, no secret, sees no other process', async () => {
      const bytes = Buffer.from('not a video');
      const run = extractKeyframes(spy(), { stream: Readable.from([bytes]), size: bytes.length }, 1);
      await expect(run).rejects.toThrow(UnreadableMediaError);
      const report: string = await run.then(
        () => '',
        (e: Error) => e.message,
      );
      expect(report).toContain('secret=[unreadable]');
      expect(report).toContain('service=[]');
      expect(report).toContain('pid1=[]');
      expect(report).toContain('self=[]');
      expect(report).not.toContain('an-environment-secret');
      // bwrap's own init, the spy and its subshells: nothing of the host, the service least of all
      expect(Number(/processes=\[(\d+)\]/.exec(report)?.[1])).toBeLessThan(10);
      expect(report).toContain('servicepid=[]');
      expect(report).toContain('tmp=[writable]');
      expect(report).toContain('usr=[read-only]');
    });

    withBwrap('FFMPEG_SANDBOX=bwrap never runs ffmpeg outside a sandbox that fails', async () => {
      const broken: FfmpegConfig = { ...real, sandbox: join(dir, 'no-such-bwrap'), sandboxRequired: true };
      await expect(useSandbox(broken)).rejects.toThrow(/FFMPEG_SANDBOX=bwrap/);
      expect(await useSandbox({ ...broken, sandboxRequired: false })).toBe(false);
    });
  });
});
