import { createRequire } from 'node:module';
import { ConfigError } from '../../base/config/config.js';
import { loadConfig } from '../../app/config.js';
import { type FfmpegProbe, loadFfmpegConfig, SYSTEM_FFMPEG } from './ffmpeg-binary.js';

const PACKAGED = '/app/node_modules/@ffmpeg-installer/linux-x64/ffmpeg';

/** A machine with these executables (and the npm package's binary, unless `npm` is false). */
const machine = (executables: string[], npm = true): FfmpegProbe => ({
  executable: (p) => executables.includes(p),
  packagedPath: () => (npm ? PACKAGED : null),
});

const resolve = (env: Record<string, string>, probe: FfmpegProbe) => {
  const problems: string[] = [];
  return { ...loadFfmpegConfig(env, problems, probe), problems };
};

describe('which ffmpeg makes keyframes (FFMPEG_PATH)', () => {
  const debian = machine([SYSTEM_FFMPEG, '/usr/bin/prlimit']);

  it('Debian’s /usr/bin/ffmpeg by default, with prlimit', () => {
    for (const NODE_ENV of ['production', 'development']) {
      expect(resolve({ NODE_ENV }, debian)).toEqual({
        path: SYSTEM_FFMPEG,
        prlimit: '/usr/bin/prlimit',
        packaged: false,
        sandbox: null,
        sandboxRequired: false,
        sandboxDeclined: false,
        problems: [],
      });
    }
  });

  it('FFMPEG_SANDBOX: auto uses bubblewrap when installed, bwrap requires it, none never', () => {
    const sandboxed = machine([SYSTEM_FFMPEG, '/usr/bin/prlimit', '/usr/bin/bwrap']);
    expect(resolve({}, sandboxed)).toMatchObject({ sandbox: '/usr/bin/bwrap', sandboxRequired: false });
    expect(resolve({ FFMPEG_SANDBOX: 'bwrap' }, sandboxed)).toMatchObject({
      sandbox: '/usr/bin/bwrap',
      sandboxRequired: true,
      problems: [],
    });
    expect(resolve({ FFMPEG_SANDBOX: 'none' }, sandboxed)).toMatchObject({
      sandbox: null,
      sandboxDeclined: true,
      problems: [],
    });
    expect(resolve({ FFMPEG_SANDBOX: 'auto' }, debian)).toMatchObject({ sandbox: null, problems: [] });
    expect(resolve({ FFMPEG_SANDBOX: 'bwrap' }, debian).problems).toEqual([
      'FFMPEG_SANDBOX=bwrap: bubblewrap was not found in /usr/bin or /bin (Debian: apt-get install bubblewrap)',
    ]);
    expect(resolve({ FFMPEG_SANDBOX: 'firejail' }, sandboxed).problems).toEqual([
      'FFMPEG_SANDBOX must be one of auto, bwrap, none (got "firejail")',
    ]);
  });

  it('FFMPEG_PATH when set: an absolute path to an executable', () => {
    const custom = machine(['/opt/ffmpeg/bin/ffmpeg', SYSTEM_FFMPEG, '/bin/prlimit']);
    expect(resolve({ FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg', NODE_ENV: 'production' }, custom)).toMatchObject({
      path: '/opt/ffmpeg/bin/ffmpeg',
      prlimit: '/bin/prlimit',
      problems: [],
    });
    for (const bad of ['ffmpeg', './ffmpeg', '/opt/missing/ffmpeg']) {
      expect(resolve({ FFMPEG_PATH: bad }, custom).problems).toEqual([
        `FFMPEG_PATH must be the absolute path of an executable ffmpeg (got "${bad}")`,
      ]);
    }
  });

  it('the npm package’s 2018 build only as a development fallback, refused in production', () => {
    const bare = machine(['/usr/bin/prlimit']);
    expect(resolve({ NODE_ENV: 'test' }, bare)).toEqual({
      path: PACKAGED,
      prlimit: '/usr/bin/prlimit',
      packaged: true,
      sandbox: null,
      sandboxRequired: false,
      sandboxDeclined: false,
      problems: [],
    });
    expect(resolve({ NODE_ENV: 'production' }, bare).problems).toEqual([
      expect.stringMatching(/^No ffmpeg for keyframes: install a maintained ffmpeg .* or set FFMPEG_PATH/),
    ]);
    // named outright, it is refused too
    const named = machine([PACKAGED, '/usr/bin/prlimit']);
    expect(resolve({ NODE_ENV: 'production', FFMPEG_PATH: PACKAGED }, named).problems).toEqual([
      expect.stringMatching(
        /^FFMPEG_PATH: the npm package's ffmpeg \(@ffmpeg-installer, a 2018 build\) is refused/,
      ),
    ]);
    expect(resolve({ NODE_ENV: 'test' }, machine([], false)).problems).toEqual([
      expect.stringMatching(/^No ffmpeg for keyframes/),
    ]);
  });

  it('production refuses to run ffmpeg without prlimit; development runs it without limits', () => {
    const noPrlimit = machine([SYSTEM_FFMPEG]);
    expect(resolve({ NODE_ENV: 'production' }, noPrlimit).problems).toEqual([
      expect.stringMatching(/^prlimit \(util-linux\) was not found/),
    ]);
    expect(resolve({ NODE_ENV: 'development' }, noPrlimit)).toMatchObject({ prlimit: null, problems: [] });
  });

  it('the start stops on it: loadConfig names FFMPEG_PATH', () => {
    const packaged = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    const start = () => loadConfig({ DATA_DIR: 'memory://', NODE_ENV: 'production', FFMPEG_PATH: packaged });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/FFMPEG_PATH: the npm package's ffmpeg/);
    expect(loadConfig({ DATA_DIR: 'memory://', FFMPEG_PATH: packaged }).files.ffmpeg.packaged).toBe(true);
  });
});
