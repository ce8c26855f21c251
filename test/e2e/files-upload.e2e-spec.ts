import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, login } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  binary,
  FILES,
  filesUnder,
  JOBS,
  listen,
  makeVideo,
  pathOf,
  rawPut,
  type RawAnswer,
  startS3,
} from '../utils/files.js';
import { ByteStores } from '../../src/platform/files/byte-stores.js';
import { waitFor } from '../utils/wait-for.js';

const ASSET_ROLES = [
  'can_read_assets',
  'can_write_assets',
  'can_delete_assets',
  'can_read_collections',
  'can_write_collections',
];
/** The bytes stored under a FILE storage's root so far. */
const bytesOnDisk = (root: string) => filesUnder(root).reduce((n, f) => n + statSync(join(root, f)).size, 0);
const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/**
 * Issue 20, "done when": the spec's upload workflow in its order, through HTTP only, with the byte upload
 * interrupted and resumed once; the bytes come back the same, and a keyframe of the video shows up. Once on
 * the local-filesystem method, once on the S3 method against a local S3-compatible server.
 */
describe.each(['FILE', 'S3'] as const)('the upload workflow on a %s storage', (method) => {
  let t: TestApp;
  let s3: Awaited<ReturnType<typeof startS3>> | null = null;
  let h: Record<string, string>;
  let port: number;
  const video = makeVideo(4);

  beforeAll(async () => {
    s3 = method === 'S3' ? await startS3() : null;
    t = await createTestApp({ FILES_WORKER_INTERVAL_MS: '50', ...(s3?.env ?? {}) });
    port = await listen(t);
    const user = await createUser(t, { roles: ASSET_ROLES });
    // a client that has just signed in
    h = bearer(await login(t, user.email, DEFAULT_PASSWORD));
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  it('runs the ten calls and the resumable upload, interrupted once, then downloads the same bytes and a keyframe', async () => {
    // 1. create asset, put in a collection as the published upload command does (issue 38)
    const collection = (
      await t.http.post('/API/assets/v1/collections/').set(h).send({ title: 'Harbour' }).expect(201)
    ).body;
    const asset = (
      await t.http
        .post('/API/assets/v1/assets/?assign_to_collection=true')
        .set(h)
        .send({ title: 'Harbour at dusk', collection_id: collection.id })
        .expect(201)
    ).body;
    expect(asset.in_collections).toEqual([collection.id]);
    // 2. the default FILES storage
    const storage = (await t.http.get(`${FILES}/storages/matching/FILES/`).set(h).expect(200)).body;
    expect(storage).toMatchObject({ purpose: 'FILES', method, status: 'ACTIVE', default: true });
    // 3. format
    const format = (
      await t.http
        .post(`${FILES}/assets/${asset.id}/formats/`)
        .set(h)
        .send({
          user_id: asset.created_by_user,
          name: 'original',
          metadata: [{ internet_media_type: 'video/mp4' }],
          storage_methods: [method],
        })
        .expect(201)
    ).body;
    // 4. file set
    const fileSet = (
      await t.http
        .post(`${FILES}/assets/${asset.id}/file_sets/`)
        .set(h)
        .send({
          format_id: format.id,
          storage_id: storage.id,
          base_dir: '',
          name: 'harbour.mp4',
          component_ids: [],
        })
        .expect(201)
    ).body;
    // 5. file: the upload_url and the id
    const now = new Date().toISOString();
    const file = (
      await t.http
        .post(`${FILES}/assets/${asset.id}/files/`)
        .set(h)
        .send({
          original_name: 'harbour.mp4',
          directory_path: '',
          size: video.length,
          type: 'FILE',
          metadata: {},
          format_id: format.id,
          file_set_id: fileSet.id,
          storage_id: storage.id,
          file_date_created: now,
          file_date_modified: now,
        })
        .expect(201)
    ).body;
    expect(file).toMatchObject({
      status: 'OPEN',
      size: video.length,
      storage_method: method,
      upload_url: expect.stringMatching(/^http/),
    });
    // 6. TRANSFER job, STARTED
    const job = (
      await t.http
        .post(`${JOBS}/`)
        .set(h)
        .send({
          object_type: 'assets',
          object_id: asset.id,
          type: 'TRANSFER',
          status: 'STARTED',
          title: 'harbour.mp4',
        })
        .expect(201)
    ).body;
    expect(job).toMatchObject({ type: 'TRANSFER', status: 'STARTED' });

    // 7. the resumable upload: start, a chunk cut off mid-way, the status, the rest
    const start = await request(t.app.getHttpServer())
      .post(pathOf(file.upload_url))
      .set('x-goog-resumable', 'start')
      .set('Content-Type', 'video/mp4')
      .expect(201);
    const session = pathOf(start.headers.location as string);
    const total = video.length;
    const cut = await rawPut(
      port,
      session,
      {
        'Content-Range': `bytes 0-${total - 1}/${total}`,
        'Content-Length': String(total),
        'Content-Type': 'video/mp4',
      },
      video,
      {
        after: Math.floor(total / 2),
        // the chunk's lease is taken (the service streams it to the storage): then, on FILE, until some of
        // the bytes are on disk (however slow the machine), on S3 a moment for the part to be under way
        when: () =>
          waitFor(async () => {
            const [row] = await t.ds.query('SELECT upload_lock_until FROM files WHERE id = $1', [file.id]);
            return row.upload_lock_until ? true : undefined;
          }).then(() =>
            method === 'FILE'
              ? waitFor(async () => (bytesOnDisk(t.get(ByteStores).root) > 0 ? true : undefined))
              : new Promise((r) => setTimeout(r, 300)),
          ),
      },
    );
    expect(cut).toBe('cut');
    // the service notices the cut and keeps what it stored (FILE: the bytes that arrived; S3: none, a part
    // is all or nothing); the status query tells where to resume
    const stored = await waitFor(async () => {
      const s = await rawPut(
        port,
        session,
        { 'Content-Range': `bytes */${total}`, 'Content-Length': '0' },
        Buffer.alloc(0),
      );
      if (s === 'cut' || s.status !== 308)
        throw new Error(`status query answered ${s === 'cut' ? s : s.status}`);
      const range = s.headers.range as string | undefined;
      const n = range ? Number(/^bytes=0-(\d+)$/.exec(range)?.[1]) + 1 : 0;
      // resume once the cut chunk's lease is gone (until then the service may not have noticed the cut, and
      // the status still tells what was stored before the chunk), and the file agrees with the status
      const [lease] = await t.ds.query('SELECT upload_lock_until FROM files WHERE id = $1', [file.id]);
      if (lease.upload_lock_until) return undefined;
      const f = (await t.http.get(`${FILES}/assets/${asset.id}/files/${file.id}/`).set(h).expect(200)).body;
      return f.received === n ? n : undefined;
    });
    expect(stored).toBeLessThan(total);
    if (method === 'FILE') expect(stored).toBeGreaterThan(0);
    let sent = stored;
    let answer: RawAnswer | 'cut' | undefined;
    const chunk = method === 'FILE' ? 4096 : total; // S3 parts other than the last are at least 5 MiB
    while (sent < total) {
      const end = Math.min(sent + chunk, total) - 1;
      answer = await rawPut(
        port,
        session,
        { 'Content-Range': `bytes ${sent}-${end}/${total}`, 'Content-Length': String(end - sent + 1) },
        video.subarray(sent, end + 1),
      );
      if (answer === 'cut') throw new Error('cut');
      if (end + 1 < total) {
        expect(answer.status).toBe(308);
        expect(answer.headers.range).toBe(`bytes=0-${end}`);
      }
      sent = end + 1;
    }
    expect(answer !== undefined && answer !== 'cut' ? answer.status : answer).toBe(200);

    // 8. compose_url
    const composed = await t.http
      .post(`${FILES}/assets/${asset.id}/files/${file.id}/multipart/gcs/compose_url/`)
      .set(h)
      .send({ parts_group: null, content_type: 'video/mp4' })
      .expect(200);
    expect(composed.body).toMatchObject({ compose_url: expect.any(String), key: expect.any(String) });
    // 9. CLOSED, with the checksum of exactly these bytes
    const closed = (
      await t.http
        .patch(`${FILES}/assets/${asset.id}/files/${file.id}/`)
        .set(h)
        .send({ status: 'CLOSED', progress_processed: 100 })
        .expect(200)
    ).body;
    expect(closed).toMatchObject({
      status: 'CLOSED',
      size: total,
      checksum: sha256(video),
      upload_url: null,
    });
    // 10. keyframes
    const kf = await t.http
      .post(`${FILES}/assets/${asset.id}/files/${file.id}/keyframes/`)
      .set(h)
      .expect(200);
    expect(kf.body).toEqual({ job_id: expect.any(String) });
    // 11. the TRANSFER job FINISHED
    const finished = await t.http
      .patch(`${JOBS}/${job.id}/`)
      .set(h)
      .send({ progress_processed: 100, status: 'FINISHED' })
      .expect(200);
    expect(finished.body).toMatchObject({ status: 'FINISHED', progress_processed: 100 });

    // the same bytes come back, whole and by range
    const link = (
      await t.http.get(`${FILES}/assets/${asset.id}/files/${file.id}/download/`).set(h).expect(200)
    ).body;
    const whole = await request(t.app.getHttpServer())
      .get(pathOf(link.url))
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(sha256(whole.body as Buffer)).toBe(sha256(video));
    const part = await request(t.app.getHttpServer())
      .get(pathOf(link.url))
      .set('Range', 'bytes=100-199')
      .buffer(true)
      .parse(binary)
      .expect(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${total}`);
    expect(Buffer.compare(part.body as Buffer, video.subarray(100, 200))).toBe(0);

    // the keyframes job ran in the background and the asset lists a JPEG of the video
    const kfJob = await waitFor(async () => {
      const j = (await t.http.get(`${JOBS}/${kf.body.job_id}/`).set(h).expect(200)).body;
      return ['FINISHED', 'FAILED'].includes(j.status) ? j : undefined;
    });
    expect(kfJob).toMatchObject({
      type: 'KEYFRAMES',
      status: 'FINISHED',
      message: expect.stringMatching(/keyframe/),
      object_type: 'files',
      object_id: file.id,
      error_message: null,
    });
    // the service's own job carries its times as a client's does (issue 38)
    expect(Date.parse(kfJob.started_at)).toBeLessThanOrEqual(Date.parse(kfJob.completed_at));
    const frames = (await t.http.get(`${FILES}/assets/${asset.id}/keyframes/`).set(h).expect(200)).body;
    expect(frames.total).toBeGreaterThanOrEqual(1);
    const image = await request(t.app.getHttpServer())
      .get(pathOf(frames.objects[0].url))
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect((image.body as Buffer).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    // the collection holds the asset whose bytes were uploaded
    const contents = (
      await t.http.get(`/API/assets/v1/collections/${collection.id}/contents/`).set(h).expect(200)
    ).body;
    expect(contents.objects.map((o: { id: string }) => o.id)).toEqual([asset.id]);

    // deleting the asset removes its file's bytes and keyframes from the storage, in the background, once
    await t.http.delete(`/API/assets/v1/assets/${asset.id}/`).set(h).expect(204);
    const tasks = await waitFor(async () => {
      const rows: { status: string; n: string }[] = await t.ds.query(
        `SELECT status, count(*) AS n FROM file_tasks WHERE kind = 'DELETE_BYTES' GROUP BY status`,
      );
      return rows.length === 1 && rows[0].status === 'DONE' ? Number(rows[0].n) : undefined;
    });
    expect(tasks).toBe(1 + frames.total);
    const again = await request(t.app.getHttpServer()).get(pathOf(link.url));
    expect(again.status).toBe(404);
    if (method === 'FILE') expect(filesUnder(t.get(ByteStores).root)).toEqual([]);
  });
});
