import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { ChunkTooLargeError, objectKey } from './byte-store.js';
import { LocalByteStore } from './local-byte-store.js';

const ID = '0a1b2c3d-0000-4000-8000-000000000001';

describe('LocalByteStore', () => {
  let dir: string;
  let store: LocalByteStore;
  const key = objectKey.file(ID);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lbs-'));
    store = new LocalByteStore(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes chunks at their offsets', async () => {
    await store.startUpload(key);
    const state = { key, offset: 0, multipartUploadId: null, parts: [] };
    expect(await store.writeChunk(state, Readable.from([Buffer.from('hello ')]), 6)).toEqual({ written: 6 });
    expect(await store.writeChunk({ ...state, offset: 6 }, Readable.from([Buffer.from('world')]), 5)).toEqual(
      {
        written: 5,
      },
    );
    expect(readFileSync(store.path(key), 'utf8')).toBe('hello world');
  });

  it('keeps what arrived before the client went away, and nothing past it', async () => {
    const body = new PassThrough();
    const written = store.writeChunk({ key, offset: 0, multipartUploadId: null, parts: [] }, body, 100);
    body.write(Buffer.alloc(40, 1));
    await new Promise((r) => setTimeout(r, 100));
    body.destroy(new Error('aborted'));
    expect(await written).toEqual({ written: 40 });
    expect(readFileSync(store.path(key)).length).toBe(40);
  });

  it('refuses a chunk carrying more than its length, keeping nothing of it', async () => {
    await store.writeChunk(
      { key, offset: 0, multipartUploadId: null, parts: [] },
      Readable.from([Buffer.from('abc')]),
      3,
    );
    await expect(
      store.writeChunk(
        { key, offset: 3, multipartUploadId: null, parts: [] },
        Readable.from([Buffer.alloc(10)]),
        5,
      ),
    ).rejects.toBeInstanceOf(ChunkTooLargeError);
    expect(readFileSync(store.path(key), 'utf8')).toBe('abc');
  });

  it('writes a body of many pieces in order, past its batches, showing each piece to observe', async () => {
    // 6 MiB in 3000 pieces of uneven sizes: several writes, the body paused while they are in flight
    const pieces = Array.from({ length: 3000 }, (_, i) => randomBytes(1000 + ((i * 37) % 2000)));
    const all = Buffer.concat(pieces);
    const seen = createHash('sha256');
    let observed = 0;
    const state = { key, offset: 7, multipartUploadId: null, parts: [] };
    await store.writeChunk({ ...state, offset: 0 }, Readable.from([Buffer.from('0123456')]), 7);
    const result = await store.writeChunk(state, Readable.from(pieces), all.length, (piece) => {
      seen.update(piece);
      observed += piece.length;
    });
    expect(result).toEqual({ written: all.length });
    expect(observed).toBe(all.length);
    const stored = readFileSync(store.path(key));
    expect(stored.subarray(7).equals(all)).toBe(true);
    expect(seen.digest('hex')).toBe(createHash('sha256').update(all).digest('hex'));
    expect(await store.sha256(key)).toBe(`sha256:${createHash('sha256').update(stored).digest('hex')}`);
  });

  it('a cut chunk keeps all that arrived, even what waited behind a write, and cuts off older bytes', async () => {
    const state = { key, offset: 0, multipartUploadId: null, parts: [] };
    // an earlier attempt left 3 MiB that were never recorded
    await store.writeChunk(state, Readable.from([Buffer.alloc(3 << 20, 9)]), 3 << 20);
    const body = new PassThrough();
    const written = store.writeChunk(state, body, 4 << 20);
    for (let i = 0; i < 20; i++) body.write(Buffer.alloc(65536, 1));
    await new Promise((r) => setTimeout(r, 100));
    body.destroy(new Error('aborted'));
    expect(await written).toEqual({ written: 20 * 65536 });
    const stored = readFileSync(store.path(key));
    expect(stored.length).toBe(20 * 65536);
    expect(stored.every((b) => b === 1)).toBe(true);
  });

  it('sha256 of an empty and of a large file, read back', async () => {
    await store.startUpload(key);
    expect(await store.sha256(key)).toBe(`sha256:${createHash('sha256').digest('hex')}`);
    const data = randomBytes((2 << 20) + 12345);
    await store.writeChunk(
      { key, offset: 0, multipartUploadId: null, parts: [] },
      Readable.from([data]),
      data.length,
    );
    expect(await store.sha256(key)).toBe(`sha256:${createHash('sha256').update(data).digest('hex')}`);
  });

  it('refuses keys that leave its directory', () => {
    expect(() => store.path('../etc/passwd')).toThrow();
    expect(() => store.path('files/../../x')).toThrow();
    expect(() => store.path('/etc/passwd')).toThrow();
  });
});
