import { jest } from '@jest/globals';
import type { JobEntity } from '../../base/model/job.entity.js';
import type { UpdateJobDto } from './dto/job.dto.js';
import { JobsErrors } from './jobs.errors.js';
import { JobsService } from './jobs.service.js';
import { authContext, fixedClock, repoWithTransaction, wire } from '../../../test/utils/fakes.js';
import { EM, MANAGER, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const ASSET = '11111111-1111-4111-8111-111111111111';
const auth = authContext();

/** What a job holds where its body says nothing: empty contexts, nothing related, no parent, not started. */
const UNSET = {
  metadata: {},
  job_context: {},
  action_context: {},
  related_objects: [],
  parent_id: null,
  started_at: null,
  completed_at: null,
};

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
    error_message: null,
    custom_type: null,
    ...UNSET,
    created_by_user: 'u1',
    system_domain_id: 'd1',
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as JobEntity;

function setup({
  stored = job() as JobEntity | null,
  allowed = true,
  readable = ['p1'] as string[],
  ancestors = [] as string[],
} = {}) {
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
    remove: jest.fn(async () => undefined),
    withChildren: jest.fn(async () => [] as string[]),
    allowedIds: jest.fn(async (_a: unknown, ids: string[]) =>
      ids.filter((i) => readable.includes(i)).map((id) => ({ id })),
    ),
    // the ancestors of the proposed parent, the parent included
    lockTree: jest.fn(async () => undefined),
    isAncestorOf: jest.fn(async (_em: unknown, ancestor: string) => ancestors.includes(ancestor)),
  });
  const access = {
    require: jest.fn(async () => {
      if (!allowed) throw JobsErrors.NOT_FOUND();
    }),
  };
  const service = construct(JobsService, repo, access, fixedClock(NOW));
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
        custom_type: null,
        progress_processed: '0',
        progress_total: null,
        message: null,
        error_message: null,
        ...UNSET,
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
        completed_at: NOW,
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
        expect(same.repo.update).toHaveBeenCalledWith(EM, 'j1', { title: 'renamed' });
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
    it('PUT replaces every writable field: omitted ones take their defaults, type and status stay', async () => {
      const s = setup({
        stored: job({
          title: 't',
          message: 'm',
          metadata: { a: 1 },
          progress_processed: '4',
          parent_id: 'p1',
        }),
      });
      await s.service.update(auth, 'j1', { title: 't', job_context: { c: 1 } }, 'put');
      expect(s.repo.update).toHaveBeenCalledWith(EM, 'j1', {
        message: null,
        metadata: {},
        progress_processed: '0',
        parent_id: null,
        job_context: { c: 1 },
      });
    });

    it('a status change stamps started_at and completed_at, unless given', async () => {
      const s = setup({ stored: job({ status: 'READY' }) });
      await update(s, { status: 'STARTED' });
      expect(s.repo.update).toHaveBeenCalledWith(EM, 'j1', { status: 'STARTED', started_at: NOW });
      const given = setup();
      await update(given, { status: 'FAILED', completed_at: '2026-01-01T00:00:00Z' });
      expect(given.repo.update).toHaveBeenCalledWith(EM, 'j1', {
        status: 'FAILED',
        completed_at: new Date('2026-01-01T00:00:00Z'),
      });
    });

    it('CUSTOM needs custom_type; only CUSTOM has one; leaving CUSTOM clears it', async () => {
      for (const [stored, body, error] of [
        [job(), { type: 'CUSTOM' }, { custom_type: 'is required when type is CUSTOM' }],
        [job(), { custom_type: 'X' }, { custom_type: 'only a CUSTOM job has a custom_type' }],
        [
          job({ type: 'CUSTOM', custom_type: 'X' }),
          { custom_type: null },
          { custom_type: 'is required when type is CUSTOM' },
        ],
      ] as [JobEntity, UpdateJobDto, Record<string, string>][]) {
        const s = setup({ stored });
        await expect(update(s, body).catch(wire)).resolves.toEqual(wire(JobsErrors.INVALID(error)));
        expect(s.repo.update).not.toHaveBeenCalled();
      }
      const s = setup({ stored: job({ type: 'CUSTOM', custom_type: 'X' }) });
      await update(s, { type: 'TRANSFER' });
      expect(s.repo.update).toHaveBeenCalledWith(EM, 'j1', { type: 'TRANSFER', custom_type: null });
    });

    it('parent_id: a job the caller may read, never the job itself nor one below it', async () => {
      const s = setup();
      await update(s, { parent_id: 'p1' });
      expect(s.repo.allowedIds).toHaveBeenCalledWith(auth, ['p1'], 'read');
      expect(s.repo.lockTree).toHaveBeenCalledWith(EM, 'd1');
      expect(s.repo.isAncestorOf).toHaveBeenCalledWith(EM, 'j1', 'p1');
      expect(s.repo.update).toHaveBeenCalledWith(EM, 'j1', { parent_id: 'p1' });
      for (const [over, parent_id] of [
        [{}, 'j1'],
        [{}, 'unreadable'],
        [{ ancestors: ['j1'] }, 'p1'],
      ] as [Parameters<typeof setup>[0], string][]) {
        const refused = setup(over);
        const out = await update(refused, { parent_id }).catch(wire);
        expect(out).toMatchObject({ status: 400, errors: { parent_id: expect.any(String) } });
        expect(refused.repo.update).not.toHaveBeenCalled();
      }
    });

    it('an object the job is moved to needs write on it', async () => {
      const s = setup({ allowed: false });
      await expect(update(s, { object_type: 'assets', object_id: ASSET }).catch(wire)).resolves.toEqual(
        wire(JobsErrors.NOT_FOUND()),
      );
      expect(s.access.require).toHaveBeenCalledWith(auth, 'asset.write', [ASSET]);
      expect(s.repo.update).not.toHaveBeenCalled();
    });
  });

  describe('remove', () => {
    it('deletes a job of the domain; a service job that has not ended is a 409; an unknown one a 404', async () => {
      const s = setup();
      await s.service.remove(auth, 'j1');
      expect(s.repo.remove).toHaveBeenCalledWith(EM, ['j1']);
      const running = setup({ stored: job({ type: 'KEYFRAMES', status: 'STARTED' }) });
      await expect(running.service.remove(auth, 'j1').catch(wire)).resolves.toEqual(
        wire(JobsErrors.RUNNING('j1')),
      );
      const ended = setup({ stored: job({ type: 'KEYFRAMES', status: 'FAILED' }) });
      await ended.service.remove(auth, 'j1');
      expect(ended.repo.remove).toHaveBeenCalled();
      const gone = setup({ stored: null });
      await expect(gone.service.remove(auth, 'j1').catch(wire)).resolves.toEqual(
        wire(JobsErrors.NOT_FOUND()),
      );
      expect(running.repo.remove).not.toHaveBeenCalled();
      expect(gone.repo.remove).not.toHaveBeenCalled();
    });
  });
});
