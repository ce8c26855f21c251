import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { Clock } from '../../base/common/clock.js';
import type { FileEntity, FileSetEntity } from '../../base/model/file.entity.js';
import type { CreateFileDto } from './dto/file.dto.js';
import { FilesService } from './files.service.js';
import { UploadDigests } from './upload-digests.js';
import { repoWithTransaction } from '../../../test/utils/fakes.js';
import { MANAGER, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { fileRow as file, storageRow as storage } from '../../../test/utils/fakes/files.js';

const TX = { tx: true };
const MAX = 1000;
const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

const caller = { userId: 'u1', systemDomainId: 'd1' } as AuthContext;

function setup(
  o: { file?: FileEntity | null; updated?: boolean; bytes?: string; digests?: UploadDigests } = {},
) {
  const f = o.file === undefined ? file() : o.file;
  const repo = repoWithTransaction(TX, {
    manager: MANAGER,
    insertFile: jest.fn(async (_values: Partial<FileEntity>) => undefined),
    liveFiles: jest.fn(async () => [[], 0]),
    liveFile: jest.fn(async () => f),
    updateFileIfUnchanged: jest.fn(async () => o.updated ?? true),
    markFileDeleted: jest.fn(async () => undefined),
    queueByteDeletion: jest.fn(async () => undefined),
    setContentType: jest.fn(async () => undefined),
    storageOf: jest.fn(async () => storage()),
    storageMethods: jest.fn(async () => new Map([['s1', 'FILE']])),
  });
  const storages = {
    visible: jest.fn(async () => storage({ id: 'chosen' })),
    matching: jest.fn(async () => storage({ id: 'default' })),
  };
  const formats = {
    format: jest.fn(async () => ({ id: 'fmt' })),
    fileSet: jest.fn(async (): Promise<Partial<FileSetEntity>> => ({
      id: 'set',
      storage_id: null,
      format_id: null,
    })),
    currentVersion: jest.fn(async () => 'v1'),
  };
  const store = { sha256: jest.fn(async () => sha(o.bytes ?? 'hello')) };
  const stores = { of: jest.fn(() => store) };
  const links = {
    uploadUrl: (id: string) => `https://x/upload/${id}/`,
    fileDownloadUrl: (id: string) => `https://x/download/${id}/?expires=1777777777`,
  };
  const service = construct(
    FilesService,
    storages,
    formats,
    stores,
    links,
    { now: () => new Date(NOW) } as Clock,
    repo,
    o.digests ?? new UploadDigests(),
  );
  return { service, repo, storages, formats, store };
}

const body = (over: Partial<CreateFileDto> = {}): CreateFileDto => ({
  original_name: 'clip.bin',
  directory_path: 'clips/2026',
  type: 'FILE',
  size: 5,
  ...over,
});

describe('FilesService.create', () => {
  it.each([
    ['a name with a slash', { original_name: 'a/b' }],
    ['a name of "..', { original_name: '..' }],
    ['a name with a control character', { original_name: 'a\u0000b' }],
    ['a directory with a control character', { directory_path: 'a\u0007/b' }],
    ['a name with a backslash', { original_name: 'a\\b' }],
    ['a path for a name', { original_name: '../../etc/passwd' }],
    ['a directory climbing out', { directory_path: '../up' }],
    ['a directory climbing out midway', { directory_path: 'a/../../b' }],
    ['a directory from the root climbing out', { directory_path: '/../up' }],
    ['a directory with a drive letter', { directory_path: 'C:/win' }],
    ['a size over FILES_MAX_BYTES', { size: MAX + 1 }],
  ] as const)('refuses %s: 400, nothing stored', async (_name, over) => {
    const { service, repo } = setup();
    await expect(service.create(caller, 'a1', body(over), MAX)).rejects.toMatchObject({ status: 400 });
    expect(repo.insertFile).not.toHaveBeenCalled();
  });

  it.each([
    ['/', ''],
    ['/clips/2026', 'clips/2026'],
    ['//clips', 'clips'],
    ['clips/2026', 'clips/2026'],
  ])(
    'a directory_path of %p names the root as published clients send it: stored as %p',
    async (dir, stored) => {
      const { service, repo } = setup();
      await service.create(caller, 'a1', body({ directory_path: dir }), MAX);
      expect((repo.insertFile.mock.calls[0][0] as FileEntity).directory_path).toBe(stored);
    },
  );

  it('stores an OPEN file under a key made of its id, in the default FILES storage, by the caller', async () => {
    const { service, repo, storages } = setup();
    const dto = await service.create(caller, 'a1', body({ metadata: { k: 'v' } }), MAX);
    expect(storages.matching).toHaveBeenCalledWith(caller, 'FILES');
    const row = repo.insertFile.mock.calls[0][0] as FileEntity;
    expect(row).toMatchObject({
      asset_id: 'a1',
      version_id: 'v1',
      storage_id: 'default',
      object_key: `files/${row.id.slice(0, 2)}/${row.id}`,
      original_name: 'clip.bin',
      size: '5',
      metadata: { k: 'v' },
      created_by_user: 'u1',
    });
    expect(dto.upload_url).toBe('https://x/upload/f1/');
  });

  it('a storage named by the body must be visible to the caller; a file set’s storage and format are inherited', async () => {
    const named = setup();
    await named.service.create(caller, 'a1', body({ storage_id: 'chosen' }), MAX);
    expect(named.storages.visible).toHaveBeenCalledWith(caller, 'chosen');
    const inSet = setup();
    inSet.formats.fileSet.mockResolvedValueOnce({ id: 'set', storage_id: 'set-store', format_id: 'set-fmt' });
    await inSet.service.create(caller, 'a1', body({ file_set_id: 'set' }), MAX);
    expect(inSet.formats.fileSet).toHaveBeenCalledWith(MANAGER, 'a1', 'set');
    expect(inSet.storages.visible).toHaveBeenCalledWith(caller, 'set-store');
    expect(inSet.repo.insertFile).toHaveBeenCalledWith(
      expect.objectContaining({ file_set_id: 'set', format_id: 'set-fmt' }),
    );
  });

  it('a format named by the body must be the asset’s', async () => {
    const { service, formats, repo } = setup();
    formats.format.mockRejectedValueOnce(new Error('FORMAT_NOT_FOUND'));
    await expect(service.create(caller, 'a1', body({ format_id: 'other' }), MAX)).rejects.toThrow();
    expect(formats.format).toHaveBeenCalledWith(MANAGER, 'a1', 'other');
    expect(repo.insertFile).not.toHaveBeenCalled();
  });

  it('a storage this service cannot write to (another method, or not ACTIVE) is a 400', async () => {
    for (const s of [storage({ method: 'GCS' }), storage({ status: 'INACTIVE' })]) {
      const { service, storages, repo } = setup();
      storages.matching.mockResolvedValueOnce(s);
      await expect(service.create(caller, 'a1', body(), MAX)).rejects.toMatchObject({
        status: 400,
        code: 'files.STORAGE_NOT_WRITABLE',
      });
      expect(repo.insertFile).not.toHaveBeenCalled();
    }
  });
});

describe('FilesService.update: closing', () => {
  it('CLOSED before every declared byte arrived is a 400 and nothing is written', async () => {
    const { service, repo } = setup({ file: file({ size: '10', received: '4' }) });
    await expect(service.update('a1', 'f1', { status: 'CLOSED' })).rejects.toMatchObject({
      status: 400,
      code: 'files.SIZE_MISMATCH',
    });
    expect(repo.updateFileIfUnchanged).not.toHaveBeenCalled();
  });

  it('an unfinished multipart upload cannot be closed', async () => {
    const { service, repo } = setup({ file: file({ multipart_upload_id: 'mp1' }) });
    await expect(service.update('a1', 'f1', { status: 'CLOSED' })).rejects.toMatchObject({ status: 400 });
    expect(repo.updateFileIfUnchanged).not.toHaveBeenCalled();
  });

  it('closes with the checksum of the stored bytes and the size, only if nothing moved since the read', async () => {
    const f = file();
    const { service, repo, store } = setup({ file: f, bytes: 'hello' });
    await service.update('a1', 'f1', { status: 'CLOSED', progress_processed: 100 });
    expect(store.sha256).toHaveBeenCalledWith('files/f1/f1');
    expect(repo.updateFileIfUnchanged).toHaveBeenCalledWith('f1', f, NOW, {
      progress_processed: 100,
      checksum: sha('hello'),
      status: 'CLOSED',
      size: '5',
    });
  });

  it('takes the checksum the upload computed as the chunks arrived, without reading the bytes back', async () => {
    const digests = new UploadDigests();
    const hash = digests.take('f1', 0)!;
    hash.update('hel');
    digests.keep('f1', 3, hash, false);
    digests.take('f1', 3)!.update('lo');
    digests.keep('f1', 5, hash, true);
    const { service, repo, store } = setup({ digests, bytes: 'other' });
    await service.update('a1', 'f1', { status: 'CLOSED' });
    expect(store.sha256).not.toHaveBeenCalled();
    expect(repo.updateFileIfUnchanged).toHaveBeenCalledWith(
      'f1',
      expect.anything(),
      NOW,
      expect.objectContaining({ checksum: sha('hello'), status: 'CLOSED' }),
    );
    // closed: the instance forgets it
    expect(digests.checksum('f1', 5)).toBeNull();
  });

  it('reads the bytes back when this instance did not hash all of them (another took a chunk)', async () => {
    const digests = new UploadDigests();
    const hash = digests.take('f1', 0)!;
    hash.update('hel');
    digests.keep('f1', 3, hash, false);
    const { service, repo, store } = setup({ digests, bytes: 'hello' });
    await service.update('a1', 'f1', { status: 'CLOSED' });
    expect(store.sha256).toHaveBeenCalledWith('files/f1/f1');
    expect(repo.updateFileIfUnchanged).toHaveBeenCalledWith(
      'f1',
      expect.anything(),
      NOW,
      expect.objectContaining({ checksum: sha('hello') }),
    );
  });

  it('an unsized file closes at the bytes received; an empty one without reading the store', async () => {
    const unsized = setup({ file: file({ size: null, received: '5' }) });
    await unsized.service.update('a1', 'f1', { status: 'CLOSED' });
    expect(unsized.repo.updateFileIfUnchanged).toHaveBeenCalledWith(
      'f1',
      expect.anything(),
      NOW,
      expect.objectContaining({ size: '5' }),
    );
    const empty = setup({ file: file({ size: '0', received: '0' }) });
    await empty.service.update('a1', 'f1', { status: 'CLOSED' });
    expect(empty.store.sha256).not.toHaveBeenCalled();
    expect(empty.repo.updateFileIfUnchanged).toHaveBeenCalledWith(
      'f1',
      expect.anything(),
      NOW,
      expect.objectContaining({ checksum: sha('') }),
    );
  });

  it('a chunk or a PATCH racing the change makes it a 409', async () => {
    const { service } = setup({ updated: false });
    await expect(service.update('a1', 'f1', { status: 'CLOSED' })).rejects.toMatchObject({ status: 409 });
    await expect(service.update('a1', 'f1', { metadata: {} })).rejects.toMatchObject({ status: 409 });
  });

  it('a CLOSED file cannot be opened again; closing it again changes nothing', async () => {
    const { service, repo } = setup({ file: file({ status: 'CLOSED' }) });
    await expect(service.update('a1', 'f1', { status: 'OPEN' })).rejects.toMatchObject({ status: 400 });
    await service.update('a1', 'f1', { status: 'CLOSED' });
    expect(repo.updateFileIfUnchanged).not.toHaveBeenCalled();
  });

  it('a file of another asset, or deleted, is a 404', async () => {
    const { service, repo } = setup({ file: null });
    await expect(service.update('a1', 'f1', { metadata: {} })).rejects.toMatchObject({ status: 404 });
    expect(repo.liveFile).toHaveBeenCalledWith(MANAGER, 'a1', 'f1', false);
  });
});

describe('FilesService.remove', () => {
  it('locks the row, marks it DELETED and queues its bytes’ removal, in one transaction', async () => {
    const f = file();
    const { service, repo } = setup({ file: f });
    await service.remove('a1', 'f1');
    expect(repo.transaction).toHaveBeenCalledTimes(1);
    expect(repo.liveFile).toHaveBeenCalledWith(TX, 'a1', 'f1', true);
    expect(repo.markFileDeleted).toHaveBeenCalledWith(TX, 'f1', NOW);
    expect(repo.queueByteDeletion).toHaveBeenCalledWith(TX, [f]);
  });

  it('a file with a chunk being written is a 409: its bytes would come back after their removal', async () => {
    const { service, repo } = setup({ file: file({ upload_lock_until: new Date(NOW.getTime() + 1) }) });
    await expect(service.remove('a1', 'f1')).rejects.toMatchObject({ status: 409 });
    expect(repo.markFileDeleted).not.toHaveBeenCalled();
    expect(repo.queueByteDeletion).not.toHaveBeenCalled();
  });

  it('a lapsed lease does not hold the deletion', async () => {
    const { service, repo } = setup({ file: file({ upload_lock_until: new Date(NOW.getTime() - 1) }) });
    await service.remove('a1', 'f1');
    expect(repo.markFileDeleted).toHaveBeenCalled();
  });
});

describe('FilesService: links', () => {
  it('a compose URL only for an OPEN file, recording its content type', async () => {
    const open = setup();
    await expect(open.service.composeUrl('a1', 'f1', { content_type: 'video/mp4' })).resolves.toMatchObject({
      url: 'https://x/upload/f1/',
      key: 'files/f1/f1',
    });
    expect(open.repo.setContentType).toHaveBeenCalledWith('f1', 'video/mp4');
    const closed = setup({ file: file({ status: 'CLOSED' }) });
    await expect(closed.service.composeUrl('a1', 'f1', {})).rejects.toMatchObject({ status: 400 });
  });

  it('a download URL only for a CLOSED file, with its expiry', async () => {
    await expect(setup().service.downloadUrl('a1', 'f1')).rejects.toMatchObject({
      status: 400,
      code: 'files.NOT_CLOSED',
    });
    const closed = setup({ file: file({ status: 'CLOSED' }) });
    await expect(closed.service.downloadUrl('a1', 'f1')).resolves.toEqual({
      url: 'https://x/download/f1/?expires=1777777777',
      expires: '2026-05-03T03:09:37.000000+00:00',
    });
  });

  it('a file’s view has an upload URL only while OPEN', async () => {
    expect((await setup().service.get('a1', 'f1')).upload_url).toBe('https://x/upload/f1/');
    expect((await setup({ file: file({ status: 'CLOSED' }) }).service.get('a1', 'f1')).upload_url).toBeNull();
  });
});
