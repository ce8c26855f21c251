import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { FILES, JOBS } from '../utils/files.js';

const ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];

/** Issue 20: jobs (create, get, list, progress and status; final is final) and storages (list, facets, admin). */
describe('jobs and storages', () => {
  let t: TestApp;
  let h: Record<string, string>;
  let other: Record<string, string>;
  let admin: Record<string, string>;
  let foreignAdmin: Record<string, string>;
  let superAdmin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    h = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
    other = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
    admin = bearer((await tokenFor(t, await createUser(t, { isAdmin: true }))).token);
    const domain = await createDomain(t);
    foreignAdmin = bearer(
      (await tokenFor(t, await createUser(t, { domainId: domain.id, isAdmin: true }))).token,
    );
    superAdmin = bearer((await tokenFor(t, t.admin)).token);
  });
  afterAll(() => t.close());

  describe('jobs', () => {
    // a final status never changes (400), an object id needs its type: JobsService's unit spec
    it('create 201, get, list, PATCH progress, FINISHED', async () => {
      const job = (
        await t.http
          .post(`${JOBS}/`)
          .set(h)
          .send({ type: 'TRANSFER', status: 'STARTED', title: 'up' })
          .expect(201)
      ).body;
      expect(job).toMatchObject({ type: 'TRANSFER', status: 'STARTED', title: 'up', progress_processed: 0 });
      await t.http.get(`${JOBS}/${job.id}`).set(h).expect(200);
      const list = (await t.http.get(`${JOBS}/?type=TRANSFER`).set(h).expect(200)).body;
      expect(list.objects.map((j: { id: string }) => j.id)).toContain(job.id);
      await t.http
        .patch(`${JOBS}/${job.id}/`)
        .set(h)
        .send({ progress_processed: 40, progress_total: 100 })
        .expect(200);
      const done = (
        await t.http
          .patch(`${JOBS}/${job.id}/`)
          .set(h)
          .send({ status: 'FINISHED', progress_processed: 100 })
          .expect(200)
      ).body;
      expect(done).toMatchObject({ status: 'FINISHED', progress_processed: 100, progress_total: 100 });
    });

    it('a job is its creator’s (and the administrators’): others get 404', async () => {
      const job = (await t.http.post(`${JOBS}/`).set(h).send({ type: 'TRANSFER' }).expect(201)).body;
      await t.http.get(`${JOBS}/${job.id}/`).set(other).expect(404);
      await t.http.patch(`${JOBS}/${job.id}/`).set(other).send({ status: 'FAILED' }).expect(404);
      await t.http.get(`${JOBS}/${job.id}/`).set(admin).expect(200);
      await t.http.get(`${JOBS}/${job.id}/`).set(foreignAdmin).expect(404);
      const list = (await t.http.get(`${JOBS}/`).set(other).expect(200)).body;
      expect(list.objects.map((j: { id: string }) => j.id)).not.toContain(job.id);
      const all = (await t.http.get(`${JOBS}/?per_page=1000`).set(admin).expect(200)).body;
      expect(all.objects.map((j: { id: string }) => j.id)).toContain(job.id);
      const foreign = (await t.http.get(`${JOBS}/`).set(foreignAdmin).expect(200)).body;
      expect(foreign.total).toBe(0);
    });

    it('a job about an asset needs write on it; bad bodies are 400', async () => {
      const asset = (await t.http.post('/API/assets/v1/assets/').set(h).send({ title: 'x' }).expect(201))
        .body;
      await t.http
        .post(`${JOBS}/`)
        .set(other)
        .send({ type: 'TRANSFER', object_type: 'assets', object_id: asset.id })
        .expect(404);
      await t.http
        .post(`${JOBS}/`)
        .set(h)
        .send({ type: 'TRANSFER', object_type: 'assets', object_id: asset.id })
        .expect(201);
      for (const body of [
        {},
        { type: 'NOPE' },
        { type: 'KEYFRAMES' },
        { type: 'TRANSFER', status: 'DONE' },
        { type: 'TRANSFER', progress_processed: -1 },
        { type: 'TRANSFER', progress_processed: 1.5 },
      ]) {
        const res = await t.http.post(`${JOBS}/`).set(h).send(body);
        expect(res.status).toBe(400);
      }
    });
  });

  describe('storages', () => {
    it('the built-in FILES, PROXIES and KEYFRAMES storages, in the envelope with facets', async () => {
      const list = (await t.http.get(`${FILES}/storages/`).set(h).expect(200)).body;
      expect(list.objects.map((s: { purpose: string }) => s.purpose).sort()).toEqual([
        'FILES',
        'KEYFRAMES',
        'PROXIES',
      ]);
      expect(list.facets.purpose).toEqual({
        buckets: expect.arrayContaining([{ key: 'FILES', doc_count: 1 }]),
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
      });
      expect(list.facets.method.buckets).toEqual([{ key: 'FILE', doc_count: 3 }]);
      const files = (await t.http.get(`${FILES}/storages/matching/FILES`).set(h).expect(200)).body;
      expect(files).toMatchObject({
        method: 'FILE',
        status: 'ACTIVE',
        scanner_status: 'INACTIVE',
        settings: {},
        default: true,
      });
      await t.http.get(`${FILES}/storages/${files.id}/`).set(h).expect(200);
      await t.http.get(`${FILES}/storages/matching/EXPORTS/`).set(h).expect(404);
      await t.http.get(`${FILES}/storages/matching/nonsense/`).set(h).expect(404);
    });

    it('administrators add their domain’s storages (no path, endpoint or secret settable); others see none of it', async () => {
      await t.http
        .post(`${FILES}/storages/`)
        .set(h)
        .send({ name: 's', method: 'FILE', purpose: 'FILES' })
        .expect(403);
      for (const body of [
        { name: 's', method: 'FILE', purpose: 'FILES', settings: { path: '/etc' } },
        { name: 's', method: 'S3', purpose: 'FILES', settings: { endpoint: 'http://169.254.169.254' } },
        { name: 's', method: 'S3', purpose: 'FILES', settings: { bucket: '../x' } },
        { name: 's', method: 'S3', purpose: 'FILES', settings: { secret_access_key: 'x' } },
        { name: 's', method: 'GCS', purpose: 'FILES' },
      ]) {
        const res = await t.http.post(`${FILES}/storages/`).set(admin).send(body);
        expect(res.status).toBe(400);
      }
      const mine = (
        await t.http
          .post(`${FILES}/storages/`)
          .set(admin)
          .send({ name: 'Ours', method: 'FILE', purpose: 'FILES', default: true })
          .expect(201)
      ).body;
      expect(mine).toMatchObject({ builtin: false, default: true });
      expect((await t.http.get(`${FILES}/storages/matching/FILES/`).set(h).expect(200)).body.id).toBe(
        mine.id,
      );
      await t.http.get(`${FILES}/storages/${mine.id}/`).set(foreignAdmin).expect(404);
      await t.http.patch(`${FILES}/storages/${mine.id}/`).set(foreignAdmin).send({ name: 'x' }).expect(404);
      expect(
        (await t.http.get(`${FILES}/storages/matching/FILES/`).set(foreignAdmin).expect(200)).body.id,
      ).not.toBe(mine.id);
      const renamed = (
        await t.http
          .patch(`${FILES}/storages/${mine.id}/`)
          .set(admin)
          .send({ name: 'Renamed', default: false })
          .expect(200)
      ).body;
      expect(renamed).toMatchObject({ name: 'Renamed', default: false });
      // built-in storages are the super administrators'
      const builtin = (await t.http.get(`${FILES}/storages/matching/FILES/`).set(admin).expect(200)).body;
      await t.http.patch(`${FILES}/storages/${builtin.id}/`).set(admin).send({ name: 'x' }).expect(403);
      await t.http
        .patch(`${FILES}/storages/${builtin.id}/`)
        .set(superAdmin)
        .send({ status_message: 'fine' })
        .expect(200);
    });
  });
});
