import type { Readable } from 'node:stream';

/** The part of a file's state a store needs to take the next chunk of its upload. */
export interface UploadState {
  key: string;
  /** Bytes already stored. */
  offset: number;
  multipartUploadId: string | null;
  parts: { n: number; etag: string; size: number }[];
}

export interface ChunkResult {
  /** Bytes of this chunk now stored (fewer than sent when the client went away mid-chunk). */
  written: number;
  /** S3: the part just stored. */
  part?: { n: number; etag: string; size: number };
}

/** A chunk carried more bytes than it declared: nothing of it was kept. */
export class ChunkTooLargeError extends Error {}

/**
 * Where a storage keeps bytes: the local filesystem or an S3-compatible object store. Keys are made by the
 * service from ids (`objectKey`), never from a client's file name. Nothing here holds a whole file in memory:
 * chunks and downloads are streams (only keyframe images, a few kB, are put as buffers).
 */
export interface ByteStore {
  /** The least a chunk that is not the last may carry (S3: 5 MiB; FILE: any). */
  readonly minPartBytes: number;
  /** Begins an upload (S3: a multipart upload, whose id is returned). */
  startUpload(key: string): Promise<string | null>;
  /**
   * Stores the next chunk at `state.offset`: at most `length` bytes of `body` (more is ChunkTooLargeError and
   * nothing of the chunk is kept). A client that goes away mid-chunk leaves what was stored (FILE) or nothing
   * (S3: a part is all or nothing), and the caller records `written`. Once it resolves, the `written` bytes
   * are durable (FILE: on the disk, synced; S3: the part is stored). `observe` sees each piece of the body
   * it takes, in order, before it is stored (the upload's running checksum).
   */
  writeChunk(
    state: UploadState,
    body: Readable,
    length: number,
    observe?: (piece: Buffer) => void,
  ): Promise<ChunkResult>;
  /** Ends an upload whose bytes are all stored (S3: completes the multipart upload). */
  completeUpload(state: UploadState): Promise<void>;
  /** `sha256:<hex>` of the stored bytes, read back. */
  sha256(key: string): Promise<string>;
  /** The stored bytes, or `start`..`end` (inclusive) of them. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Removes the object (and an unfinished multipart upload); a missing object is no error. */
  remove(key: string, multipartUploadId?: string | null): Promise<void>;
}

/** The key of a file's bytes, and of one keyframe image: built from ids only. */
export const objectKey = {
  file: (fileId: string) => `files/${fileId.slice(0, 2)}/${fileId}`,
  keyframe: (fileId: string, keyframeId: string) =>
    `keyframes/${fileId.slice(0, 2)}/${fileId}/${keyframeId}.jpg`,
};
