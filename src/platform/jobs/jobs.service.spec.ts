import { jest } from '@jest/globals';
import type { AccessService } from '../../base/common/auth/access.service.js';
import type { JobEntity } from '../../base/model/job.entity.js';
import type { UpdateJobDto } from './dto/job.dto.js';
import { JobsErrors } from './jobs.errors.js';
import type { JobsRepository } from './jobs.repository.js';
import { JobsService } from './jobs.service.js';
import { authContext, repoWithTransaction, wire } from '../../../test/utils/fakes.js';

const EM = { em: 'tx' };
const MANAGER = { em: 'manager' };
const NOW = new Date('2026-05-01T12:00:00Z');
const ASSET = '11111111-1111-4111-8111-111111111111';
const auth = authContext();

const job = (over: Partial<JobEntity> = {}) =>
  ({
    id: 'j1',
    type: 'TRANSFER',
    status: 'STARTED',
    title: '',
    object_type: null,
    object_id: null,
    progress_processed: '0',
    progress_total: null,
    priority: 0,
    message: null,
    created_by_user: 'u1',
    system_domain_id: 'd1',
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as JobEntity;

function setup({ stored = job() as JobEntity | null, allowed = true } = {}) {
  let row = stored;
  const repo = repoWithTransaction(EM, {
    manager: MANAGER,
    insert: jest.fn(async (_em: unknown, fields: Partial<JobEntity>) => job({ ...fields, id: 'new' })),
    inDomain: jest.fn(async () => row),
    lockInDomain: jest.fn(async () => row),
    update: jest.fn(async (_em: unknown, _id: string, changes: Partial<JobEntity>) => {
      row = { ...row!, ...changes };
    }),
    jobOrFail: jest.fn(async () => row!),
  });
  const access = {
    require: jest.fn(async () => {
      if (!allowed) throw JobsErrors.NOT_FOUND();
    }),
  };
  const service = new JobsService(repo as unknown as JobsRepository, access as unknown as AccessService);
  return { service, repo, access };
}

describe('JobsService', () => {
  describe('create', () => {
    it('records a job of the caller’s domain, by the caller, with the defaults', async () => {
      const s = setup();
      const out = await s.service.create(auth, { type: 'TRANSFER' });
      expect(s.repo.insert).toHaveBeenCalledWith(MANAGER, {
        type: 'TRANSFER',
        status: 'READY',
        title: '',
        object_type: null,
        object_id: null,
        progress_processed: '0',
        progress_total: null,
        priority: 0,
        system_domain_id: 'd1',
        created_by_user: 'u1',
      });
      expect(out).toMatchObject({ id: 'new', progress_processed: 0, progress_total: null });
      expect(s.access.require).not.toHaveBeenCalled();
    });

    it('an object id needs its object type', async () => {
      const s = setup();
      await expect(
        s.service.create(auth, { type: 'TRANSFER', object_id: ASSET }).catch(wire),
      ).resolves.toEqual(wire(JobsErrors.INVALID({ object_type: 'is required with object_id' })));
      expect(s.repo.insert).not.toHaveBeenCalled();
    });

    it.each([
      ['assets', 'asset.write'],
      ['files', 'file.write'],
    ])('a job about %s needs %s on the object', async (object_type, entity) => {
      const s = setup();
      await s.service.create(auth, { type: 'TRANSFER', object_type, object_id: ASSET });
      expect(s.access.require).toHaveBeenCalledWith(auth, entity, [ASSET]);
      const denied = setup({ allowed: false });
      await expect(
        denied.service.create(auth, { type: 'TRANSFER', object_type, object_id: ASSET }).catch(wire),
      ).resolves.toEqual(wire(JobsErrors.NOT_FOUND()));
      expect(denied.repo.insert).not.toHaveBeenCalled();
    });

    it('another object type is not checked against any ACL', async () => {
      const s = setup();
      await s.service.create(auth, { type: 'TRANSFER', object_type: 'collections', object_id: ASSET });
      expect(s.access.require).not.toHaveBeenCalled();
      expect(s.repo.insert).toHaveBeenCalled();
    });

    it('insert (the files worker’s KEYFRAMES jobs) writes in the transaction it is handed', async () => {
      const s = setup();
      await s.service.insert(EM as never, auth, { type: 'KEYFRAMES', status: 'STARTED' });
      expect(s.repo.insert).toHaveBeenCalledWith(EM, {
        type: 'KEYFRAMES',
        status: 'STARTED',
        system_domain_id: 'd1',
        created_by_user: 'u1',
      });
    });
  });

  describe('get', () => {
    it('a job of the caller’s domain, or NOT_FOUND', async () => {
      const s = setup();
      expect(await s.service.get(auth, 'j1')).toMatchObject({ id: 'j1', status: 'STARTED' });
      expect(s.repo.inDomain).toHaveBeenCalledWith('d1', 'j1');
      await expect(setup({ stored: null }).service.get(auth, 'j1').catch(wire)).resolves.toEqual(
        wire(JobsErrors.NOT_FOUND()),
      );
    });
  });

  describe('update', () => {
    const update = (s: ReturnType<typeof setup>, body: UpdateJobDto) => s.service.update(auth, 'j1', body);

    it('progress and status, the job locked in the transaction', async () => {
      const s = setup();
      const out = await update(s, {
        status: 'FINISHED',
        progress_processed: 100,
        progress_total: 100,
        message: 'ok',
      });
      expect(s.repo.lockInDomain).toHaveBeenCalledWith(EM, 'd1', 'j1');
      expect(s.repo.update).toHaveBeenCalledWith(EM, 'j1', {
        status: 'FINISHED',
        message: 'ok',
        progress_processed: '100',
        progress_total: '100',
      });
      expect(out).toMatchObject({ status: 'FINISHED', progress_processed: 100, progress_total: 100 });
    });

    it('progress_total may be cleared; a null progress_processed leaves it; an empty body writes nothing', async () => {
      const s = setup({ stored: job({ progress_processed: '5', progress_total: '10' }) });
      await update(s, { progress_total: null, progress_processed: null });
      expect(s.repo.update).toHaveBeenCalledWith(EM, 'j1', { progress_total: null });
      const idle = setup();
      await update(idle, {});
      expect(idle.repo.update).not.toHaveBeenCalled();
    });

    it.each(['FINISHED', 'FINISHED_WITH_WARNING', 'FAILED', 'ABORTED', 'SKIPPED'])(
      'a %s job never changes status (400), though its title still may',
      async (final) => {
        for (const status of ['STARTED', 'FAILED', 'READY', 'FINISHED'].filter((x) => x !== final)) {
          const s = setup({ stored: job({ status: final }) });
          await expect(update(s, { status }).catch(wire)).resolves.toEqual(wire(JobsErrors.FINAL(final)));
          expect(s.repo.update).not.toHaveBeenCalled();
        }
        const same = setup({ stored: job({ status: final }) });
        await update(same, { status: final, title: 'renamed' });
        expect(same.repo.update).toHaveBeenCalledWith(EM, 'j1', { status: final, title: 'renamed' });
      },
    );

    it('the service’s KEYFRAMES jobs: clients set neither their status nor their progress (403), only the rest', async () => {
      for (const body of [{ status: 'FAILED' }, { progress_processed: 3 }]) {
        const s = setup({ stored: job({ type: 'KEYFRAMES' }) });
        await expect(update(s, body).catch(wire)).resolves.toEqual(wire(JobsErrors.SERVICE_JOB()));
        expect(s.repo.update).not.toHaveBeenCalled();
      }
      const s = setup({ stored: job({ type: 'KEYFRAMES' }) });
      await update(s, { title: 'frames' });
      expect(s.repo.update).toHaveBeenCalledWith(EM, 'j1', { title: 'frames' });
    });

    it('a job of another domain (or gone) is NOT_FOUND', async () => {
      const s = setup({ stored: null });
      await expect(update(s, { status: 'FAILED' }).catch(wire)).resolves.toEqual(
        wire(JobsErrors.NOT_FOUND()),
      );
      expect(s.repo.update).not.toHaveBeenCalled();
    });
  });
});
