import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { type Readable, Transform } from 'node:stream';
import { type ByteStore, type ChunkResult, ChunkTooLargeError, type UploadState } from './byte-store.js';

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint: string | null;
  forcePathStyle: boolean;
  prefix: string;
}

/** S3 refuses parts under 5 MiB except the last: a non-final chunk must be at least this long. */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;

/**
 * An S3 storage (AWS SDK v3; any S3-compatible server through S3_ENDPOINT). An upload is a multipart
 * upload: each chunk one part, streamed from the request with its declared length (never buffered); a part
 * is all or nothing, so a chunk cut short stores nothing and the client resends it. Credentials are the
 * SDK's (environment, profile, instance role): none is stored by the service.
 */
export class S3ByteStore implements ByteStore {
  readonly minPartBytes = S3_MIN_PART_BYTES;
  private readonly client: S3Client;

  constructor(private readonly s: S3Settings) {
    this.client = new S3Client({
      region: s.region,
      ...(s.endpoint ? { endpoint: s.endpoint } : {}),
      forcePathStyle: s.forcePathStyle,
      // a streamed part of known length: no trailing checksum (aws-chunked), which S3-compatible servers
      // often do not speak
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    return `${this.s.prefix}${key}`;
  }

  async startUpload(key: string): Promise<string> {
    const out = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.s.bucket, Key: this.key(key) }),
    );
    if (!out.UploadId) throw new Error('the object store gave no upload id');
    return out.UploadId;
  }

  async writeChunk(state: UploadState, body: Readable, length: number): Promise<ChunkResult> {
    const n = state.parts.length + 1;
    const abort = new AbortController();
    let seen = 0;
    let tooLarge = false;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (seen > length) {
          tooLarge = true;
          abort.abort();
          return done(new ChunkTooLargeError());
        }
        done(null, chunk);
      },
    });
    // the client going away mid-part must end the request to the store too (it would wait for the rest)
    const cut = () => abort.abort();
    body
      .once('aborted', cut)
      .once('error', cut)
      .once('close', () => {
        if (seen < length) cut();
      });
    body.pipe(limit);
    try {
      const out = await this.client.send(
        new UploadPartCommand({
          Bucket: this.s.bucket,
          Key: this.key(state.key),
          UploadId: state.multipartUploadId ?? undefined,
          PartNumber: n,
          Body: limit,
          ContentLength: length,
        }),
        { abortSignal: abort.signal },
      );
      if (!out.ETag) throw new Error('the object store gave no ETag');
      return { written: length, part: { n, etag: out.ETag, size: length } };
    } catch (err) {
      if (tooLarge) throw new ChunkTooLargeError();
      if (abort.signal.aborted) return { written: 0 };
      throw err;
    }
  }

  async completeUpload(state: UploadState): Promise<void> {
    if (state.parts.length === 0) {
      // an empty file: no part to complete with
      await this.client.send(
        new PutObjectCommand({ Bucket: this.s.bucket, Key: this.key(state.key), Body: Buffer.alloc(0) }),
      );
      await this.abortUpload(state.key, state.multipartUploadId);
      return;
    }
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.s.bucket,
        Key: this.key(state.key),
        UploadId: state.multipartUploadId ?? undefined,
        MultipartUpload: { Parts: state.parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
      }),
    );
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const out = await this.client.send(
      new GetObjectCommand({
        Bucket: this.s.bucket,
        Key: this.key(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    return out.Body as Readable;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.s.bucket,
        Key: this.key(key),
        Body: data,
        ContentType: contentType,
      }),
    );
  }

  async remove(key: string, multipartUploadId?: string | null): Promise<void> {
    await this.abortUpload(key, multipartUploadId ?? null);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: this.key(key) }));
  }

  close(): void {
    this.client.destroy();
  }

  private async abortUpload(key: string, uploadId: string | null): Promise<void> {
    if (!uploadId) return;
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.s.bucket, Key: this.key(key), UploadId: uploadId }),
      );
    } catch (err) {
      // already completed or aborted
      if ((err as { name?: string }).name !== 'NoSuchUpload') throw err;
    }
  }
}
