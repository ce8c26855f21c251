import { constants, createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { type ByteStore, type ChunkResult, ChunkTooLargeError, type UploadState } from './byte-store.js';
import { sha256OfFile, writeBody } from './chunk-writer.js';

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
    // keeps what an earlier start stored: a second start resumes the same upload
    await (await this.openForWrite(this.path(key))).close();
    return null;
  }

  /**
   * The chunk is written at its offset (chunk-writer.ts: batched writes overlapping the body's arrival),
   * then synced (fdatasync) before it resolves, so the bytes the caller then records survive a crash of the
   * machine, not only of the process; the first chunk also syncs the directories that name the file.
   */
  async writeChunk(
    state: UploadState,
    body: Readable,
    length: number,
    observe?: (piece: Buffer) => void,
  ): Promise<ChunkResult> {
    const p = this.path(state.key);
    const fh = await this.openForWrite(p);
    try {
      let result: { written: number; cut: boolean };
      try {
        result = await writeBody(fh, body, state.offset, length, observe);
      } catch (err) {
        if (err instanceof ChunkTooLargeError) await fh.truncate(state.offset);
        throw err;
      }
      // a cut chunk: nothing past what arrived (bytes of an earlier attempt that was never recorded)
      if (result.cut) await fh.truncate(state.offset + result.written);
      await fh.datasync();
      if (state.offset === 0) await syncDirectories(p);
      return { written: result.written };
    } finally {
      await fh.close();
    }
  }

  /** Opens the object to write, creating it (and its directory) when missing; never truncates. */
  private async openForWrite(p: string): Promise<FileHandle> {
    const flags = constants.O_WRONLY | constants.O_CREAT;
    try {
      return await open(p, flags, 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(dirname(p), { recursive: true });
      return open(p, flags, 0o644);
    }
  }

  async sha256(key: string): Promise<string> {
    const fh = await open(this.path(key), 'r');
    try {
      return await sha256OfFile(fh);
    } finally {
      await fh.close();
    }
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

/** Syncs the directories that name `p` (`files/<xx>/`, `files/`, the storage's), as the first chunk made them. */
async function syncDirectories(p: string): Promise<void> {
  for (let dir = dirname(p), i = 0; i < 3; dir = dirname(dir), i++) {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }
}

export const storageRoot = (dir: string, storageId: string) => join(dir, storageId);
