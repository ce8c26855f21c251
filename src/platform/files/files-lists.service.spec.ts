import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { Clock } from '../../base/common/clock.js';
import type { FileEntity } from '../../base/model/file.entity.js';
import type { ByteStores } from './byte-stores.js';
import { FilesService } from './files.service.js';
import type { StoragesService } from './storages.service.js';
import { UploadDigests } from './upload-digests.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { fileRow as file } from '../../../test/utils/fakes/files.js';

const caller = { userId: 'u1', systemDomainId: 'd1' } as AuthContext;

/** FilesService over fakes: the repository's reads, the file set lookup, links that name their file. */
function setup(f: FileEntity = file()) {
  const repo = {
    manager: {},
    liveFiles: jest.fn(async (): Promise<[FileEntity[], number]> => [[], 0]),
    liveFile: jest.fn(async () => f),
    storageMethods: jest.fn(async () => new Map([['s1', 'FILE']])),
    fileSetsInDomain: jest.fn(async (): Promise<{ id: string; asset_id: string }[]> => []),
  };
  const formats = { fileSet: jest.fn(async (): Promise<unknown> => ({ id: 'set' })) };
  const links = {
    uploadUrl: (id: string) => `https://x/upload/${id}/`,
    fileDownloadUrl: (id: string) => `https://x/download/${id}/?expires=1777777777`,
  };
  const service = construct(
    FilesService,
    {} as StoragesService,
    formats,
    {} as ByteStores,
    links,
    { now: () => new Date(NOW) } as Clock,
    repo,
    new UploadDigests(),
  );
  return { service, repo, formats };
}

describe('FilesService: signed urls on reads, and the lists of a file set or version', () => {
  it('generate_signed_url fills url of a CLOSED file only; without it url is null', async () => {
    const closed = setup(file({ status: 'CLOSED' }));
    expect((await closed.service.get('a1', 'f1', true)).url).toBe(
      'https://x/download/f1/?expires=1777777777',
    );
    expect((await closed.service.get('a1', 'f1')).url).toBeNull();
    const open = setup();
    expect((await open.service.get('a1', 'f1', true)).url).toBeNull();
  });

  it('a list carries signed urls when asked, and filters by the file set or version given', async () => {
    const { service, repo } = setup();
    repo.liveFiles.mockResolvedValueOnce([[file({ status: 'CLOSED' }), file({ id: 'f2' })], 2]);
    const page = await service.list(
      { asset_id: 'a1', version_id: 'v9' },
      { page: 1, per_page: 10, generate_signed_url: true },
      '/files/',
    );
    expect(repo.liveFiles).toHaveBeenCalledWith({ asset_id: 'a1', version_id: 'v9' }, 0, 10);
    expect(page.objects.map((f) => f.url)).toEqual(['https://x/download/f1/?expires=1777777777', null]);
  });

  it('a file set named alone: its asset’s files of that set; one not in the caller’s domain is a 404', async () => {
    const { service, repo } = setup();
    await expect(
      service.listOfFileSet(caller, 'set', { page: 1, per_page: 10 }, '/x/'),
    ).rejects.toMatchObject({ status: 404 });
    expect(repo.fileSetsInDomain).toHaveBeenCalledWith(['set'], 'd1');
    expect(repo.liveFiles).not.toHaveBeenCalled();
    repo.fileSetsInDomain.mockResolvedValueOnce([{ id: 'set', asset_id: 'a7' }]);
    await service.listOfFileSet(caller, 'set', { page: 1, per_page: 10 }, '/x/');
    expect(repo.liveFiles).toHaveBeenCalledWith({ asset_id: 'a7', file_set_id: 'set' }, 0, 10);
  });

  it('a file set under an asset is looked up under that asset first (another asset’s set: its 404)', async () => {
    const { service, repo, formats } = setup();
    formats.fileSet.mockRejectedValueOnce(Object.assign(new Error('nf'), { status: 404 }));
    await expect(
      service.listOfAssetFileSet('a1', 'set', { page: 1, per_page: 10 }, '/x/'),
    ).rejects.toMatchObject({ status: 404 });
    expect(repo.liveFiles).not.toHaveBeenCalled();
  });
});
