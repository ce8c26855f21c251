import { createHash, type Hash } from 'node:crypto';
import { Injectable } from '@nestjs/common';

/** The uploads whose running checksum one instance keeps at most (the least recently moved go first). */
const MAX_UPLOADS = 4096;

interface Entry {
  /** The stored bytes [0, offset) of the file are what `hash` saw, or what `checksum` is of. */
  offset: number;
  hash: Hash | null;
  checksum: string | null;
}

/**
 * The running SHA-256 of the uploads this instance receives, so that CLOSED records the checksum without
 * reading the file back: each chunk's bytes are hashed as they arrive, overlapping their write.
 *
 * An entry of a file says the stored bytes [0, offset) hash to its state. A chunk takes the entry out when it
 * starts at that offset (a chunk starting anywhere else finds none it may use), and the upload service puts
 * it back, moved on, only once the chunk's `received` is committed under the lease the chunk held and the hash
 * saw exactly the bytes the store wrote. Stored bytes below a file's `received` are never written again (a
 * chunk starts at `received`, under the lease, and `received` only grows), so an entry whose offset is the
 * file's `received` is right. Whatever else happens (a chunk taken by another instance, a restart, a failed
 * or cut chunk whose hash and bytes differ, an entry pushed out by newer ones) leaves no entry, or one at an
 * offset the file has passed, and CLOSED reads the bytes back, as it always did.
 */
@Injectable()
export class UploadDigests {
  private readonly entries = new Map<string, Entry>();

  /**
   * The running hash of `fileId` for a chunk starting at `offset`, taken out (a new one at offset 0), or null
   * when this instance has none at that offset: the chunk is then not hashed.
   */
  take(fileId: string, offset: number): Hash | null {
    const entry = this.entries.get(fileId);
    this.entries.delete(fileId);
    if (offset === 0) return createHash('sha256');
    return entry?.offset === offset ? entry.hash : null;
  }

  /** Puts the hash back at `offset` (committed); `complete`: every byte is in, so it is finished now. */
  keep(fileId: string, offset: number, hash: Hash, complete: boolean): void {
    this.entries.delete(fileId);
    this.entries.set(
      fileId,
      complete
        ? { offset, hash: null, checksum: `sha256:${hash.digest('hex')}` }
        : { offset, hash, checksum: null },
    );
    if (this.entries.size > MAX_UPLOADS) this.entries.delete(this.entries.keys().next().value as string);
  }

  /**
   * The checksum of an upload of `size` bytes, when this instance hashed all of them: finished with the last
   * chunk, or (a file of no declared size, whose chunks never named the total) from a copy of the running hash.
   */
  checksum(fileId: string, size: number): string | null {
    const entry = this.entries.get(fileId);
    if (entry?.offset !== size) return null;
    return entry.checksum ?? (entry.hash ? `sha256:${entry.hash.copy().digest('hex')}` : null);
  }

  forget(fileId: string): void {
    this.entries.delete(fileId);
  }
}
