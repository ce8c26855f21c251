import type { S3Client } from '@aws-sdk/client-s3';
import { type Readable, Transform } from 'node:stream';
import { type ByteStore, type ChunkResult, ChunkTooLargeError, type UploadState } from './byte-store.js';
import { checksumOf } from './checksum.js';

type Sdk = typeof import('@aws-sdk/client-s3');
interface S3 {
  sdk: Sdk;
  client: S3Client;
}
// The SDK is loaded on first use: about 150 modules that a deployment without S3 storages never needs, and
// that every process (and every test file) loading the application paid for at start.
let sdkLoad: Promise<Sdk> | null = null;
const loadSdk = (): Promise<Sdk> => (sdkLoad ??= import('@aws-sdk/client-s3'));

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
  private s3Client: Promise<S3> | null = null;

  constructor(private readonly s: S3Settings) {}

  private s3(): Promise<S3> {
    this.s3Client ??= loadSdk().then((sdk) => {
      const client = new sdk.S3Client({
        region: this.s.region,
        ...(this.s.endpoint ? { endpoint: this.s.endpoint } : {}),
        forcePathStyle: this.s.forcePathStyle,
        // a streamed part of known length: no trailing checksum (aws-chunked), which S3-compatible servers
        // often do not speak
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { sdk, client };
    });
    return this.s3Client;
  }

  private key(key: string): string {
    return `${this.s.prefix}${key}`;
  }

  async startUpload(key: string): Promise<string> {
    const { sdk, client } = await this.s3();
    const out = await client.send(
      new sdk.CreateMultipartUploadCommand({ Bucket: this.s.bucket, Key: this.key(key) }),
    );
    if (!out.UploadId) throw new Error('the object store gave no upload id');
    return out.UploadId;
  }

  async writeChunk(
    state: UploadState,
    body: Readable,
    length: number,
    observe?: (piece: Buffer) => void,
  ): Promise<ChunkResult> {
    // before any listener: the request body stays paused until it is piped below
    const { sdk, client } = await this.s3();
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
        observe?.(chunk);
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
      const out = await client.send(
        new sdk.UploadPartCommand({
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
    const { sdk, client } = await this.s3();
    if (state.parts.length === 0) {
      // an empty file: no part to complete with
      await client.send(
        new sdk.PutObjectCommand({ Bucket: this.s.bucket, Key: this.key(state.key), Body: Buffer.alloc(0) }),
      );
      await this.abortUpload(state.key, state.multipartUploadId);
      return;
    }
    await client.send(
      new sdk.CompleteMultipartUploadCommand({
        Bucket: this.s.bucket,
        Key: this.key(state.key),
        UploadId: state.multipartUploadId ?? undefined,
        MultipartUpload: { Parts: state.parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
      }),
    );
  }

  async sha256(key: string): Promise<string> {
    return checksumOf.stream(await this.read(key));
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const { sdk, client } = await this.s3();
    const out = await client.send(
      new sdk.GetObjectCommand({
        Bucket: this.s.bucket,
        Key: this.key(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    return out.Body as Readable;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const { sdk, client } = await this.s3();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.s.bucket,
        Key: this.key(key),
        Body: data,
        ContentType: contentType,
      }),
    );
  }

  async remove(key: string, multipartUploadId?: string | null): Promise<void> {
    await this.abortUpload(key, multipartUploadId ?? null);
    const { sdk, client } = await this.s3();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.s.bucket, Key: this.key(key) }));
  }

  close(): void {
    void this.s3Client?.then(({ client }) => client.destroy());
  }

  private async abortUpload(key: string, uploadId: string | null): Promise<void> {
    if (!uploadId) return;
    const { sdk, client } = await this.s3();
    try {
      await client.send(
        new sdk.AbortMultipartUploadCommand({
          Bucket: this.s.bucket,
          Key: this.key(key),
          UploadId: uploadId,
        }),
      );
    } catch (err) {
      // already completed or aborted
      if ((err as { name?: string }).name !== 'NoSuchUpload') throw err;
    }
  }
}
