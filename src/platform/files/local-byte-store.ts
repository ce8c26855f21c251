import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rm, truncate, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join, resolve, sep } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ByteStore, type ChunkResult, ChunkTooLargeError, type UploadState } from './byte-store.js';

const KEY = /^[a-z]+(\/[0-9a-f-]+)+(\.jpg)?$/;

/** A FILE storage: the bytes under one directory (STORAGE_DIR/<storage id>). */
export class LocalByteStore implements ByteStore {
  readonly minPartBytes = 0;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The object's path, held inside the root whatever the key (keys are made from ids; this is the belt). */
  path(key: string): string {
    const p = resolve(this.root, key);
    if (!KEY.test(key) || !p.startsWith(this.root + sep)) throw new Error(`refused object key "${key}"`);
    return p;
  }

  async startUpload(key: string): Promise<null> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    // keeps what an earlier start stored: a second start resumes the same upload
    await (await open(p, 'a')).close();
    return null;
  }

  async writeChunk(state: UploadState, body: Readable, length: number): Promise<ChunkResult> {
    const p = this.path(state.key);
    await this.startUpload(state.key);
    let seen = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (seen > length) return done(new ChunkTooLargeError());
        done(null, chunk);
      },
    });
    // r+: write at the offset without truncating (the file exists since startUpload)
    const out = createWriteStream(p, { flags: 'r+', start: state.offset });
    try {
      await pipeline(body, limit, out);
    } catch (err) {
      if (err instanceof ChunkTooLargeError) {
        await truncate(p, state.offset);
        throw err;
      }
      // the client went away: what reached the disk stays, and the upload resumes after it (once the
      // stream has closed, so no write in flight lands after the truncation)
      if (!out.closed) await new Promise<void>((r) => out.once('close', () => r()));
      await truncate(p, state.offset + out.bytesWritten);
      return { written: out.bytesWritten };
    }
    return { written: out.bytesWritten };
  }

  async completeUpload(): Promise<void> {}

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const p = this.path(key);
    const stream = createReadStream(p, range ?? {});
    await once(stream, 'open');
    return stream;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, data);
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}

export const storageRoot = (dir: string, storageId: string) => join(dir, storageId);
