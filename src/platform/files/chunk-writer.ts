import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ChunkTooLargeError } from './byte-store.js';

/** A write starts once this much of the body is gathered (or MAX_PIECES pieces). */
const BATCH_BYTES = 1 << 20;
const MAX_PIECES = 256;
/** While a write is in flight, at most this much more is held in memory; then the body waits. */
const AHEAD_BYTES = 4 << 20;
/** A body that pauses this long with less than a batch gathered has what it sent written anyway. */
const IDLE_MS = 5;
/** Written bytes after which a sync starts in the background, so the chunk's last sync has little left. */
const SYNC_BYTES = 2 << 20;

/**
 * Writes one chunk's body at `offset` of an open file. The request's pieces (64 kB or less each) are gathered
 * into writes of about 1 MiB, one `writev` each on the thread pool, while the next pieces arrive and are
 * observed (hashed) on the main thread: receiving, hashing and writing overlap. At most AHEAD_BYTES wait
 * beside the write in flight, then the body is paused (TCP pushes back on the client), so memory stays flat
 * whatever the chunk's size; a body that trickles is written IDLE_MS after it pauses. While the body streams,
 * the written bytes are synced in the background every SYNC_BYTES (fdatasync), so that the caller's last
 * sync, which the acknowledgement waits for, has little left to flush; a failed sync fails the chunk like a
 * failed write (a later sync of the same file may not report the error again).
 *
 * More than `length` bytes is ChunkTooLargeError (what was written is the caller's to truncate). A body that
 * fails (the client went away) ends the chunk with what arrived, all of it written: `cut` says so. A failed
 * write or sync rejects.
 */
export async function writeBody(
  fh: FileHandle,
  body: Readable,
  offset: number,
  length: number,
  observe?: (piece: Buffer) => void,
): Promise<{ written: number; cut: boolean }> {
  let seen = 0;
  let written = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Write what is pending whatever its size (the body ended, failed or paused). */
  let flush = false;
  let writing: Promise<void> | null = null;
  let syncing: Promise<void> | null = null;
  let synced = 0;
  let failure: { err: unknown } | null = null;
  let idle: NodeJS.Timeout | null = null;
  const fail = (err: unknown) => {
    failure ??= { err };
  };

  const ready = () =>
    failure === null &&
    (pendingBytes >= BATCH_BYTES || pending.length >= MAX_PIECES || (flush && pendingBytes > 0));
  const drain = async (): Promise<void> => {
    while (ready()) {
      const buffers = pending;
      const n = pendingBytes;
      pending = [];
      pendingBytes = 0;
      await writeAll(fh, buffers, offset + written, n);
      written += n;
      if (!syncing && written - synced >= SYNC_BYTES) {
        synced = written;
        syncing = fh
          .datasync()
          .catch(fail)
          .finally(() => (syncing = null));
      }
    }
  };
  const kick = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    if (!writing && ready())
      writing = drain()
        .catch(fail)
        .finally(() => {
          writing = null;
          wait();
        });
  };
  /** Less than a batch is pending and nothing is being written: it is written if no more comes soon. */
  const wait = () => {
    if (!writing && !idle && pendingBytes > 0 && failure === null)
      idle = setTimeout(() => {
        flush = true;
        kick();
      }, IDLE_MS);
  };

  let cut = false;
  try {
    for await (const data of body as AsyncIterable<Buffer | string>) {
      const piece = typeof data === 'string' ? Buffer.from(data) : data;
      seen += piece.length;
      if (seen > length) throw new ChunkTooLargeError();
      if (failure) break;
      observe?.(piece);
      pending.push(piece);
      pendingBytes += piece.length;
      flush = false;
      if (writing && (pendingBytes >= AHEAD_BYTES || pending.length >= MAX_PIECES)) await writing;
      kick();
      wait();
    }
  } catch (err) {
    if (!(err instanceof ChunkTooLargeError)) cut = true;
    else {
      // nothing more of it is written; the caller truncates what was
      pending = [];
      pendingBytes = 0;
      if (idle) clearTimeout(idle);
      await writing;
      await syncing;
      throw err;
    }
    // the client went away: what arrived is written below, and the upload resumes after it
  }
  flush = true;
  while (writing || ready()) {
    kick();
    await writing;
  }
  if (idle) clearTimeout(idle);
  await syncing;
  if (failure) throw (failure as { err: unknown }).err;
  return { written, cut };
}

/** `n` bytes of `buffers` at `position`, however many `writev` calls it takes. */
async function writeAll(fh: FileHandle, buffers: Buffer[], position: number, n: number): Promise<void> {
  let done = 0;
  let rest = buffers;
  for (;;) {
    const { bytesWritten } = await fh.writev(rest, position + done);
    done += bytesWritten;
    if (done >= n) return;
    if (bytesWritten === 0) throw new Error('the disk took no bytes');
    rest = skip(rest, bytesWritten);
  }
}

function skip(buffers: Buffer[], bytes: number): Buffer[] {
  let i = 0;
  while (bytes >= buffers[i].length) bytes -= buffers[i++].length;
  return [buffers[i].subarray(bytes), ...buffers.slice(i + 1)];
}

/**
 * `sha256:<hex>` of a whole file, read back in 1 MiB blocks into two buffers used in turn (the next block is
 * read while this one is hashed): no allocation per block, so a large file costs the garbage collector
 * nothing.
 */
export async function sha256OfFile(fh: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  const buffers = [Buffer.allocUnsafe(1 << 20), Buffer.allocUnsafe(1 << 20)];
  let turn = 0;
  let reading = fh.read(buffers[0], 0, buffers[0].length, null);
  for (;;) {
    const { bytesRead, buffer } = await reading;
    if (bytesRead === 0) break;
    turn ^= 1;
    reading = fh.read(buffers[turn], 0, buffers[turn].length, null);
    hash.update(buffer.subarray(0, bytesRead));
  }
  return `sha256:${hash.digest('hex')}`;
}
