import { jest } from '@jest/globals';
import type { JobEntity } from '../../base/model/job.entity.js';
import { JobsBulkService } from './jobs-bulk.service.js';
import { JobsErrors } from './jobs.errors.js';
import { authContext, transactionalRepo, wire } from '../../../test/utils/fakes.js';
import { EM } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const auth = authContext();
const job = (id: string, over: Partial<JobEntity> = {}) =>
  ({ id, type: 'TRANSFER', status: 'STARTED', ...over }) as JobEntity;

function setup(stored: JobEntity[], { writable = true } = {}) {
  const order: string[] = [];
  const repo = transactionalRepo(order, EM, {
    lockManyInDomain: jest.fn(async (_em: unknown, _d: string, ids: string[]) =>
      stored.filter((j) => ids.includes(j.id)),
    ),
    manyInDomain: jest.fn(async (_d: string, ids: string[]) => stored.filter((j) => ids.includes(j.id))),
    update: jest.fn(async () => void order.push('update')),
    setPriority: jest.fn(async () => void order.push('priority')),
    remove: jest.fn(async () => void order.push('remove')),
  });
  const access = {
    require: jest.fn(async () => {
      if (!writable) throw JobsErrors.NOT_FOUND();
    }),
  };
  const jobs = {
    precheck: jest.fn(async (_a: unknown, j: JobEntity, body: { title?: string }) => {
      if (body.title === 'unreadable parent') throw JobsErrors.INVALID({ parent_id: 'x' });
      order.push(`precheck ${j.id}`);
    }),
    change: jest.fn(async (_em: unknown, j: JobEntity, body: { title?: string }) => {
      if (body.title === 'refused') throw JobsErrors.FINAL(j.status);
      order.push(`change ${j.id}`);
    }),
    views: jest.fn(async (_em: unknown, rows: JobEntity[]) => rows.map((r) => ({ id: r.id }))),
  };
  const service = construct(JobsBulkService, repo, access, jobs);
  return { service, repo, access, jobs, order };
}

describe('JobsBulkService', () => {
  it('PATCH: every job checked writable, locked, changed in one transaction, answered in the order named', async () => {
    const s = setup([job('a'), job('b')]);
    const out = await s.service.update(auth, {
      objects: [
        { id: 'b', title: 'B' },
        { id: 'a', title: 'A' },
      ],
    });
    expect(s.access.require).toHaveBeenCalledWith(auth, 'job.write', ['b', 'a']);
    // the checks that read outside the transaction run before it opens
    expect(s.order).toEqual(['precheck b', 'precheck a', 'begin', 'change b', 'change a', 'commit']);
    expect(s.jobs.precheck).toHaveBeenCalledWith(auth, job('b'), { title: 'B' }, 'patch');
    expect(s.jobs.change).toHaveBeenCalledWith(EM, job('b'), { title: 'B' }, 'patch');
    expect(out.objects.map((j) => j.id)).toEqual(['b', 'a']);
  });

  it('PATCH: a job named twice is a 400; a job not the caller’s a 404; a refused change ends the transaction', async () => {
    const twice = setup([job('a')]);
    await expect(
      twice.service.update(auth, { objects: [{ id: 'a' }, { id: 'a' }] }).catch(wire),
    ).resolves.toEqual(wire(JobsErrors.INVALID({ objects: 'names a job more than once' })));
    expect(twice.repo.transaction).not.toHaveBeenCalled();
    const foreign = setup([job('a')], { writable: false });
    await expect(foreign.service.update(auth, { objects: [{ id: 'a' }] }).catch(wire)).resolves.toEqual(
      wire(JobsErrors.NOT_FOUND()),
    );
    expect(foreign.repo.transaction).not.toHaveBeenCalled();
    const refused = setup([job('a'), job('b')]);
    await expect(
      refused.service.update(auth, { objects: [{ id: 'a' }, { id: 'b', title: 'refused' }] }).catch(wire),
    ).resolves.toEqual(wire(JobsErrors.FINAL('STARTED')));
    // no commit: the transaction rolls back
    expect(refused.order).toEqual(['precheck a', 'precheck b', 'begin', 'change a']);
    const early = setup([job('a'), job('b')]);
    await expect(
      early.service
        .update(auth, { objects: [{ id: 'a' }, { id: 'b', title: 'unreadable parent' }] })
        .catch(wire),
    ).resolves.toMatchObject({ status: 400 });
    expect(early.repo.transaction).not.toHaveBeenCalled();
  });

  it('a job gone between the check and the lock is a 404', async () => {
    const s = setup([job('a')]);
    await expect(
      s.service.setPriority(auth, { job_ids: ['a', 'b'], priority: 1 }).catch(wire),
    ).resolves.toEqual(wire(JobsErrors.NOT_FOUND()));
    expect(s.repo.setPriority).not.toHaveBeenCalled();
  });

  it('DELETE: each id once; a running service job keeps every job (409)', async () => {
    const s = setup([job('a'), job('b')]);
    await s.service.remove(auth, { job_ids: ['a', 'b', 'a'] });
    expect(s.repo.remove).toHaveBeenCalledWith(EM, ['a', 'b']);
    const running = setup([job('a'), job('k', { type: 'KEYFRAMES', status: 'READY' })]);
    await expect(running.service.remove(auth, { job_ids: ['a', 'k'] }).catch(wire)).resolves.toEqual(
      wire(JobsErrors.RUNNING('k')),
    );
    expect(running.repo.remove).not.toHaveBeenCalled();
  });

  it('priority: one statement over the jobs named', async () => {
    const s = setup([job('a'), job('b')]);
    await s.service.setPriority(auth, { job_ids: ['a', 'b'], priority: -3 });
    expect(s.repo.setPriority).toHaveBeenCalledWith(EM, ['a', 'b'], -3);
  });

  describe('state', () => {
    it.each([
      ['PAUSED', 'STARTED'],
      ['PAUSED', 'READY'],
      ['READY', 'PAUSED'],
      ['ABORT_PENDING', 'PAUSED'],
      ['ABORT_PENDING', 'STARTED'],
    ])('%s from %s', async (state, from) => {
      const s = setup([job('a', { status: from })]);
      await s.service.setState(auth, { job_ids: ['a'], state });
      expect(s.repo.update).toHaveBeenCalledWith(EM, 'a', { status: state });
    });

    it('a job already in the state is left; `status` is the same as `state`', async () => {
      const s = setup([job('a', { status: 'PAUSED' }), job('b', { status: 'STARTED' })]);
      await s.service.setState(auth, { job_ids: ['a', 'b'], status: 'PAUSED' });
      expect(s.repo.update).toHaveBeenCalledTimes(1);
      expect(s.repo.update).toHaveBeenCalledWith(EM, 'b', { status: 'PAUSED' });
    });

    it.each([
      ['READY', 'STARTED'],
      ['PAUSED', 'FINISHED'],
      ['ABORT_PENDING', 'FAILED'],
      ['READY', 'ABORT_PENDING'],
    ])('%s from %s is a 400 naming the job, and no job moves', async (state, from) => {
      const s = setup([job('a', { status: 'PAUSED' }), job('z', { status: from })]);
      await expect(s.service.setState(auth, { job_ids: ['a', 'z'], state }).catch(wire)).resolves.toEqual(
        wire(JobsErrors.TRANSITION('z', from, state)),
      );
      expect(s.repo.update).not.toHaveBeenCalled();
    });

    it('a service job is not the client’s (403); no state, or two that differ, is a 400', async () => {
      const s = setup([job('k', { type: 'KEYFRAMES', status: 'STARTED' })]);
      await expect(
        s.service.setState(auth, { job_ids: ['k'], state: 'PAUSED' }).catch(wire),
      ).resolves.toEqual(wire(JobsErrors.SERVICE_JOB()));
      for (const body of [{ job_ids: ['k'] }, { job_ids: ['k'], state: 'PAUSED', status: 'READY' }]) {
        const out = await s.service.setState(auth, body).catch(wire);
        expect(out).toMatchObject({ status: 400 });
      }
      expect(s.repo.update).not.toHaveBeenCalled();
    });
  });
});
