import { randomUUID } from 'node:crypto';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { JobsService } from '../../src/platform/jobs/jobs.service.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { JOBS } from '../utils/files.js';

const ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];
type Job = Record<string, unknown> & { id: string; status: string };

/**
 * Issue 38 item 4: jobs as the published clients call them. Every JobSchema field a client writes is kept and
 * returned; PUT replaces, PATCH changes; one job or several (PATCH, DELETE, priority/, state/), several always
 * all or none; the published type list, where a filter on a type no job has is an empty page.
 */
describe('jobs as published', () => {
  let t: TestApp;
  let owner: UserEntity;
  let h: Record<string, string>;
  let other: Record<string, string>;
  let reader: Record<string, string>;
  let foreign: Record<string, string>;
  let admin: Record<string, string>;

  const create = async (body: Record<string, unknown> = {}, as = h): Promise<Job> =>
    (
      await t.http
        .post(`${JOBS}/`)
        .set(as)
        .send({ type: 'TRANSFER', title: 'j', ...body })
        .expect(201)
    ).body;
  const read = async (id: string, as = h): Promise<Job> =>
    (await t.http.get(`${JOBS}/${id}/`).set(as).expect(200)).body;
  /** A KEYFRAMES job as the files service starts one (through JobsService.insert, the files module's call). */
  const serviceJob = async (status = 'STARTED'): Promise<string> => {
    const auth = { userId: owner.id, systemDomainId: owner.system_domain_id } as never;
    const job = await t
      .get(JobsService)
      .insert(t.ds.manager, auth, { type: 'KEYFRAMES', status, title: 'kf' });
    return job.id;
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t, { roles: ROLES });
    h = bearer((await tokenFor(t, owner)).token);
    other = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
    reader = bearer((await tokenFor(t, await createUser(t, { roles: ['can_read_assets'] }))).token);
    admin = bearer((await tokenFor(t, await createUser(t, { isAdmin: true }))).token);
    const domain = await createDomain(t);
    foreign = bearer(
      (await tokenFor(t, await createUser(t, { domainId: domain.id, roles: ROLES, isAdmin: true }))).token,
    );
  });
  afterAll(() => t.close());

  const FULL = {
    type: 'CUSTOM',
    custom_type: 'THUMBNAILS',
    status: 'STARTED',
    title: 'All the fields',
    metadata: { source: 'sdk', n: 3, nested: { ok: true } },
    job_context: { step: 'one' },
    action_context: { action: 'go', ids: [1, 2] },
    message: 'working',
    error_message: null,
    progress_processed: 25,
    progress_total: 200,
    related_objects: [{ object_type: 'assets', object_id: randomUUID() }],
    object_type: 'collections',
    object_id: randomUUID(),
    started_at: '2026-11-01T10:00:00.000000+00:00',
    completed_at: null,
  };

  it('every JobSchema field a client writes is kept and returned; priority, progress, created_by are read-only', async () => {
    const job = await create({ ...FULL, priority: 7 });
    const got = await read(job.id);
    expect(got).toMatchObject({
      ...FULL,
      started_at: '2026-11-01T10:00:00.000000+00:00',
      priority: 7,
      progress: 12,
      has_children: false,
      parent_id: null,
      created_by: owner.id,
      created_by_user: owner.id,
    });
    // a PATCH that carries priority and the read-only fields leaves them
    const patched = (
      await t.http
        .patch(`${JOBS}/${job.id}/`)
        .set(h)
        .send({ priority: 99, progress: 80, has_children: true, created_by: randomUUID(), message: 'later' })
        .expect(200)
    ).body;
    expect(patched).toMatchObject({
      priority: 7,
      progress: 12,
      has_children: false,
      created_by: owner.id,
      message: 'later',
    });
    const list = (await t.http.get(`${JOBS}/?type=CUSTOM&custom_type=THUMBNAILS`).set(h).expect(200)).body;
    expect(list.objects.map((j: Job) => j.id)).toEqual([job.id]);
    expect(list.objects[0]).toMatchObject({ metadata: FULL.metadata, related_objects: FULL.related_objects });
  });

  it('a status change stamps started_at and completed_at unless the client set them', async () => {
    const job = await create({ status: 'READY' });
    expect(job).toMatchObject({ started_at: null, completed_at: null });
    const started = (await t.http.patch(`${JOBS}/${job.id}/`).set(h).send({ status: 'STARTED' }).expect(200))
      .body;
    expect(started.started_at).toEqual(expect.any(String));
    const done = (
      await t.http
        .patch(`${JOBS}/${job.id}/`)
        .set(h)
        .send({ status: 'FINISHED', progress_processed: 5 })
        .expect(200)
    ).body;
    expect(done).toMatchObject({
      started_at: started.started_at,
      completed_at: expect.any(String),
      progress: 100,
    });
  });

  it('PUT replaces every writable field (omitted ones take their defaults, type and status stay); PATCH changes only those named', async () => {
    const job = await create({ ...FULL });
    const put = (
      await t.http
        .put(`${JOBS}/${job.id}/`)
        .set(h)
        .send({ title: 'Replaced', custom_type: 'THUMBNAILS', job_context: { a: 1 } })
        .expect(200)
    ).body;
    expect(put).toMatchObject({
      type: 'CUSTOM',
      custom_type: 'THUMBNAILS',
      status: 'STARTED',
      title: 'Replaced',
      job_context: { a: 1 },
      metadata: {},
      action_context: {},
      related_objects: [],
      message: null,
      progress_processed: 0,
      progress_total: null,
      object_type: null,
      object_id: null,
      started_at: null,
    });
    expect(await read(job.id)).toEqual({ ...put, date_modified: expect.any(String) });
    const patched = (
      await t.http
        .patch(`${JOBS}/${job.id}/`)
        .set(h)
        .send({ metadata: { k: 'v' }, type: 'TRANSFER', custom_type: null })
        .expect(200)
    ).body;
    expect(patched).toMatchObject({
      title: 'Replaced',
      job_context: { a: 1 },
      metadata: { k: 'v' },
      type: 'TRANSFER',
      custom_type: null,
    });
    // PUT of the object a client just read (read-only fields and all) changes nothing
    const again = (await t.http.put(`${JOBS}/${job.id}/`).set(h).send(patched).expect(200)).body;
    expect(again).toEqual({ ...patched, date_modified: expect.any(String) });
  });

  it('parent_id: a job the caller may read; has_children on the parent; never itself or a descendant; children outlive the parent', async () => {
    const parent = await create({ title: 'parent' });
    const child = await create({ title: 'child', parent_id: parent.id });
    const grandchild = await create({ title: 'grandchild', parent_id: child.id });
    expect(child.parent_id).toBe(parent.id);
    expect((await read(parent.id)).has_children).toBe(true);
    const kids = (await t.http.get(`${JOBS}/?parent_id=${parent.id}`).set(h).expect(200)).body;
    expect(kids.objects.map((j: Job) => j.id)).toEqual([child.id]);
    expect(kids.objects[0].has_children).toBe(true);
    // itself, its grandchild (a cycle), another person's job, another tenant's job, an unknown id: 400, nothing changed
    const theirs = await create({}, other);
    const foreignJob = await create({}, foreign);
    for (const parent_id of [parent.id, grandchild.id, theirs.id, foreignJob.id, randomUUID()]) {
      const res = await t.http.patch(`${JOBS}/${parent.id}/`).set(h).send({ parent_id, title: 'x' });
      expect([res.status, Object.keys(res.body.errors)]).toEqual([400, ['parent_id']]);
    }
    await t.http.post(`${JOBS}/`).set(h).send({ type: 'TRANSFER', parent_id: theirs.id }).expect(400);
    expect(await read(parent.id)).toMatchObject({ parent_id: null, title: 'parent' });
    await t.http.delete(`${JOBS}/${parent.id}/`).set(h).expect(204);
    await t.http.get(`${JOBS}/${parent.id}/`).set(h).expect(404);
    expect(await read(child.id)).toMatchObject({ parent_id: null, has_children: true });
  });

  it('DELETE of one job: 204; another person’s or another tenant’s is a 404; a running service job is a 409', async () => {
    const mine = await create();
    await t.http.delete(`${JOBS}/${mine.id}/`).set(other).expect(404);
    await t.http.delete(`${JOBS}/${mine.id}/`).set(foreign).expect(404);
    await t.http.delete(`${JOBS}/${mine.id}/`).set(reader).expect(403);
    await t.http.delete(`${JOBS}/${mine.id}/`).expect(401);
    await read(mine.id);
    await t.http.delete(`${JOBS}/${mine.id}/`).set(h).expect(204);
    await t.http.delete(`${JOBS}/${mine.id}/`).set(h).expect(404);
    const kf = await serviceJob();
    const res = await t.http.delete(`${JOBS}/${kf}/`).set(h).expect(409);
    expect(res.body.errors[0]).toContain(kf);
    await read(kf);
    const ended = await serviceJob('FINISHED');
    await t.http.delete(`${JOBS}/${ended}/`).set(admin).expect(204);
  });

  describe('several jobs at once', () => {
    it('PATCH /v1/jobs/: every change applied, answered in the order named', async () => {
      const [a, b] = [await create({ title: 'a' }), await create({ title: 'b' })];
      const res = (
        await t.http
          .patch(`${JOBS}/`)
          .set(h)
          .send({
            objects: [
              { id: b.id, status: 'STARTED', metadata: { x: 1 } },
              { id: a.id, title: 'A', progress_processed: 3 },
            ],
          })
          .expect(200)
      ).body;
      expect(res.objects.map((j: Job) => j.id)).toEqual([b.id, a.id]);
      expect(await read(a.id)).toMatchObject({ title: 'A', progress_processed: 3 });
      expect(await read(b.id)).toMatchObject({ status: 'STARTED', metadata: { x: 1 } });
    });

    it('PATCH /v1/jobs/: one refused change (or one job not the caller’s) leaves every job as it was', async () => {
      const a = await create({ title: 'a' });
      const done = await create({ title: 'done', status: 'FINISHED' });
      const theirs = await create({ title: 'theirs' }, other);
      const foreignJob = await create({ title: 'foreign' }, foreign);
      const cases: [unknown, number][] = [
        [
          [
            { id: a.id, title: 'changed' },
            { id: done.id, status: 'STARTED' },
          ],
          400,
        ],
        [
          [
            { id: a.id, title: 'changed' },
            { id: theirs.id, title: 'changed' },
          ],
          404,
        ],
        [
          [
            { id: a.id, title: 'changed' },
            { id: foreignJob.id, title: 'changed' },
          ],
          404,
        ],
        [
          [
            { id: a.id, title: 'changed' },
            { id: randomUUID(), title: 'changed' },
          ],
          404,
        ],
        [
          [
            { id: a.id, title: 'changed' },
            { id: a.id, title: 'twice' },
          ],
          400,
        ],
        [[{ id: a.id, title: 'changed', parent_id: a.id }], 400],
        [
          [
            { id: a.id, title: 'changed' },
            { id: done.id, type: 'CUSTOM' },
          ],
          400,
        ],
        [[{ title: 'no id' }], 400],
        [[], 400],
        [Array.from({ length: 101 }, () => ({ id: a.id, title: 'changed' })), 400],
        ['not an array', 400],
      ];
      for (const [objects, status] of cases) {
        const res = await t.http.patch(`${JOBS}/`).set(h).send({ objects });
        expect([JSON.stringify(objects).slice(0, 80), res.status]).toEqual([
          JSON.stringify(objects).slice(0, 80),
          status,
        ]);
      }
      expect((await read(a.id)).title).toBe('a');
      expect((await read(done.id)).status).toBe('FINISHED');
      expect((await read(theirs.id, other)).title).toBe('theirs');
      expect((await read(foreignJob.id, foreign)).title).toBe('foreign');
    });

    it('DELETE /v1/jobs/ {job_ids}: all deleted, or (another tenant’s job, a running service job, too many ids) none', async () => {
      const [a, b] = [await create(), await create()];
      const foreignJob = await create({}, foreign);
      const theirs = await create({}, other);
      const kf = await serviceJob();
      for (const [job_ids, status] of [
        [[a.id, foreignJob.id], 404],
        [[a.id, theirs.id], 404],
        [[a.id, kf], 409],
        [[a.id, 'not-a-uuid'], 400],
        [[], 400],
        [Array.from({ length: 101 }, () => randomUUID()), 400],
      ] as [string[], number][]) {
        await t.http.delete(`${JOBS}/`).set(h).send({ job_ids }).expect(status);
      }
      await t.http
        .delete(`${JOBS}/`)
        .set(reader)
        .send({ job_ids: [a.id] })
        .expect(403);
      await t.http
        .delete(`${JOBS}/`)
        .send({ job_ids: [a.id] })
        .expect(401);
      await read(a.id);
      await read(foreignJob.id, foreign);
      await read(theirs.id, other);
      await t.http
        .delete(`${JOBS}/`)
        .set(h)
        .send({ job_ids: [a.id, b.id, a.id] })
        .expect(204);
      await t.http.get(`${JOBS}/${a.id}/`).set(h).expect(404);
      await t.http.get(`${JOBS}/${b.id}/`).set(h).expect(404);
    });

    it('PUT /v1/jobs/priority/: the only way to change priority; bounded; all or none', async () => {
      const [a, b] = [await create(), await create()];
      const foreignJob = await create({}, foreign);
      const res = (
        await t.http
          .put(`${JOBS}/priority/`)
          .set(h)
          .send({ job_ids: [a.id, b.id], priority: 5 })
          .expect(200)
      ).body;
      expect(res.objects.map((j: Job) => [j.id, j.priority])).toEqual([
        [a.id, 5],
        [b.id, 5],
      ]);
      await t.http
        .put(`${JOBS}/priority/`)
        .set(h)
        .send({ job_ids: [a.id, foreignJob.id], priority: 9 })
        .expect(404);
      for (const body of [
        { job_ids: [a.id], priority: 1001 },
        { job_ids: [a.id], priority: 'high' },
        { job_ids: [a.id] },
        { priority: 1 },
      ])
        await t.http.put(`${JOBS}/priority/`).set(h).send(body).expect(400);
      await t.http
        .put(`${JOBS}/priority/`)
        .set(reader)
        .send({ job_ids: [a.id], priority: 1 })
        .expect(403);
      await t.http
        .put(`${JOBS}/priority/`)
        .send({ job_ids: [a.id], priority: 1 })
        .expect(401);
      expect((await read(a.id)).priority).toBe(5);
      expect((await read(foreignJob.id, foreign)).priority).toBe(0);
    });

    it('PUT /v1/jobs/state/: pause, resume, abort; an impossible move is a 400 naming the job, nothing moved', async () => {
      const [a, b] = [await create({ status: 'STARTED' }), await create({ status: 'READY' })];
      const paused = (
        await t.http
          .put(`${JOBS}/state/`)
          .set(h)
          .send({ job_ids: [a.id, b.id], state: 'PAUSED' })
          .expect(200)
      ).body;
      expect(paused.objects.map((j: Job) => j.status)).toEqual(['PAUSED', 'PAUSED']);
      await t.http
        .put(`${JOBS}/state/`)
        .set(h)
        .send({ job_ids: [b.id], status: 'READY' })
        .expect(200);
      const done = await create({ status: 'FINISHED' });
      const res = await t.http
        .put(`${JOBS}/state/`)
        .set(h)
        .send({ job_ids: [a.id, done.id], state: 'ABORT_PENDING' })
        .expect(400);
      expect(res.body.errors[0]).toContain(done.id);
      expect((await read(a.id)).status).toBe('PAUSED');
      await t.http
        .put(`${JOBS}/state/`)
        .set(h)
        .send({ job_ids: [a.id, b.id], state: 'ABORT_PENDING' })
        .expect(200);
      expect((await read(b.id)).status).toBe('ABORT_PENDING');
      const kf = await serviceJob();
      await t.http
        .put(`${JOBS}/state/`)
        .set(h)
        .send({ job_ids: [kf], state: 'PAUSED' })
        .expect(403);
      expect((await read(kf)).status).toBe('STARTED');
      const foreignJob = await create({ status: 'STARTED' }, foreign);
      await t.http
        .put(`${JOBS}/state/`)
        .set(h)
        .send({ job_ids: [foreignJob.id], state: 'PAUSED' })
        .expect(404);
      expect((await read(foreignJob.id, foreign)).status).toBe('STARTED');
      for (const body of [
        { job_ids: [b.id], state: 'FINISHED' },
        { job_ids: [b.id], state: 'nope' },
        { job_ids: [b.id] },
        { job_ids: [b.id], state: 'PAUSED', status: 'READY' },
      ])
        await t.http.put(`${JOBS}/state/`).set(h).send(body).expect(400);
      await t.http
        .put(`${JOBS}/state/`)
        .set(reader)
        .send({ job_ids: [b.id], state: 'READY' })
        .expect(403);
      await t.http
        .put(`${JOBS}/state/`)
        .send({ job_ids: [b.id], state: 'READY' })
        .expect(401);
    });
  });

  it('the list: a published type or status no job has is an empty page; an unknown one is a 400', async () => {
    for (const q of ['type=MEDIAINFO', 'type=CONVERT_SAVED_SEARCH_TO_COLLECTION', 'status=SKIPPED'])
      expect((await t.http.get(`${JOBS}/?${q}`).set(h).expect(200)).body).toMatchObject({
        objects: [],
        total: 0,
      });
    for (const q of ['type=NOPE', 'type=PROXY', 'status=DONE', 'parent_id=1'])
      await t.http.get(`${JOBS}/?${q}`).set(h).expect(400);
  });

  it('hostile or wrong bodies are 400 and change nothing', async () => {
    const job = await create({ title: 'keep', metadata: { a: 1 } });
    const bad = [
      { type: 'NOPE' },
      { type: 'KEYFRAMES' },
      { type: 'CUSTOM' },
      { type: 'CUSTOM', custom_type: '' },
      { custom_type: 'X' },
      { metadata: [1, 2] },
      { metadata: 'text' },
      { metadata: null },
      { job_context: 5 },
      { related_objects: {} },
      { related_objects: [1] },
      { related_objects: Array.from({ length: 101 }, () => ({})) },
      { parent_id: job.id },
      { parent_id: 'x' },
      { started_at: 'yesterday' },
      { object_id: randomUUID(), object_type: null },
      { status: 'DONE' },
    ];
    for (const body of bad) {
      const res = await t.http
        .patch(`${JOBS}/${job.id}/`)
        .set(h)
        .send({ title: 'changed', ...body });
      expect([JSON.stringify(body).slice(0, 60), res.status]).toEqual([
        JSON.stringify(body).slice(0, 60),
        400,
      ]);
      const put = await t.http
        .put(`${JOBS}/${job.id}/`)
        .set(h)
        .send({ title: 'changed', ...body });
      expect([JSON.stringify(body).slice(0, 60), put.status]).toEqual([
        JSON.stringify(body).slice(0, 60),
        400,
      ]);
    }
    expect(await read(job.id)).toMatchObject({ title: 'keep', metadata: { a: 1 }, type: 'TRANSFER' });
    for (const body of [
      { type: 'CUSTOM' },
      { type: 'TRANSFER', custom_type: 'X' },
      { type: 'TRANSFER', metadata: [] },
    ])
      await t.http.post(`${JOBS}/`).set(h).send(body).expect(400);
  });

  it('access: a read-only caller (role or assets:read token) reads but changes nothing (403); no credentials 401; others 404', async () => {
    const job = await create({ title: 'mine' });
    const app = await createApp(t, { type: 'OAUTH', clientType: 'confidential', scopes: ['assets:read'] });
    const scoped = bearer(
      (await tokenFor(t, owner, { kind: 'OAUTH', appId: app.id, scopes: ['assets:read'] })).token,
    );
    await read(job.id, scoped);
    for (const as of [reader, scoped]) {
      await t.http.put(`${JOBS}/${job.id}/`).set(as).send({ title: 'no' }).expect(403);
      await t.http.patch(`${JOBS}/${job.id}/`).set(as).send({ title: 'no' }).expect(403);
      await t.http
        .patch(`${JOBS}/`)
        .set(as)
        .send({ objects: [{ id: job.id, title: 'no' }] })
        .expect(403);
    }
    await t.http.put(`${JOBS}/${job.id}/`).send({ title: 'no' }).expect(401);
    await t.http
      .patch(`${JOBS}/`)
      .send({ objects: [{ id: job.id, title: 'no' }] })
      .expect(401);
    await t.http.put(`${JOBS}/${job.id}/`).set(other).send({ title: 'no' }).expect(404);
    await t.http.put(`${JOBS}/${job.id}/`).set(foreign).send({ title: 'no' }).expect(404);
    expect((await read(job.id)).title).toBe('mine');
    // the domain's administrator changes anyone's job
    await t.http.put(`${JOBS}/${job.id}/`).set(admin).send({ title: 'by admin' }).expect(200);
  });

  it('a service job (KEYFRAMES): its state and progress are not the client’s; a PUT without them keeps them', async () => {
    const kf = await serviceJob();
    await t.http.patch(`${JOBS}/${kf}/`).set(h).send({ status: 'FAILED' }).expect(403);
    await t.http.put(`${JOBS}/${kf}/`).set(h).send({ progress_processed: 9 }).expect(403);
    const put = (
      await t.http
        .put(`${JOBS}/${kf}/`)
        .set(h)
        .send({ title: 'frames', metadata: { m: 1 } })
        .expect(200)
    ).body;
    expect(put).toMatchObject({ type: 'KEYFRAMES', status: 'STARTED', title: 'frames', metadata: { m: 1 } });
  });
});
