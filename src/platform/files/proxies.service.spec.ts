import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { FileEntity } from '../../base/model/file.entity.js';
import type { ProxyEntity } from '../../base/model/proxy.entity.js';
import type { StorageEntity } from '../../base/model/storage.entity.js';
import type { CreateProxyDto, UpdateProxyDto } from './dto/proxy.dto.js';
import type { FileLinks } from './file-links.js';
import type { FilesRepository } from './files.repository.js';
import type { FilesService } from './files.service.js';
import { ProxiesService } from './proxies.service.js';
import type { ProxiesRepository, ProxyWithFile } from './proxies.repository.js';
import type { StoragesService } from './storages.service.js';
import { fixedClock, repoWithTransaction, wire } from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';

const TX = { tx: true };
const caller = { userId: 'u1', systemDomainId: 'd1' } as AuthContext;

/** What a client gets from the refusal `p` ends in (a test fails when it is not refused). */
async function refused(p: Promise<unknown>): Promise<ReturnType<typeof wire>> {
  try {
    await p;
  } catch (e) {
    return wire(e);
  }
  throw new Error('expected a refusal');
}

function proxy(file: Partial<FileEntity> = {}, over: Partial<ProxyEntity> = {}): ProxyWithFile {
  return {
    id: 'p1',
    asset_id: 'a1',
    file_id: 'f1',
    version_id: 'v1',
    name: 'proxy',
    filename: 'proxy.mp4',
    format: null,
    codec: null,
    audio_bitrate: null,
    bit_rate: null,
    frame_rate: null,
    is_drop_frame: false,
    is_public: false,
    resolution: null,
    rotation: null,
    start_time_code: null,
    date_created: NOW,
    date_modified: NOW,
    ...over,
    file: {
      id: 'f1',
      storage_id: 's1',
      status: 'OPEN',
      size: '10',
      received: '0',
      checksum: null,
      date_deleted: null,
      upload_lock_until: null,
      ...file,
    } as FileEntity,
  } as ProxyWithFile;
}

function setup(o: { row?: ProxyWithFile | null; storage?: Partial<StorageEntity>; version?: boolean } = {}) {
  const row = o.row === undefined ? proxy() : o.row;
  const repo = repoWithTransaction(TX, {
    insert: jest.fn(async (_f: Partial<FileEntity>, _p: Partial<ProxyEntity>) => undefined),
    currentVersion: jest.fn(async () => 'v1'),
    isVersionOf: jest.fn(async () => o.version ?? true),
    page: jest.fn(async () => [row ? [row] : [], row ? 1 : 0]),
    one: jest.fn(async () => row),
    lockForRemoval: jest.fn(async () => (row ? [row] : [])),
    update: jest.fn(async () => undefined),
    deleteRows: jest.fn(async () => undefined),
  });
  const files = { closeProxyFile: jest.fn(async () => undefined) };
  const filesRepo = {
    proxyFile: jest.fn(async () => row?.file ?? null),
    markFileDeleted: jest.fn(async () => undefined),
    queueByteDeletion: jest.fn(async () => undefined),
    storageMethods: jest.fn(async () => new Map([['s1', 'FILE']])),
  };
  const storage = { id: 's9', method: 'FILE', status: 'ACTIVE', ...o.storage } as StorageEntity;
  const storages = {
    visible: jest.fn(async () => storage),
    matching: jest.fn(async () => storage),
  };
  const links = {
    uploadUrl: (id: string) => `http://x/upload/${id}/?expires=1&signature=s`,
    fileDownloadUrl: (id: string) => `http://x/download/files/${id}/?expires=1777640000&signature=s`,
  };
  const service = new ProxiesService(
    repo as unknown as ProxiesRepository,
    files as unknown as FilesService,
    filesRepo as unknown as FilesRepository,
    storages as unknown as StoragesService,
    links as unknown as FileLinks,
    fixedClock(NOW),
    { maxFileBytes: 1000 } as never,
  );
  return { service, repo, files, filesRepo, storages };
}

describe('ProxiesService', () => {
  it('creates the file that holds the bytes (in the PROXIES storage) and the proxy naming it', async () => {
    const { service, repo, storages } = setup();
    const out = await service.create(caller, 'a1', { name: 'p', size: 10, codec: 'h264' } as CreateProxyDto);
    expect(storages.matching).toHaveBeenCalledWith(caller, 'PROXIES');
    const [f, p] = repo.insert.mock.calls[0];
    expect(f).toMatchObject({
      asset_id: 'a1',
      storage_id: 's9',
      original_name: 'p',
      size: '10',
      type: 'FILE',
    });
    expect(f.object_key).toBe(`files/${String(f.id).slice(0, 2)}/${f.id}`);
    expect(p).toMatchObject({
      asset_id: 'a1',
      file_id: f.id,
      name: 'p',
      filename: 'p',
      codec: 'h264',
      version_id: 'v1',
    });
    expect(out.upload_url).toContain('/upload/f1/');
  });

  it.each([
    [{ filename: '../x' }, 'filename'],
    [{ filename: 'a\u202Eb' }, 'filename'],
    [{ name: 'a\u200Bb' }, 'name'],
    [{ size: 1001 }, 'size'],
  ])('refuses %j (400 naming %s) and creates nothing', async (body, field) => {
    const { service, repo } = setup();
    const err = await refused(service.create(caller, 'a1', body as CreateProxyDto));
    expect(err.status).toBe(400);
    expect(Object.keys(err.errors as object)).toContain(field);
    expect(repo.insert).not.toHaveBeenCalled();
  });

  it('refuses a version of another asset, and a storage that cannot take bytes', async () => {
    let s = setup({ version: false });
    expect(
      (await refused(s.service.create(caller, 'a1', { version_id: 'v9' } as CreateProxyDto))).status,
    ).toBe(400);
    s = setup({ storage: { status: 'INACTIVE' } });
    expect(
      (await refused(s.service.create(caller, 'a1', { storage_id: 's9' } as CreateProxyDto))).status,
    ).toBe(400);
    expect(s.repo.insert).not.toHaveBeenCalled();
  });

  it('status CLOSED closes the file through the files’ close; another status is a 400 that changes nothing', async () => {
    let s = setup();
    await s.service.update('a1', 'p1', { status: 'CLOSED', codec: 'x' } as UpdateProxyDto);
    expect(s.files.closeProxyFile).toHaveBeenCalledWith('a1', 'f1');
    expect(s.repo.update).toHaveBeenCalledWith(expect.objectContaining({ id: 'p1' }), { codec: 'x' });
    s = setup();
    expect(
      (await refused(s.service.update('a1', 'p1', { status: 'FAILED', codec: 'x' } as UpdateProxyDto)))
        .status,
    ).toBe(400);
    expect(s.files.closeProxyFile).not.toHaveBeenCalled();
    expect(s.repo.update).not.toHaveBeenCalled();
    // the status it has already: nothing to close
    s = setup({ row: proxy({ status: 'CLOSED' }) });
    await s.service.update('a1', 'p1', { status: 'CLOSED' } as UpdateProxyDto);
    expect(s.files.closeProxyFile).not.toHaveBeenCalled();
  });

  it('a missing proxy is a 404', async () => {
    const { service } = setup({ row: null });
    expect((await refused(service.get('a1', 'p1'))).status).toBe(404);
    expect((await refused(service.remove('a1', { id: 'p1' }))).status).toBe(404);
  });

  it('delete: the file is marked DELETED and its bytes queued, in the transaction; a chunk in flight is a 409', async () => {
    let s = setup();
    await s.service.remove('a1', { id: 'p1' });
    expect(s.filesRepo.markFileDeleted).toHaveBeenCalledWith(TX, 'f1', NOW);
    expect(s.filesRepo.queueByteDeletion).toHaveBeenCalledWith(TX, [expect.objectContaining({ id: 'f1' })]);
    expect(s.repo.deleteRows).toHaveBeenCalledWith(TX, ['p1']);
    s = setup({ row: proxy({ upload_lock_until: new Date(NOW.getTime() + 1000) }) });
    expect((await refused(s.service.remove('a1', { id: 'p1' }))).status).toBe(409);
    expect(s.repo.deleteRows).not.toHaveBeenCalled();
  });

  it('download_url only for a CLOSED proxy; the view links upload while OPEN, download once CLOSED', async () => {
    let s = setup();
    expect((await refused(s.service.downloadUrl('a1', 'p1'))).status).toBe(400);
    expect(await s.service.get('a1', 'p1')).toMatchObject({
      status: 'OPEN',
      url: null,
      upload_url: expect.any(String),
    });
    s = setup({ row: proxy({ status: 'CLOSED', received: '10' }) });
    expect(await s.service.downloadUrl('a1', 'p1')).toEqual({
      url: expect.stringContaining('/download/files/f1/'),
      expires: expect.any(String),
    });
    expect(await s.service.get('a1', 'p1')).toMatchObject({
      status: 'CLOSED',
      upload_url: null,
      url: expect.any(String),
    });
    s = setup({ row: proxy({ status: 'CLOSED', date_deleted: NOW }) });
    expect(await s.service.get('a1', 'p1')).toMatchObject({ status: 'DELETED', url: null });
  });
});
