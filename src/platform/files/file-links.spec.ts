import type { Clock } from '../../base/common/clock.js';
import type { AppConfig } from '../../app/config.js';
import { parseByteRange, parseContentRange } from './content-range.js';
import { FileLinks } from './file-links.js';

const ID = '0a1b2c3d-0000-4000-8000-000000000001';
const OTHER = '0a1b2c3d-0000-4000-8000-000000000002';

function links(secret = 'a-service-secret-of-at-least-32-characters', nowMs = 1_800_000_000_000) {
  const clock = { now: () => new Date(nowMs) } as Clock;
  const config = {
    auth: { keyEncryptionSecret: secret },
    database: { dataDir: 'memory://' },
    http: { publicBaseUrl: 'https://files.example' },
    files: { uploadUrlTtlSeconds: 3600, downloadUrlTtlSeconds: 900 },
  } as unknown as AppConfig;
  return new FileLinks(config, config.files, clock);
}
const parts = (url: string) => {
  const u = new URL(url);
  return { expires: u.searchParams.get('expires'), signature: u.searchParams.get('signature') };
};

describe('FileLinks', () => {
  it('a link verifies for its purpose and id only', () => {
    const l = links();
    const { expires, signature } = parts(l.uploadUrl(ID));
    expect(l.verify('upload', ID, expires, signature)).toBe(true);
    expect(l.verify('upload', OTHER, expires, signature)).toBe(false);
    expect(l.verify('file', ID, expires, signature)).toBe(false);
    expect(l.verify('upload', ID, String(Number(expires) + 1), signature)).toBe(false);
    expect(l.verify('upload', ID, expires, `${signature}x`)).toBe(false);
    expect(l.verify('upload', ID, expires, undefined)).toBe(false);
    expect(l.verify('upload', ID, [expires], signature)).toBe(false);
    expect(l.verify('upload', ID, '1e12', signature)).toBe(false);
  });

  it('expires, and another secret never verifies', () => {
    const { expires, signature } = parts(links().fileDownloadUrl(ID));
    expect(links(undefined, 1_800_000_000_000 + 899_000).verify('file', ID, expires, signature)).toBe(true);
    expect(links(undefined, 1_800_000_000_000 + 900_000).verify('file', ID, expires, signature)).toBe(false);
    expect(links('another-service-secret-of-32-characters!').verify('file', ID, expires, signature)).toBe(
      false,
    );
  });
});

describe('Content-Range and Range', () => {
  it('parses chunks and status queries; refuses the rest', () => {
    expect(parseContentRange('bytes 0-9/10')).toEqual({ kind: 'chunk', start: 0, end: 9, total: 10 });
    expect(parseContentRange('bytes 10-19/*')).toEqual({ kind: 'chunk', start: 10, end: 19, total: null });
    expect(parseContentRange('bytes */10')).toEqual({ kind: 'status', total: 10 });
    expect(parseContentRange('bytes */*')).toEqual({ kind: 'status', total: null });
    for (const bad of [
      'bytes 9-0/10',
      'bytes 0-10/10',
      'bytes=0-9/10',
      'bytes 0-9',
      'bytes -1-9/10',
      'bytes 0-99999999999999999/*',
    ])
      expect(parseContentRange(bad)).toBeNull();
  });

  it('answers one download range, or unsatisfiable, or ignores it', () => {
    expect(parseByteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseByteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseByteRange(undefined, 100)).toBeNull();
  });
});
