import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { FileEntity, KeyframeEntity } from '../../base/model/file.entity.js';
import { FilesErrors } from './files.errors.js';
import { keyframeName, KeyframesService } from './keyframes.service.js';
import { repoWithTransaction } from '../../../test/utils/fakes.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { fileRow } from '../../../test/utils/fakes/files.js';

const TX = { tx: true };
const T0 = new Date('2026-05-01T12:00:00Z');
const caller = { userId: 'u1', systemDomainId: 'd1' } as AuthContext;

const file = (over: Partial<FileEntity> = {}) =>
  fileRow({ original_name: 'clip.mp4', status: 'CLOSED', size: '100', ...over });

/** Keyframe k1 of asset a1 at position 2: 320×240, 321 bytes. */
const KEYFRAME = {
  id: 'k1',
  asset_id: 'a1',
  file_id: 'f1',
  job_id: 'j1',
  storage_id: 's1',
  position: 2,
  size: '321',
  width: 320,
  height: 240,
  date_created: T0,
} as KeyframeEntity;

function setup(f: FileEntity | Error = file()) {
  const repo = repoWithTransaction(TX, {
    queueKeyframesTask: jest.fn(async () => undefined),
    keyframes: jest.fn(async () => [[], 0] as [KeyframeEntity[], number]),
    fileLabels: jest.fn(
      async () => new Map([['f1', { version_id: 'v1', original_name: 'harbour.clip.mp4' }]]),
    ),
    storageMethods: jest.fn(async () => new Map([['s1', 'S3']])),
    keyframe: jest.fn(async (): Promise<KeyframeEntity | null> => null),
  });
  const files = {
    file: jest.fn(async () => {
      if (f instanceof Error) throw f;
      return f;
    }),
  };
  const jobs = { insert: jest.fn(async () => ({ id: 'j1' })) };
  const links = { keyframeUrl: (id: string) => `https://x/keyframes/${id}/` };
  const worker = { nudge: jest.fn() };
  const service = construct(KeyframesService, repo, files, jobs, links, worker);
  return { service, repo, files, jobs, worker };
}

describe('KeyframesService.start', () => {
  it('starts a READY job and queues its task in one transaction, under the file’s lock, then wakes the worker', async () => {
    const { service, repo, files, jobs, worker } = setup();
    await expect(service.start(caller, 'a1', 'f1')).resolves.toEqual({ job_id: 'j1' });
    expect(repo.transaction).toHaveBeenCalledTimes(1);
    expect(files.file).toHaveBeenCalledWith(TX, 'a1', 'f1', true);
    expect(jobs.insert).toHaveBeenCalledWith(
      TX,
      caller,
      expect.objectContaining({ type: 'KEYFRAMES', status: 'READY', object_type: 'files', object_id: 'f1' }),
    );
    expect(repo.queueKeyframesTask).toHaveBeenCalledWith(TX, {
      file_id: 'f1',
      job_id: 'j1',
      storage_id: 's1',
      object_key: 'files/f1/f1',
    });
    expect(worker.nudge).toHaveBeenCalledTimes(1);
  });

  it('a file that is not CLOSED is a 400; nothing is started', async () => {
    const { service, jobs, repo, worker } = setup(file({ status: 'OPEN' }));
    await expect(service.start(caller, 'a1', 'f1')).rejects.toMatchObject({
      status: 400,
      code: 'files.NOT_CLOSED',
    });
    expect(jobs.insert).not.toHaveBeenCalled();
    expect(repo.queueKeyframesTask).not.toHaveBeenCalled();
    expect(worker.nudge).not.toHaveBeenCalled();
  });

  it('nothing to extract from (an empty file, a directory): null, no job', async () => {
    for (const f of [file({ size: '0' }), file({ type: 'DIRECTORY' })]) {
      const { service, jobs, worker } = setup(f);
      await expect(service.start(caller, 'a1', 'f1')).resolves.toBeNull();
      expect(jobs.insert).not.toHaveBeenCalled();
      expect(worker.nudge).not.toHaveBeenCalled();
    }
  });

  it('a file of another asset is the files service’s 404', async () => {
    const { service, jobs } = setup(FilesErrors.FILE_NOT_FOUND());
    await expect(service.start(caller, 'a1', 'f1')).rejects.toMatchObject({ status: 404 });
    expect(jobs.insert).not.toHaveBeenCalled();
  });
});

describe('KeyframesService.list', () => {
  it('pages the asset’s keyframes, each with its signed link', async () => {
    const { service, repo } = setup();
    repo.keyframes.mockResolvedValueOnce([[KEYFRAME], 7]);
    const page = await service.list('a1', { page: 2, per_page: 3 } as never, '/keyframes/');
    expect(repo.keyframes).toHaveBeenCalledWith('a1', 3, 3);
    expect(page).toMatchObject({
      objects: [{ id: 'k1', position: 2, size: 321, url: 'https://x/keyframes/k1/' }],
    });
  });

  it('carries KeyframeSchema’s fields: type, filename, name, resolution, status, storage, time_code, version', async () => {
    const { service, repo } = setup();
    repo.keyframes.mockResolvedValueOnce([[KEYFRAME], 1]);
    const [view] = (await service.list('a1', { page: 1, per_page: 10 } as never, '/k/')).objects;
    expect(view).toMatchObject({
      type: 'KEYFRAME',
      filename: 'harbour.clip_0002.jpg',
      name: 'harbour.clip_0002.jpg',
      resolution: { width: 320, height: 240 },
      status: 'CLOSED',
      storage_id: 's1',
      storage_method: 'S3',
      time_code: { seconds: 2, frames: 0 },
      version_id: 'v1',
      is_public: false,
    });
  });

  it('one keyframe: looked up under the asset; none there is a 404', async () => {
    const { service, repo } = setup();
    await expect(service.get('a1', 'k1')).rejects.toMatchObject({ status: 404 });
    expect(repo.keyframe).toHaveBeenCalledWith('a1', 'k1');
    repo.keyframe.mockResolvedValueOnce({
      id: 'k1',
      asset_id: 'a1',
      file_id: 'f1',
      storage_id: 's1',
      position: 0,
      size: '1',
      width: null,
      height: null,
      date_created: T0,
    } as KeyframeEntity);
    expect(await service.get('a1', 'k1')).toMatchObject({
      id: 'k1',
      filename: 'harbour.clip_0000.jpg',
      resolution: { width: null, height: null },
      url: 'https://x/keyframes/k1/',
    });
  });

  it.each([
    ['clip.mp4', 0, 'clip_0000.jpg'],
    ['noext', 12, 'noext_0012.jpg'],
    ['.hidden', 1, '.hidden_0001.jpg'],
  ])('names keyframe %p #%p as %p', (name, position, expected) => {
    expect(keyframeName(name, position)).toBe(expected);
  });
});
