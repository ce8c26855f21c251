import { jest } from '@jest/globals';
import { Readable } from 'node:stream';
import type { Clock } from '../../base/common/clock.js';
import type { ConfigOf } from '../../base/config/namespace.js';
import { createHash } from 'node:crypto';
import type { FileEntity } from '../../base/model/file.entity.js';
import type { StorageEntity } from '../../base/model/storage.entity.js';
import { ChunkTooLargeError, type ByteStore, type ChunkResult, type UploadState } from './byte-store.js';
import type { FILES_CONFIG } from './files-config.js';
import { UploadDigests } from './upload-digests.js';
import { UploadService } from './upload.service.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { fileRow } from '../../../test/utils/fakes/files.js';

const LEASE_UNTIL = new Date(NOW.getTime() + 60_000);
const MAX = 1000;

const file = (over: Partial<FileEntity> = {}) => fileRow({ size: '10', received: '0', ...over });

function setup(
  o: {
    file?: FileEntity | null;
    method?: string;
    minPart?: number;
    leaseFree?: boolean;
    digests?: UploadDigests;
  } = {},
) {
  const f = o.file === undefined ? file() : o.file;
  const storage = { id: 's1', method: o.method ?? 'FILE', settings: {} } as unknown as StorageEntity;
  const repo = {
    target: jest.fn(async () => (f ? { file: f, storage } : null)),
    takeUploadLease: jest.fn(async () => o.leaseFree ?? true),
    renewUploadLease: jest.fn(async () => true),
    releaseUploadLease: jest.fn(async () => true),
  };
  const store = {
    minPartBytes: o.minPart ?? 0,
    startUpload: jest.fn(async () => 'mp1' as string | null),
    writeChunk: jest.fn(
      async (
        _s: UploadState,
        _b: Readable,
        length: number,
        _observe?: (piece: Buffer) => void,
      ): Promise<ChunkResult> => ({ written: length }),
    ),
    completeUpload: jest.fn(async () => undefined),
  };
  const digests = o.digests ?? new UploadDigests();
  const stores = { of: jest.fn(() => store as unknown as ByteStore) };
  const config = { maxFileBytes: MAX } as ConfigOf<typeof FILES_CONFIG>;
  const service = construct(
    UploadService,
    repo,
    config,
    stores,
    { now: () => new Date(NOW) } as Clock,
    digests,
  );
  return { service, repo, store, digests };
}

const body = () => Readable.from([]);
const put = (s: UploadService, range: string | undefined, length?: number) =>
  s.put('f1', range, length === undefined ? undefined : String(length), body());

describe('UploadService.put: which chunk is taken', () => {
  it.each([
    ['a range declaring another total than the file', 'bytes 0-4/11', 5, 400],
    ['a gap: the chunk does not start at the stored bytes', 'bytes 5-9/10', 5, 400],
    ['an overlap: the chunk starts before the stored bytes', 'bytes 0-4/*', 5, 400],
    ['a Content-Length other than the range', 'bytes 0-4/10', 8, 400],
    ['no Content-Length', 'bytes 0-4/10', undefined, 400],
    ['a Content-Range that does not parse', 'octets 0-4/10', 5, 400],
    ['an end before the start', 'bytes 4-2/10', 3, 400],
    ['a Content-Range in the Range header’s syntax', 'bytes=0-3/10', 4, 400],
    ['a negative start', 'bytes -1-3/10', 5, 400],
    ['a chunk past the declared size', 'bytes 0-10/*', 11, 413],
  ] as const)('%s is refused before any lease or byte', async (_name, range, length, status) => {
    const received = range.startsWith('bytes 0-4/*') ? '2' : '0';
    const { service, repo, store } = setup({ file: file({ received }) });
    await expect(put(service, range, length)).rejects.toMatchObject({ status });
    expect(repo.takeUploadLease).not.toHaveBeenCalled();
    expect(store.writeChunk).not.toHaveBeenCalled();
  });

  it('a Content-Length that is not a number is a 400', async () => {
    const { service, store } = setup();
    await expect(service.put('f1', 'bytes 0-4/10', '5x', body())).rejects.toMatchObject({ status: 400 });
    expect(store.writeChunk).not.toHaveBeenCalled();
  });

  it('a file over FILES_MAX_BYTES is a 413, declared by the range or by an unsized file’s chunk', async () => {
    const unsized = setup({ file: file({ size: null }) });
    await expect(put(unsized.service, `bytes 0-${MAX}/${MAX + 1}`, MAX + 1)).rejects.toMatchObject({
      status: 413,
    });
    await expect(put(unsized.service, `bytes 0-${MAX}/*`, MAX + 1)).rejects.toMatchObject({ status: 413 });
    expect(unsized.store.writeChunk).not.toHaveBeenCalled();
  });

  it('a chunk other than the last below the store’s least part is a 400; the last may be small', async () => {
    const { service, store } = setup({ minPart: 5 });
    await expect(put(service, 'bytes 0-3/10', 4)).rejects.toMatchObject({ status: 400 });
    expect(store.writeChunk).not.toHaveBeenCalled();
    const last = setup({ minPart: 5, file: file({ received: '8' }) });
    await expect(put(last.service, 'bytes 8-9/10', 2)).resolves.toMatchObject({ status: 200 });
  });

  it('an S3 upload takes no chunk before its start', async () => {
    const { service, store } = setup({ method: 'S3' });
    await expect(put(service, 'bytes 0-4/10', 5)).rejects.toMatchObject({ status: 400 });
    expect(store.writeChunk).not.toHaveBeenCalled();
  });

  it('a file that is gone is a 404; one neither OPEN nor CLOSED is a 400', async () => {
    await expect(put(setup({ file: null }).service, 'bytes 0-4/10', 5)).rejects.toMatchObject({
      status: 404,
    });
    const deleted = setup({ file: file({ status: 'DELETED' }) });
    await expect(put(deleted.service, 'bytes 0-4/10', 5)).rejects.toMatchObject({ status: 400 });
  });

  it('a CLOSED file answers a status query but takes no chunk', async () => {
    const closed = file({ status: 'CLOSED', received: '10' });
    const { service, store } = setup({ file: closed });
    await expect(put(service, 'bytes */10')).resolves.toEqual({
      status: 200,
      file: { id: 'f1', name: 'clip.bin', size: 10 },
    });
    await expect(put(service, 'bytes 0-4/10', 5)).rejects.toMatchObject({ status: 400 });
    expect(store.writeChunk).not.toHaveBeenCalled();
  });
});

describe('UploadService.put: status queries', () => {
  it('answers 308 with the stored range, and no Range before any byte', async () => {
    await expect(put(setup({ file: file({ received: '4' }) }).service, 'bytes */10')).resolves.toEqual({
      status: 308,
      range: 'bytes=0-3',
    });
    await expect(put(setup().service, 'bytes */10')).resolves.toEqual({ status: 308, range: null });
  });

  it('a status query carrying bytes is a 400; no Content-Range and no body is a status query', async () => {
    const { service, repo } = setup({ file: file({ received: '4' }) });
    await expect(put(service, 'bytes */10', 1)).rejects.toMatchObject({ status: 400 });
    await expect(put(service, undefined, 0)).resolves.toEqual({ status: 308, range: 'bytes=0-3' });
    expect(repo.takeUploadLease).not.toHaveBeenCalled();
  });
});

describe('UploadService.put: the lease', () => {
  it('takes the lease at the bytes it read, for 60 s, and writes the chunk at that offset', async () => {
    const { service, repo, store } = setup({ file: file({ received: '5' }) });
    await expect(put(service, 'bytes 5-7/10', 3)).resolves.toEqual({ status: 308, range: 'bytes=0-7' });
    expect(repo.takeUploadLease).toHaveBeenCalledWith('f1', 5, NOW, LEASE_UNTIL);
    expect(store.writeChunk).toHaveBeenCalledWith(
      { key: 'files/f1/f1', offset: 5, multipartUploadId: null, parts: [] },
      expect.anything(),
      3,
      undefined,
    );
    expect(repo.releaseUploadLease).toHaveBeenCalledWith('f1', LEASE_UNTIL, {
      received: '8',
      multipart_parts: [],
    });
  });

  it('a chunk while another holds the lease is a 409 and writes nothing', async () => {
    const { service, store, repo } = setup({ leaseFree: false });
    await expect(put(service, 'bytes 0-4/10', 5)).rejects.toMatchObject({ status: 409 });
    expect(store.writeChunk).not.toHaveBeenCalled();
    expect(repo.releaseUploadLease).not.toHaveBeenCalled();
  });

  it('records only what the store wrote when the client went away mid-chunk', async () => {
    const { service, repo, store } = setup();
    store.writeChunk.mockResolvedValueOnce({ written: 2 });
    await expect(put(service, 'bytes 0-4/10', 5)).resolves.toEqual({ status: 308, range: 'bytes=0-1' });
    expect(repo.releaseUploadLease).toHaveBeenCalledWith('f1', LEASE_UNTIL, {
      received: '2',
      multipart_parts: [],
    });
  });

  it('the last chunk completes the upload, forgets the parts and fixes an unsized file’s size', async () => {
    const part = { n: 2, etag: 'e2', size: 5 };
    const f = file({
      size: null,
      received: '5',
      multipart_upload_id: 'mp1',
      multipart_parts: [{ n: 1, etag: 'e1', size: 5 }],
    });
    const { service, repo, store } = setup({ file: f, method: 'S3' });
    store.writeChunk.mockResolvedValueOnce({ written: 5, part });
    await expect(put(service, 'bytes 5-9/10', 5)).resolves.toEqual({
      status: 200,
      file: { id: 'f1', name: 'clip.bin', size: 10 },
    });
    expect(store.completeUpload).toHaveBeenCalledWith(
      expect.objectContaining({ multipartUploadId: 'mp1', parts: [{ n: 1, etag: 'e1', size: 5 }, part] }),
    );
    expect(repo.releaseUploadLease).toHaveBeenCalledWith('f1', LEASE_UNTIL, {
      received: '10',
      multipart_parts: [],
      multipart_upload_id: null,
      size: '10',
    });
  });

  it('a store failure frees the lease with nothing recorded: 502', async () => {
    const { service, repo, store } = setup();
    store.writeChunk.mockRejectedValueOnce(new Error('disk'));
    await expect(put(service, 'bytes 0-4/10', 5)).rejects.toMatchObject({ status: 502 });
    expect(repo.releaseUploadLease).toHaveBeenCalledWith('f1', LEASE_UNTIL, {});
  });

  it('a body longer than its range frees the lease with nothing recorded: 413', async () => {
    const { service, repo, store } = setup();
    store.writeChunk.mockRejectedValueOnce(new ChunkTooLargeError());
    await expect(put(service, 'bytes 0-4/10', 5)).rejects.toMatchObject({ status: 413 });
    expect(repo.releaseUploadLease).toHaveBeenCalledWith('f1', LEASE_UNTIL, {});
  });

  it('renews the lease every 20 s while the chunk streams, and stops after', async () => {
    jest.useFakeTimers({ now: NOW });
    try {
      const { service, repo, store } = setup();
      let finish!: (r: ChunkResult) => void;
      store.writeChunk.mockImplementationOnce(() => new Promise<ChunkResult>((r) => (finish = r)));
      const answer = put(service, 'bytes 0-4/10', 5);
      await jest.advanceTimersByTimeAsync(20_000);
      expect(repo.renewUploadLease).toHaveBeenCalledTimes(1);
      expect(repo.renewUploadLease).toHaveBeenCalledWith('f1', expect.any(Date), LEASE_UNTIL);
      finish({ written: 5 });
      await answer;
      await jest.advanceTimersByTimeAsync(60_000);
      expect(repo.renewUploadLease).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('UploadService.start', () => {
  it('starts the store’s upload under the lease and records its id', async () => {
    const { service, repo, store } = setup({ method: 'S3' });
    await service.start('f1');
    expect(repo.takeUploadLease).toHaveBeenCalledWith('f1', 0, NOW, LEASE_UNTIL);
    expect(store.startUpload).toHaveBeenCalledWith('files/f1/f1');
    expect(repo.releaseUploadLease).toHaveBeenCalledWith('f1', LEASE_UNTIL, { multipart_upload_id: 'mp1' });
  });

  it('does nothing once started or once bytes arrived', async () => {
    for (const f of [file({ multipart_upload_id: 'mp0' }), file({ received: '3' })]) {
      const { service, repo, store } = setup({ file: f });
      await service.start('f1');
      expect(repo.takeUploadLease).not.toHaveBeenCalled();
      expect(store.startUpload).not.toHaveBeenCalled();
    }
  });

  it('a failed start frees the lease and fails; a busy one is a 409', async () => {
    const failing = setup();
    failing.store.startUpload.mockRejectedValueOnce(new Error('s3 down'));
    await expect(failing.service.start('f1')).rejects.toThrow('s3 down');
    expect(failing.repo.releaseUploadLease).toHaveBeenCalledWith('f1', LEASE_UNTIL, {});
    await expect(setup({ leaseFree: false }).service.start('f1')).rejects.toMatchObject({ status: 409 });
  });
});

describe('UploadService.put: the running checksum', () => {
  const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
  const send = (s: UploadService, range: string, bytes: string, length = bytes.length) =>
    s.put('f1', range, String(length), Readable.from([Buffer.from(bytes)]));
  /** A store that takes the body, showing each piece to `observe`, and stores `keep` bytes of it (all). */
  function storing(store: ReturnType<typeof setup>['store'], keep?: number) {
    store.writeChunk.mockImplementationOnce(async (_s, b, _length, observe) => {
      let seen = 0;
      for await (const piece of b as AsyncIterable<Buffer>) {
        observe?.(piece);
        seen += piece.length;
      }
      return { written: keep ?? seen };
    });
  }

  it('hashes each chunk as it arrives: the complete upload has the SHA-256 of its bytes', async () => {
    const f = file();
    const { service, store, digests } = setup({ file: f });
    storing(store);
    await send(service, 'bytes 0-4/10', 'hello');
    f.received = '5';
    storing(store);
    await expect(send(service, 'bytes 5-9/10', 'world')).resolves.toMatchObject({ status: 200 });
    expect(digests.checksum('f1', 10)).toBe(sha('helloworld'));
  });

  it('a chunk cut after what it stored resumes the checksum from there', async () => {
    const f = file();
    const { service, store, digests } = setup({ file: f });
    storing(store);
    // the client went away after 3 bytes of 5: all 3 were stored and hashed
    await send(service, 'bytes 0-4/10', 'hel', 5);
    expect(store.writeChunk).toHaveBeenLastCalledWith(
      expect.anything(),
      expect.anything(),
      5,
      expect.any(Function),
    );
    f.received = '3';
    storing(store);
    await send(service, 'bytes 3-9/10', 'loworld');
    expect(digests.checksum('f1', 10)).toBe(sha('helloworld'));
  });

  it('a chunk whose stored bytes are not the ones hashed leaves no checksum: CLOSED reads them back', async () => {
    const f = file();
    const { service, store, digests } = setup({ file: f });
    storing(store, 2);
    await send(service, 'bytes 0-4/10', 'hello');
    f.received = '2';
    storing(store);
    await send(service, 'bytes 2-9/10', 'lloworld');
    expect(store.writeChunk).toHaveBeenLastCalledWith(expect.anything(), expect.anything(), 8, undefined);
    expect(digests.checksum('f1', 10)).toBeNull();
  });

  it('a chunk whose lease was lost before its release keeps no checksum', async () => {
    const f = file({ received: '5' });
    const digests = new UploadDigests();
    const hash = digests.take('f1', 0)!.update('hello');
    digests.keep('f1', 5, hash, false);
    const { service, store, repo } = setup({ file: f, digests });
    repo.releaseUploadLease.mockResolvedValueOnce(false);
    storing(store);
    await send(service, 'bytes 5-9/10', 'world');
    expect(store.writeChunk).toHaveBeenLastCalledWith(
      expect.anything(),
      expect.anything(),
      5,
      expect.any(Function),
    );
    expect(digests.checksum('f1', 10)).toBeNull();
  });

  it('a failed or refused chunk drops the running checksum', async () => {
    const f = file({ received: '5' });
    const digests = new UploadDigests();
    digests.keep('f1', 5, digests.take('f1', 0)!.update('hello'), false);
    const { service, store } = setup({ file: f, digests });
    store.writeChunk.mockRejectedValueOnce(new ChunkTooLargeError());
    await expect(send(service, 'bytes 5-9/10', 'world')).rejects.toMatchObject({ status: 413 });
    expect(digests.take('f1', 5)).toBeNull();
  });
});
