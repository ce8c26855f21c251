import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Clock } from '../../src/base/common/clock.js';
import { ByteStores } from '../../src/platform/files/byte-stores.js';
import { createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { closeAndExtractKeyframes, FILES, filesUnder, JOBS, listen, pathOf, rawPut } from '../utils/files.js';
import { waitFor } from '../utils/wait-for.js';

const ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];
const KEY = /^[0-9a-f-]{36}\/files\/[0-9a-f]{2}\/[0-9a-f-]{36}$/;

/**
 * Issue 20, abuse: the signed upload URL (expired, tampered, another file's), concurrent chunks, the size limit,
 * deletion under a chunk (the asset's ACL: files-acl.e2e-spec.ts). Each is a 4xx that changes nothing, and no
 * byte lands outside the storage's files. The service's rules (chunk ranges and offsets, hostile names, closing
 * early, download headers) are unit-tested over fakes: upload.service.spec.ts, files.service.spec.ts,
 * download.service.spec.ts.
 */
describe('files: abuse of the upload, the links and the ACL', () => {
  let t: TestApp;
  let h: Record<string, string>;
  let port: number;
  let server: ReturnType<typeof request>;

  const newFile = async (size: number, name = 'clip.bin') => {
    const asset = (
      await t.http
        .post('/API/assets/v1/assets/')
        .set(h)
        .send({ title: `a ${randomUUID()}` })
        .expect(201)
    ).body;
    const file = (
      await t.http
        .post(`${FILES}/assets/${asset.id}/files/`)
        .set(h)
        .send({ original_name: name, directory_path: 'clips/2026', size, type: 'FILE' })
        .expect(201)
    ).body;
    return { asset, file, url: pathOf(file.upload_url as string) };
  };
  const put = (url: string, range: string, body: Buffer) =>
    server.put(url).set('Content-Range', range).set('Content-Type', 'application/octet-stream').send(body);
  const received = async (assetId: string, fileId: string) =>
    (await t.http.get(`${FILES}/assets/${assetId}/files/${fileId}/`).set(h).expect(200)).body
      .received as number;

  beforeAll(async () => {
    t = await createTestApp({ FILES_MAX_BYTES: '100000', FILES_WORKER_INTERVAL_MS: '50' });
    port = await listen(t);
    server = request(t.app.getHttpServer());
    h = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
  });
  afterEach(() => t.get(Clock).reset());
  afterAll(async () => {
    // nothing was ever stored but under <storage>/files/<xx>/<file id>
    for (const f of filesUnder(t.get(ByteStores).root)) expect(f).toMatch(KEY);
    await t.close();
  });

  describe('the signed link', () => {
    it('a tampered signature, expiry or path is a 403 and stores nothing', async () => {
      const { asset, file, url } = await newFile(10);
      const u = new URL(url, 'http://x');
      const sig = u.searchParams.get('signature') as string;
      const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
      for (const bad of [
        `${u.pathname}?expires=${u.searchParams.get('expires')}&signature=${flipped}`,
        `${u.pathname}?expires=${Number(u.searchParams.get('expires')) + 1}&signature=${sig}`,
        `${u.pathname}?signature=${sig}`,
        `${u.pathname}`,
        `${u.pathname}?expires=${u.searchParams.get('expires')}&signature=${sig}&signature=${sig}`,
      ]) {
        const res = await put(bad, 'bytes 0-9/10', Buffer.alloc(10));
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ errors: ['The link is invalid or has expired'] });
      }
      expect(await received(asset.id, file.id)).toBe(0);
    });

    it('an expired link is a 403', async () => {
      const { asset, file, url } = await newFile(10);
      t.get(Clock).advance(2 * 3600_000);
      await put(url, 'bytes 0-9/10', Buffer.alloc(10)).expect(403);
      await server.post(url).set('x-goog-resumable', 'start').expect(403);
      t.get(Clock).reset();
      expect(await received(asset.id, file.id)).toBe(0);
    });

    it('another file’s link does not open this file', async () => {
      const a = await newFile(10);
      const b = await newFile(10);
      const other = new URL(a.url, 'http://x').search;
      await put(`${new URL(b.url, 'http://x').pathname}${other}`, 'bytes 0-9/10', Buffer.alloc(10)).expect(
        403,
      );
      expect(await received(b.asset.id, b.file.id)).toBe(0);
      expect(await received(a.asset.id, a.file.id)).toBe(0);
    });

    it('a download link is not an upload link, nor the other way round', async () => {
      const { url } = await newFile(3);
      await put(url, 'bytes 0-2/3', Buffer.from('abc')).expect(200);
      const q = new URL(url, 'http://x').search;
      const id = new URL(url, 'http://x').pathname.split('/').filter(Boolean).pop();
      await server.get(`${FILES}/download/files/${id}/${q}`).expect(403);
    });

    it('a path that is not a file id is refused, not followed', async () => {
      const { url } = await newFile(3);
      const q = new URL(url, 'http://x').search;
      for (const p of ['..%2F..%2Fetc%2Fpasswd', '%2e%2e', 'not-a-uuid']) {
        const res = await put(`${FILES}/upload/${p}/${q}`, 'bytes 0-2/3', Buffer.from('abc'));
        expect([403, 404]).toContain(res.status);
      }
    });
  });

  describe('chunks', () => {
    it('a file larger than FILES_MAX_BYTES is refused at creation and while streaming', async () => {
      const asset = (await t.http.post('/API/assets/v1/assets/').set(h).send({ title: 'big' }).expect(201))
        .body;
      await t.http
        .post(`${FILES}/assets/${asset.id}/files/`)
        .set(h)
        .send({ original_name: 'big', directory_path: '', size: 100001, type: 'FILE' })
        .expect(400);
      const open = (
        await t.http
          .post(`${FILES}/assets/${asset.id}/files/`)
          .set(h)
          .send({ original_name: 'unsized', directory_path: '', type: 'FILE' })
          .expect(201)
      ).body;
      const url = pathOf(open.upload_url);
      expect((await put(url, 'bytes 0-100000/100001', Buffer.alloc(100001))).status).toBe(413);
      expect((await put(url, 'bytes 0-100000/*', Buffer.alloc(100001))).status).toBe(413);
      expect(await received(asset.id, open.id)).toBe(0);
    });

    it('concurrent chunks for one upload are never interleaved: one is refused', async () => {
      const size = 60000;
      const { asset, file, url } = await newFile(size);
      const bytes = Buffer.alloc(size, 7);
      const headers = { 'Content-Range': `bytes 0-${size - 1}/${size}`, 'Content-Length': String(size) };
      // the first holds the upload's lease while its bytes trickle in; the second arrives meanwhile
      let release!: () => void;
      const first = rawPut(port, url, headers, bytes, {
        after: 1000,
        when: () => new Promise<void>((r) => (release = r)),
      });
      await waitFor(async () => {
        const [row] = await t.ds.query('SELECT upload_lock_until FROM files WHERE id = $1', [file.id]);
        return row.upload_lock_until ? true : undefined;
      });
      const second = await rawPut(port, url, headers, bytes);
      expect(second !== 'cut' && second.status).toBe(409);
      // nor is the file deleted under it (its bytes would come back after their removal)
      await t.http.delete(`${FILES}/assets/${asset.id}/files/${file.id}/`).set(h).expect(409);
      release();
      await first;
      const n = await waitFor(async () => {
        const [row] = await t.ds.query('SELECT upload_lock_until, received FROM files WHERE id = $1', [
          file.id,
        ]);
        return row.upload_lock_until ? undefined : Number(row.received);
      });
      expect(n).toBe(await received(asset.id, file.id));
      expect(n).toBeLessThan(size);
    });
  });

  describe('names, closing, deleting', () => {
    it('a deleted file is 404 and its bytes are removed in the background, once', async () => {
      const { asset, file, url } = await newFile(3);
      await put(url, 'bytes 0-2/3', Buffer.from('abc')).expect(200);
      const before = filesUnder(t.get(ByteStores).root).filter((f) => f.endsWith(file.id));
      expect(before).toHaveLength(1);
      await t.http.delete(`${FILES}/assets/${asset.id}/files/${file.id}/`).set(h).expect(204);
      await t.http.get(`${FILES}/assets/${asset.id}/files/${file.id}/`).set(h).expect(404);
      await put(url, 'bytes 0-2/3', Buffer.from('abc')).expect(404);
      await waitFor(async () =>
        filesUnder(t.get(ByteStores).root).some((f) => f.endsWith(file.id)) ? undefined : true,
      );
      const tasks = await waitFor(async () => {
        const rows: { status: string }[] = await t.ds.query(
          'SELECT status FROM file_tasks WHERE file_id = $1',
          [file.id],
        );
        return rows.every((r) => r.status === 'DONE') ? rows : undefined;
      });
      expect(tasks).toHaveLength(1);
    });

    it('keyframes of a file ffmpeg cannot read end the job FAILED with a readable message', async () => {
      const { asset, file, url } = await newFile(20, 'notes.txt');
      await put(url, 'bytes 0-19/20', Buffer.from('this is not a video!')).expect(200);
      const job = await closeAndExtractKeyframes(t, h, asset.id, file.id);
      expect(job).toMatchObject({
        status: 'FAILED',
        message: expect.stringMatching(/^ffmpeg could not read the file: /),
        completed_at: expect.any(String),
      });
      // a failed job's reason is its error_message too (the published field), as readable and as clean
      expect(job.error_message).toBe(job.message);
      expect(job.message).not.toContain(t.get(ByteStores).root);
      const frames = (await t.http.get(`${FILES}/assets/${asset.id}/keyframes/`).set(h).expect(200)).body;
      expect(frames.total).toBe(0);
      // a finished job does not go back, and a service job is not the client's to set
      await t.http
        .patch(`${JOBS}/${job.id as string}/`)
        .set(h)
        .send({ status: 'STARTED' })
        .expect(403);
    });

    it('keyframes of an OPEN file are a 400; of an empty one, a 204', async () => {
      const { asset, file } = await newFile(5);
      await t.http.post(`${FILES}/assets/${asset.id}/files/${file.id}/keyframes/`).set(h).expect(400);
      const empty = await newFile(0);
      await t.http
        .patch(`${FILES}/assets/${empty.asset.id}/files/${empty.file.id}/`)
        .set(h)
        .send({ status: 'CLOSED' })
        .expect(200);
      await t.http
        .post(`${FILES}/assets/${empty.asset.id}/files/${empty.file.id}/keyframes/`)
        .set(h)
        .expect(204);
    });
  });
});
