import {
  crudServiceFake,
  expectFieldErrors,
  expectNotFound,
  hiddenFromCallers,
  useControllerSpec,
} from '../../../test/utils/controller-spec-suite.js';
import { JOB_ACCESS } from './job-access.js';
import { JobsController } from './jobs.controller.js';
import { JobsErrors } from './jobs.errors.js';
import { JobsService } from './jobs.service.js';

const JOBS = '/API/jobs/v1/jobs';
const JOB = '33333333-3333-4333-8333-333333333333';
const job = { label: 'Job', ids: [JOB], notFound: () => JobsErrors.NOT_FOUND() };

describe('JobsController (HTTP layer, faked service)', () => {
  const service = crudServiceFake(JOB);
  const s = useControllerSpec({
    controllers: [JobsController],
    providers: [{ provide: JobsService, useValue: service }],
    callers: { worker: { roles: ['can_read_assets', 'can_write_assets'] } },
    entities: { [JOB_ACCESS.read]: job, [JOB_ACCESS.write]: job },
  });

  it('needs a token (401)', async () => {
    await s.http.get(`${JOBS}/`).expect(401);
    await s.http.post(`${JOBS}/`).send({ type: 'TRANSFER' }).expect(401);
  });

  it('needs can_read_assets to read and can_write_assets to write; an assets:read token only reads', async () => {
    const res = await s.http.get(`${JOBS}/`).set(s.as('user')).expect(403);
    expect(res.body).toEqual({ errors: ['Missing role: can_read_assets'] });
    await s.http.post(`${JOBS}/`).set(s.as('user')).send({ type: 'TRANSFER' }).expect(403);
    await s.http.get(`${JOBS}/`).set(s.as('oauth')).expect(200);
    const write = await s.http.post(`${JOBS}/`).set(s.as('oauth')).send({ type: 'TRANSFER' }).expect(403);
    expect(write.body).toEqual({ errors: ["The token's scopes do not cover: can_write_assets"] });
    expect(service.create).not.toHaveBeenCalled();
  });

  it('passes the caller and the parsed body to the service', async () => {
    await s.http
      .post(`${JOBS}/`)
      .set(s.as('worker'))
      .send({ type: 'TRANSFER', title: 'copy', priority: 5 })
      .expect(201);
    expect(service.create).toHaveBeenCalledWith(s.callers.worker, {
      type: 'TRANSFER',
      title: 'copy',
      priority: 5,
    });
    await s.http.patch(`${JOBS}/${JOB}/`).set(s.as('worker')).send({ status: 'FINISHED' }).expect(200);
    expect(service.update).toHaveBeenCalledWith(s.callers.worker, JOB, { status: 'FINISHED' }, 'patch');
    await s.http.put(`${JOBS}/${JOB}/`).set(s.as('worker')).send({ title: 'all' }).expect(200);
    expect(service.update).toHaveBeenCalledWith(s.callers.worker, JOB, { title: 'all' }, 'put');
  });

  it.each([
    [{}, ['type']],
    [{ type: 'KEYFRAMES' }, ['type']],
    [{ type: 'TRANSFER', priority: 'high' }, ['priority']],
    [{ type: 'TRANSFER', object_id: 'nope' }, ['object_id']],
    [{ type: 'TRANSFER', title: 'a\u0000b' }, ['title']],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    await expectFieldErrors(s.http.post(`${JOBS}/`).set(s.as('worker')).send(sent), fields, 'in order');
    expect(service.create).not.toHaveBeenCalled();
  });

  it('another domain’s job, an unknown or a malformed id is a 404 “Job not found”', async () => {
    await expectNotFound(s, hiddenFromCallers(JOB), 'Job not found', (id) => [
      s.http.get(`${JOBS}/${id}/`),
      s.http.patch(`${JOBS}/${id}/`).send({ status: 'FAILED' }),
    ]);
    expect(service.get).not.toHaveBeenCalled();
    expect(service.update).not.toHaveBeenCalled();
  });
});
