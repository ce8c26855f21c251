import { jest } from '@jest/globals';
import { expectFieldErrors, useControllerSpec } from '../../../test/utils/controller-spec-suite.js';
import { JOB_ACCESS } from './job-access.js';
import { JobsBulkController } from './jobs-bulk.controller.js';
import { JobsBulkService } from './jobs-bulk.service.js';
import { JobsController } from './jobs.controller.js';
import { JobsErrors } from './jobs.errors.js';
import { JobsService } from './jobs.service.js';

const JOBS = '/API/jobs/v1/jobs';
const JOB = '33333333-3333-4333-8333-333333333333';
const job = { label: 'Job', ids: [JOB], notFound: () => JobsErrors.NOT_FOUND() };

describe('JobsBulkController (HTTP layer, faked service)', () => {
  const bulk = {
    update: jest.fn(async () => ({ objects: [] })),
    remove: jest.fn(async () => undefined),
    setPriority: jest.fn(async () => ({ objects: [] })),
    setState: jest.fn(async () => ({ objects: [] })),
  };
  const jobs = { update: jest.fn(async () => ({ id: JOB })) };
  const s = useControllerSpec({
    // in the module's order: the bulk routes first, so priority/ and state/ are not read as an id
    controllers: [JobsBulkController, JobsController],
    providers: [
      { provide: JobsBulkService, useValue: bulk },
      { provide: JobsService, useValue: jobs },
    ],
    callers: { worker: { roles: ['can_read_assets', 'can_write_assets'] } },
    entities: { [JOB_ACCESS.read]: job, [JOB_ACCESS.write]: job },
  });

  it('priority/ and state/ reach the bulk routes, with the caller and the parsed body', async () => {
    await s.http
      .put(`${JOBS}/priority/`)
      .set(s.as('worker'))
      .send({ job_ids: [JOB], priority: 3 })
      .expect(200);
    expect(bulk.setPriority).toHaveBeenCalledWith(s.callers.worker, { job_ids: [JOB], priority: 3 });
    await s.http
      .put(`${JOBS}/state/`)
      .set(s.as('worker'))
      .send({ job_ids: [JOB], state: 'PAUSED' })
      .expect(200);
    expect(bulk.setState).toHaveBeenCalledWith(s.callers.worker, { job_ids: [JOB], state: 'PAUSED' });
    await s.http
      .delete(`${JOBS}/`)
      .set(s.as('worker'))
      .send({ job_ids: [JOB] })
      .expect(204);
    await s.http
      .patch(`${JOBS}/`)
      .set(s.as('worker'))
      .send({ objects: [{ id: JOB, title: 't' }] })
      .expect(200);
    expect(bulk.update).toHaveBeenCalledWith(s.callers.worker, { objects: [{ id: JOB, title: 't' }] });
    expect(jobs.update).not.toHaveBeenCalled();
  });

  it('401 without a token, 403 without can_write_assets or with an assets:read token', async () => {
    await s.http
      .delete(`${JOBS}/`)
      .send({ job_ids: [JOB] })
      .expect(401);
    for (const who of ['user', 'oauth'] as const) {
      await s.http
        .put(`${JOBS}/state/`)
        .set(s.as(who))
        .send({ job_ids: [JOB], state: 'READY' })
        .expect(403);
      await s.http
        .patch(`${JOBS}/`)
        .set(s.as(who))
        .send({ objects: [{ id: JOB }] })
        .expect(403);
    }
    expect(bulk.setState).not.toHaveBeenCalled();
    expect(bulk.update).not.toHaveBeenCalled();
  });

  it.each([
    ['put', 'priority/', { job_ids: [JOB], priority: 1001 }, ['priority']],
    ['put', 'priority/', { job_ids: Array(101).fill(JOB), priority: 1 }, ['job_ids']],
    ['put', 'state/', { job_ids: [JOB], state: 'FINISHED' }, ['state']],
    ['delete', '', { job_ids: ['nope'] }, ['job_ids']],
    ['delete', '', {}, ['job_ids']],
    ['patch', '', { objects: [{ id: JOB, metadata: [] }] }, ['objects.0.metadata']],
    ['patch', '', { objects: [{ id: JOB, type: 'KEYFRAMES' }] }, ['objects.0.type']],
  ] as const)('%s %s %j: 400 naming %j, the service not called', async (method, path, body, fields) => {
    await expectFieldErrors(
      s.http[method](`${JOBS}/${path}`).set(s.as('worker')).send(body),
      fields,
      'in order',
    );
    for (const f of Object.values(bulk)) expect(f).not.toHaveBeenCalled();
  });
});
