import { createHash } from 'node:crypto';
import { UploadDigests } from './upload-digests.js';

const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

describe('UploadDigests', () => {
  it('hands a running hash only to a chunk starting where it stopped, once', () => {
    const d = new UploadDigests();
    const hash = d.take('f', 0)!.update('abc');
    d.keep('f', 3, hash, false);
    expect(d.take('f', 2)).toBeNull();
    // taken out by the chunk at 2, even though it could not use it
    expect(d.take('f', 3)).toBeNull();
    d.keep('f', 3, createHash('sha256').update('abc'), false);
    expect(d.take('f', 3)?.update('def').digest('hex')).toBe(sha('abcdef').slice(7));
    expect(d.take('f', 6)).toBeNull();
  });

  it('a complete upload keeps its checksum at its size; a chunk at 0 always starts afresh', () => {
    const d = new UploadDigests();
    d.keep('f', 5, d.take('f', 0)!.update('hello'), true);
    expect(d.checksum('f', 4)).toBeNull();
    expect(d.checksum('f', 5)).toBe(sha('hello'));
    expect(d.take('f', 0)?.digest('hex')).toBe(sha('').slice(7));
    expect(d.checksum('f', 5)).toBeNull();
  });

  it('an upload whose chunks never named the total closes on a copy of its running hash', () => {
    const d = new UploadDigests();
    d.keep('f', 5, d.take('f', 0)!.update('hello'), false);
    expect(d.checksum('f', 5)).toBe(sha('hello'));
    // the running hash itself goes on
    expect(d.take('f', 5)?.update(' world').digest('hex')).toBe(sha('hello world').slice(7));
  });

  it('keeps a bounded number of uploads, the least recently moved going first', () => {
    const d = new UploadDigests();
    for (let i = 0; i <= 4096; i++) d.keep(`f${i}`, 1, createHash('sha256').update('x'), true);
    expect(d.checksum('f0', 1)).toBeNull();
    expect(d.checksum('f1', 1)).toBe(sha('x'));
    expect(d.checksum('f4096', 1)).toBe(sha('x'));
  });
});
