import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { FileSetEntity, FormatEntity } from '../../base/model/file.entity.js';
import { FormatsService } from './formats.service.js';
import { repoWithTransaction } from '../../../test/utils/fakes.js';
import { MANAGER } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const T0 = new Date('2026-05-01T12:00:00Z');
const TX = { tx: true };
const caller = { userId: 'u1', systemDomainId: 'd1' } as AuthContext;

const FORMAT = {
  id: 'fmt',
  asset_id: 'a1',
  version_id: 'v1',
  name: 'original',
  user_id: 'u1',
  metadata: [],
  storage_methods: [],
  status: 'ACTIVE',
  date_created: T0,
  date_modified: T0,
} as unknown as FormatEntity;

const SET = {
  id: 'set',
  asset_id: 'a1',
  format_id: null,
  storage_id: null,
  version_id: 'v1',
  name: 'clip.mp4',
  base_dir: '',
  component_ids: [],
  status: 'ACTIVE',
  date_created: T0,
  date_modified: T0,
} as unknown as FileSetEntity;

function setup(
  o: { format?: FormatEntity | null; set?: FileSetEntity | null; used?: number; count?: number } = {},
) {
  const repo = repoWithTransaction(TX, {
    manager: MANAGER,
    currentVersion: jest.fn(async () => 'v1'),
    format: jest.fn(async () => (o.format === undefined ? FORMAT : o.format)),
    insertFormat: jest.fn(async (_v: Partial<FormatEntity>) => 'fmt'),
    formats: jest.fn(async () => [[FORMAT], 1]),
    updateFormat: jest.fn(async () => undefined),
    liveFilesOfFormat: jest.fn(async () => o.used ?? 0),
    deleteFormat: jest.fn(async () => undefined),
    fileSet: jest.fn(async () => (o.set === undefined ? SET : o.set)),
    insertFileSet: jest.fn(async (_v: Partial<FileSetEntity>) => 'set'),
    fileSets: jest.fn(async () => [[SET], 1]),
    updateFileSet: jest.fn(async () => undefined),
    deleteFileSet: jest.fn(async () => undefined),
    fileCounts: jest.fn(async () => new Map(o.count ? [['set', o.count]] : [])),
  });
  const storages = { visible: jest.fn(async () => ({ id: 'store' })) };
  const service = construct(FormatsService, repo, storages);
  return { service, repo, storages };
}

describe('FormatsService: formats', () => {
  it('a format is the caller’s unless the body names a user, and of the asset’s current version', async () => {
    const { service, repo } = setup();
    await service.createFormat(caller, 'a1', { name: 'proxy' });
    expect(repo.insertFormat).toHaveBeenCalledWith(
      expect.objectContaining({
        asset_id: 'a1',
        version_id: 'v1',
        user_id: 'u1',
        metadata: [],
        storage_methods: [],
      }),
    );
    await service.createFormat(caller, 'a1', { name: 'proxy', user_id: 'u2' });
    expect(repo.insertFormat).toHaveBeenLastCalledWith(expect.objectContaining({ user_id: 'u2' }));
  });

  it('a format of another asset is a 404, to read, change or delete', async () => {
    const { service, repo } = setup({ format: null });
    await expect(service.getFormat('a1', 'fmt')).rejects.toMatchObject({ status: 404 });
    await expect(service.updateFormat('a1', 'fmt', { name: 'x' })).rejects.toMatchObject({ status: 404 });
    await expect(service.deleteFormat('a1', 'fmt')).rejects.toMatchObject({ status: 404 });
    expect(repo.format).toHaveBeenCalledWith(MANAGER, 'a1', 'fmt');
    expect(repo.updateFormat).not.toHaveBeenCalled();
    expect(repo.deleteFormat).not.toHaveBeenCalled();
  });

  it('an update writes only what the body says, and nothing for an empty body', async () => {
    const { service, repo } = setup();
    await service.updateFormat('a1', 'fmt', {});
    expect(repo.updateFormat).not.toHaveBeenCalled();
    await service.updateFormat('a1', 'fmt', { name: 'proxy' });
    expect(repo.updateFormat).toHaveBeenCalledWith('fmt', { name: 'proxy' });
  });

  it('a format with live files is not deleted: 400', async () => {
    const { service, repo } = setup({ used: 2 });
    await expect(service.deleteFormat('a1', 'fmt')).rejects.toMatchObject({ status: 400 });
    expect(repo.deleteFormat).not.toHaveBeenCalled();
  });

  it('the check and the deletion are one transaction', async () => {
    const { service, repo } = setup();
    await service.deleteFormat('a1', 'fmt');
    expect(repo.transaction).toHaveBeenCalledTimes(1);
    expect(repo.format).toHaveBeenCalledWith(TX, 'a1', 'fmt');
    expect(repo.liveFilesOfFormat).toHaveBeenCalledWith(TX, 'fmt');
    expect(repo.deleteFormat).toHaveBeenCalledWith(TX, 'fmt');
  });
});

describe('FormatsService: file sets', () => {
  it('refuses invisible or text-direction characters in a name or base directory: 400', async () => {
    const { service, repo } = setup();
    await expect(service.createFileSet(caller, 'a1', { name: 'clip\u202e4pm.exe' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(service.updateFileSet('a1', 'set', { base_dir: 'a\u200bb' })).rejects.toMatchObject({
      status: 400,
    });
    expect(repo.insertFileSet).not.toHaveBeenCalled();
    expect(repo.updateFileSet).not.toHaveBeenCalled();
  });

  it('a file set’s format must be the asset’s and its storage one the caller sees', async () => {
    const { service, repo, storages } = setup({ format: null });
    await expect(service.createFileSet(caller, 'a1', { name: 's', format_id: 'fmt' })).rejects.toMatchObject({
      status: 404,
    });
    expect(repo.insertFileSet).not.toHaveBeenCalled();
    const ok = setup();
    await ok.service.createFileSet(caller, 'a1', { name: 's', format_id: 'fmt', storage_id: 'store' });
    expect(ok.storages.visible).toHaveBeenCalledWith(caller, 'store');
    expect(ok.repo.insertFileSet).toHaveBeenCalledWith(
      expect.objectContaining({ format_id: 'fmt', storage_id: 'store', version_id: 'v1', base_dir: '' }),
    );
    expect(storages.visible).not.toHaveBeenCalled();
  });

  it('a file set with live files is not deleted: 400; the count is read in the deletion’s transaction', async () => {
    const { service, repo } = setup({ count: 1 });
    await expect(service.deleteFileSet('a1', 'set')).rejects.toMatchObject({ status: 400 });
    expect(repo.fileCounts).toHaveBeenCalledWith(TX, ['set']);
    expect(repo.deleteFileSet).not.toHaveBeenCalled();
    const empty = setup();
    await empty.service.deleteFileSet('a1', 'set');
    expect(empty.repo.deleteFileSet).toHaveBeenCalledWith(TX, 'set');
  });

  it('a file set of another asset is a 404', async () => {
    const { service } = setup({ set: null });
    await expect(service.getFileSet('a1', 'set')).rejects.toMatchObject({ status: 404 });
    await expect(service.deleteFileSet('a1', 'set')).rejects.toMatchObject({ status: 404 });
  });

  it('a file set’s view counts its live files', async () => {
    expect((await setup({ count: 3 }).service.getFileSet('a1', 'set')).file_count).toBe(3);
    expect((await setup().service.getFileSet('a1', 'set')).file_count).toBe(0);
  });
});
