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

  it('refuses keys that leave its directory', () => {
    expect(() => store.path('../etc/passwd')).toThrow();
    expect(() => store.path('files/../../x')).toThrow();
    expect(() => store.path('/etc/passwd')).toThrow();
  });
});
