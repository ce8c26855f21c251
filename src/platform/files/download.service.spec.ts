import { jest } from '@jest/globals';
import { Readable } from 'node:stream';
import type { FileEntity, KeyframeEntity } from '../../base/model/file.entity.js';
import type { ByteStores } from './byte-stores.js';
import { DownloadService } from './download.service.js';
import type { FilesRepository } from './files.repository.js';

const STORAGE = { id: 's1', method: 'FILE', settings: {} };

function setup(o: { file?: Partial<FileEntity> | null; keyframe?: Partial<KeyframeEntity> | null } = {}) {
  const bytes = Readable.from([Buffer.from('0123456789')]);
  const repo = {
    closedFileOfLiveAsset: jest.fn(async () =>
      o.file === null
        ? null
        : { storage_id: 's1', object_key: 'files/f1/f1', size: '10', original_name: 'clip.bin', ...o.file },
    ),
    keyframeOfLiveAsset: jest.fn(async () =>
      o.keyframe === null
        ? null
        : { storage_id: 's1', object_key: 'keyframes/k1.jpg', size: '10', ...o.keyframe },
    ),
    storageOf: jest.fn(async () => STORAGE),
  };
  const store = { read: jest.fn(async () => bytes) };
  const stores = { of: jest.fn(() => store) };
  const service = new DownloadService(repo as unknown as FilesRepository, stores as unknown as ByteStores);
  return { service, repo, store, stores };
}

describe('DownloadService.file', () => {
  it('a CLOSED file of a live asset, or a 404', async () => {
    const { service, repo } = setup({ file: null });
    await expect(service.file('f1', undefined)).rejects.toMatchObject({
      status: 404,
      code: 'files.FILE_NOT_FOUND',
    });
    expect(repo.closedFileOfLiveAsset).toHaveBeenCalledWith('f1');
  });

  it('always an attachment of octet-stream that runs nothing on this origin', async () => {
    const { service, stores, store } = setup();
    const d = await service.file('f1', undefined);
    expect(d.status).toBe(200);
    expect(stores.of).toHaveBeenCalledWith(STORAGE);
    expect(store.read).toHaveBeenCalledWith('files/f1/f1');
    expect(d.headers).toMatchObject({
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename="clip.bin"; filename*=UTF-8''clip.bin`,
      'Content-Length': '10',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, no-store',
      'Accept-Ranges': 'bytes',
    });
  });

  it('a name with quotes, backslashes and other letters: an ASCII fallback and the UTF-8 name', async () => {
    const { service } = setup({ file: { original_name: 'a"b\\ü.txt' } });
    const d = await service.file('f1', undefined);
    expect(d.headers['Content-Disposition']).toBe(
      `attachment; filename="a_b__.txt"; filename*=UTF-8''${encodeURIComponent('a"b\\ü.txt')}`,
    );
  });

  it('one Range is a 206 of those bytes', async () => {
    const { service, store } = setup();
    const d = await service.file('f1', 'bytes=2-5');
    expect(d.status).toBe(206);
    expect(d.headers).toMatchObject({ 'Content-Length': '4', 'Content-Range': 'bytes 2-5/10' });
    expect(store.read).toHaveBeenCalledWith('files/f1/f1', { start: 2, end: 5 });
  });

  it('a Range past the end is a 416 naming the size; nothing is read', async () => {
    const { service, store } = setup();
    await expect(service.file('f1', 'bytes=10-')).rejects.toMatchObject({
      status: 416,
      headers: { 'Content-Range': 'bytes */10' },
    });
    expect(store.read).not.toHaveBeenCalled();
  });

  it('an empty file is an empty 200 without reading the store', async () => {
    const { service, store } = setup({ file: { size: '0' } });
    const d = await service.file('f1', undefined);
    expect(d).toMatchObject({ status: 200, headers: { 'Content-Length': '0' } });
    expect(store.read).not.toHaveBeenCalled();
  });
});

describe('DownloadService.keyframe', () => {
  it('a keyframe of a live asset as image/jpeg, or a 404', async () => {
    await expect(setup({ keyframe: null }).service.keyframe('k1', undefined)).rejects.toMatchObject({
      status: 404,
      code: 'files.KEYFRAME_NOT_FOUND',
    });
    const { service, store } = setup();
    const d = await service.keyframe('k1', undefined);
    expect(d.headers).toMatchObject({ 'Content-Type': 'image/jpeg', 'Content-Length': '10' });
    expect(d.headers['Content-Disposition']).toBeUndefined();
    expect(store.read).toHaveBeenCalledWith('keyframes/k1.jpg');
  });
});
