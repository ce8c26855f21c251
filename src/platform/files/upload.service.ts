import type { ConfigOf } from '../../base/config/namespace.js';
import { FILES_CONFIG } from './files-config.js';
import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { Clock } from '../../base/common/clock.js';
import { ChunkTooLargeError, type UploadState } from './byte-store.js';
import { ByteStores } from './byte-stores.js';
import { parseContentRange } from './content-range.js';
import { FilesErrors } from './files.errors.js';
import {
  type UploadChanges,
  type UploadFile,
  UploadRepository,
  type UploadStorage,
} from './upload.repository.js';
import { UploadDigests } from './upload-digests.js';

/** A chunk's lease on its upload; renewed while the chunk streams, so a crashed instance frees it soon. */
const LOCK_MS = 60_000;
const RENEW_MS = 20_000;

/** What the upload route answers: 308 with the stored range, or 200 once every byte is in. */
export type UploadAnswer = { status: 308; range: string | null } | { status: 200; file: UploadedFileDto };

export interface UploadedFileDto {
  id: string;
  name: string;
  size: number;
}

/**
 * The resumable upload protocol at a file's signed `upload_url`, as cloud-storage clients speak it: a start
 * (POST with `x-goog-resumable: start` → 201 and `Location`), chunks (PUT with `Content-Range: bytes S-E/N`
 * → 308 with `Range` until the last, then 200), status queries (`Content-Range: bytes *\/N`). Chunks must
 * follow each other exactly (S = the bytes stored so far: an overlap or a gap is a 400), carry exactly their
 * declared length (Content-Length, and enforced while streaming), and stay within the file's declared size
 * and FILES_MAX_BYTES. One chunk at a time per file (a lease on the row; a second one is a 409).
 */
@Injectable()
export class UploadService {
  constructor(
    private readonly repo: UploadRepository,
    @Inject(FILES_CONFIG.token) private readonly filesConfig: ConfigOf<typeof FILES_CONFIG>,
    private readonly stores: ByteStores,
    private readonly clock: Clock,
    private readonly digests: UploadDigests,
  ) {}

  async start(fileId: string): Promise<void> {
    const { file, storage } = await this.open(fileId);
    const store = this.stores.of(storage);
    if (file.multipart_upload_id !== null || Number(file.received) > 0) return;
    const lock = await this.lock(file, 0);
    try {
      const uploadId = await store.startUpload(file.object_key);
      await this.release(file.id, lock, { multipart_upload_id: uploadId });
    } catch (err) {
      await this.release(file.id, lock, {});
      throw err;
    }
  }

  async put(
    fileId: string,
    contentRange: string | undefined,
    contentLength: string | undefined,
    body: Readable,
  ): Promise<UploadAnswer> {
    const { file, storage } = await this.open(fileId);
    const received = Number(file.received);
    const declared = file.size === null ? null : Number(file.size);
    const length =
      contentLength === undefined ? null : /^\d{1,16}$/.test(contentLength) ? Number(contentLength) : NaN;
    if (Number.isNaN(length)) throw FilesErrors.BAD_RANGE('Content-Length is not a number');
    // no Content-Range: the whole file in one request
    const range =
      contentRange === undefined
        ? length === null || length === 0
          ? ({ kind: 'status', total: declared } as const)
          : ({ kind: 'chunk', start: 0, end: length - 1, total: length } as const)
        : parseContentRange(contentRange);
    if (!range) throw FilesErrors.BAD_RANGE('expected "bytes S-E/N", "bytes S-E/*" or "bytes */N"');
    const total = range.total ?? declared;
    if (range.total !== null && declared !== null && range.total !== declared)
      throw FilesErrors.BAD_RANGE(`the file was declared with ${declared} bytes, not ${range.total}`);
    if (total !== null && total > this.filesConfig.maxFileBytes)
      throw FilesErrors.TOO_LARGE(`A file may have at most ${this.filesConfig.maxFileBytes} bytes`);
    if (range.kind === 'status') {
      if (length) throw FilesErrors.BAD_RANGE('a status query carries no bytes');
      return this.answer(file, received, total);
    }
    const chunk = range.end - range.start + 1;
    if (length === null) throw FilesErrors.BAD_RANGE('a chunk needs its Content-Length');
    if (length !== chunk)
      throw FilesErrors.BAD_RANGE(`Content-Length ${length} is not the ${chunk} bytes of the range`);
    if (range.start !== received)
      throw FilesErrors.BAD_RANGE(`the next chunk starts at byte ${received} (query the status to resume)`);
    const limit = total ?? this.filesConfig.maxFileBytes;
    if (range.end >= limit) throw FilesErrors.TOO_LARGE(`The chunk goes past the file's ${limit} bytes`);
    const store = this.stores.of(storage);
    const last = total !== null && range.end + 1 === total;
    if (!last && chunk < store.minPartBytes)
      throw FilesErrors.BAD_RANGE(
        `a chunk other than the last must carry at least ${store.minPartBytes} bytes`,
      );
    if (storage.method === 'S3' && file.multipart_upload_id === null)
      throw FilesErrors.BAD_RANGE('start the upload first (POST with x-goog-resumable: start)');

    const lock = await this.lock(file, received);
    const renew = setInterval(() => void this.renew(file.id, lock), RENEW_MS);
    const state: UploadState = {
      key: file.object_key,
      offset: received,
      multipartUploadId: file.multipart_upload_id,
      parts: file.multipart_parts,
    };
    // the running checksum, when this instance holds it at this offset: each piece is hashed as it arrives
    const hash = this.digests.take(file.id, received);
    let hashed = 0;
    const observe = hash
      ? (piece: Buffer) => {
          hash.update(piece);
          hashed += piece.length;
        }
      : undefined;
    let now = received;
    try {
      const result = await store.writeChunk(state, body, chunk, observe);
      now = received + result.written;
      const parts = result.part ? [...state.parts, result.part] : state.parts;
      const changes: UploadChanges = { received: String(now), multipart_parts: parts };
      const complete = total !== null && now === total;
      if (complete) {
        await store.completeUpload({ ...state, parts });
        changes.multipart_upload_id = null;
        changes.multipart_parts = [];
        if (declared === null) changes.size = String(total);
      }
      const held = await this.release(file.id, lock, changes);
      // kept only when `received` moved under this chunk's lease and the hash saw exactly the bytes stored
      if (hash && held && hashed === result.written) this.digests.keep(file.id, now, hash, complete);
    } catch (err) {
      await this.release(file.id, lock, {});
      if (err instanceof ChunkTooLargeError)
        throw FilesErrors.TOO_LARGE(`The chunk carried more than the ${chunk} bytes of its range`);
      throw FilesErrors.STORAGE_FAILED();
    } finally {
      clearInterval(renew);
    }
    return this.answer({ ...file, size: total === null ? file.size : String(total) }, now, total);
  }

  private answer(file: UploadFile, received: number, total: number | null): UploadAnswer {
    if (file.status !== 'OPEN' || (total !== null && received === total))
      return { status: 200, file: { id: file.id, name: file.original_name, size: received } };
    return { status: 308, range: received > 0 ? `bytes=0-${received - 1}` : null };
  }

  /** The file behind a valid link: OPEN (or CLOSED, for a status query), its asset not deleted. */
  private async open(fileId: string): Promise<{ file: UploadFile; storage: UploadStorage }> {
    const target = await this.repo.target(fileId);
    if (!target) throw FilesErrors.FILE_NOT_FOUND();
    const { file } = target;
    if (file.status !== 'OPEN' && file.status !== 'CLOSED') throw FilesErrors.NOT_OPEN(file.status);
    return target;
  }

  /** Takes the upload's lease if no other chunk holds it and nothing moved since `received` was read. */
  private async lock(file: UploadFile, received: number): Promise<Date> {
    if (file.status !== 'OPEN') throw FilesErrors.NOT_OPEN(file.status);
    const now = this.clock.now();
    const until = new Date(now.getTime() + LOCK_MS);
    if (!(await this.repo.takeUploadLease(file.id, received, now, until))) throw FilesErrors.BUSY();
    return until;
  }

  private async renew(id: string, lock: Date): Promise<void> {
    const until = new Date(this.clock.now().getTime() + LOCK_MS);
    await this.repo
      .renewUploadLease(id, lock, until)
      .then((held) => {
        if (held) lock.setTime(until.getTime());
      })
      .catch(() => undefined);
  }

  /** Frees the lease, writing the changes with it: whether it was still held (else nothing was written). */
  private async release(id: string, lock: Date, changes: UploadChanges): Promise<boolean> {
    return this.repo.releaseUploadLease(id, lock, changes);
  }
}
