import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { Clock } from '../../src/base/common/clock.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { binary, FILES, pathOf, startS3 } from '../utils/files.js';

const ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Issue 38 item 3, proxies as the published clients call them: create (an upload link of the files' resumable
 * protocol), list, get, PUT/PATCH, DELETE, download_url/, per version; the asset's ACL, tenants, roles, hostile
 * input and the signed links.
 */
describe('proxies', () => {
  let t: TestApp;
  let h: Record<string, string>;
  let server: ReturnType<typeof request>;

  const newAsset = async () =>
    (
      await t.http
        .post('/API/assets/v1/assets/')
        .set(h)
        .send({ title: `p ${randomUUID()}` })
        .expect(201)
    ).body as { id: string; current_version_id?: string; versions?: { id: string }[] };
  const newProxy = async (assetId: string, body: Record<string, unknown> = {}) =>
    (
      await t.http
        .post(`${FILES}/assets/${assetId}/proxies/`)
        .set(h)
        .send({ name: 'proxy.mp4', size: 10, codec: 'h264', ...body })
        .expect(201)
    ).body;
  const put = (url: string, range: string, body: Buffer) =>
    server.put(url).set('Content-Range', range).set('Content-Type', 'application/octet-stream').send(body);
  const proxyCount = async () => Number((await t.ds.query('SELECT count(*) AS n FROM proxies'))[0].n);

  beforeAll(async () => {
    t = await createTestApp({ FILES_MAX_BYTES: '100000' });
    server = request(t.app.getHttpServer());
    h = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
  });
  afterEach(() => t.get(Clock).reset());
  afterAll(() => t.close());

  it('creates a proxy, uploads its bytes in two chunks, closes it and downloads the same bytes', async () => {
    const asset = await newAsset();
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256));
    const proxy = await newProxy(asset.id, {
      name: 'Harbour proxy',
      filename: 'harbour.mp4',
      size: bytes.length,
      format: 'MP4',
      resolution: { width: 640, height: 360 },
      frame_rate: '25',
      bit_rate: 800000,
      audio_bitrate: 128000,
      rotation: 0,
      is_drop_frame: false,
      start_time_code: '00:00:00:00',
    });
    expect(proxy).toMatchObject({
      asset_id: asset.id,
      name: 'Harbour proxy',
      filename: 'harbour.mp4',
      status: 'OPEN',
      size: bytes.length,
      upload_method: 'RESUMABLE',
      storage_method: 'FILE',
      upload_url: expect.stringMatching(/^http/),
      url: null,
      is_public: false,
      resolution: { width: 640, height: 360 },
    });
    expect(proxy.version_id).toEqual(expect.any(String));
    // the storage is the domain's PROXIES storage
    const storage = (await t.http.get(`${FILES}/storages/matching/PROXIES/`).set(h).expect(200)).body;
    expect(proxy.storage_id).toBe(storage.id);

    const start = await server.post(pathOf(proxy.upload_url)).set('x-goog-resumable', 'start').expect(201);
    const session = pathOf(start.headers.location as string);
    const half = 2000;
    const first = await put(session, `bytes 0-${half - 1}/${bytes.length}`, bytes.subarray(0, half));
    expect(first.status).toBe(308);
    expect(first.headers.range).toBe(`bytes=0-${half - 1}`);
    // closing early is a 400 and the proxy stays OPEN
    await t.http
      .patch(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`)
      .set(h)
      .send({ status: 'CLOSED' })
      .expect(400);
    await put(session, `bytes ${half}-${bytes.length - 1}/${bytes.length}`, bytes.subarray(half)).expect(200);
    const closed = (
      await t.http
        .patch(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`)
        .set(h)
        .send({ status: 'CLOSED' })
        .expect(200)
    ).body;
    expect(closed).toMatchObject({ status: 'CLOSED', upload_url: null, checksum: `sha256:${sha256(bytes)}` });

    const link = (
      await t.http.get(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/download_url/`).set(h).expect(200)
    ).body;
    expect(link.url).toMatch(/^http/);
    const got = await server.get(pathOf(link.url)).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);

    // list, get, PUT and PATCH
    const list = (await t.http.get(`${FILES}/assets/${asset.id}/proxies/`).set(h).expect(200)).body;
    expect(list.objects.map((p: { id: string }) => p.id)).toEqual([proxy.id]);
    expect(list.total).toBe(1);
    await t.http
      .put(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`)
      .set(h)
      .send({ ...closed, name: 'renamed', filename: 'renamed.mp4', is_public: true })
      .expect(200);
    const patched = (
      await t.http
        .patch(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`)
        .set(h)
        .send({ codec: 'hevc' })
        .expect(200)
    ).body;
    expect(patched).toMatchObject({ name: 'renamed', is_public: true, codec: 'hevc', status: 'CLOSED' });
    const one = (await t.http.get(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`).set(h).expect(200))
      .body;
    expect(one).toMatchObject({ name: 'renamed', codec: 'hevc', bit_rate: 800000 });
    // the download is named after the new filename
    const again = await server.get(pathOf(link.url)).buffer(true).parse(binary).expect(200);
    expect(again.headers['content-disposition']).toContain('filename="renamed.mp4"');

    // per version: listed under its version, gone with it
    const v = proxy.version_id as string;
    const byVersion = (
      await t.http.get(`${FILES}/assets/${asset.id}/versions/${v}/proxies/`).set(h).expect(200)
    ).body;
    expect(byVersion.objects.map((p: { id: string }) => p.id)).toEqual([proxy.id]);
    const other = (
      await t.http.get(`${FILES}/assets/${asset.id}/versions/${randomUUID()}/proxies/`).set(h).expect(200)
    ).body;
    expect(other.total).toBe(0);
    await t.http.delete(`${FILES}/assets/${asset.id}/versions/${v}/proxies/`).set(h).expect(204);
    await t.http.get(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`).set(h).expect(404);
    // its bytes are no longer served, and its file is deleted
    await server.get(pathOf(link.url)).expect(404);
    const [file] = await t.ds.query('SELECT status FROM files WHERE id = $1', [proxy.file_id]);
    expect(file.status).toBe('DELETED');
  });

  it('DELETE one proxy and DELETE versions/all/proxies/', async () => {
    const asset = await newAsset();
    const a = await newProxy(asset.id);
    const b = await newProxy(asset.id);
    const c = await newProxy(asset.id);
    await t.http.delete(`${FILES}/assets/${asset.id}/proxies/${a.id}/`).set(h).expect(204);
    await t.http.delete(`${FILES}/assets/${asset.id}/proxies/${a.id}/`).set(h).expect(404);
    let list = (await t.http.get(`${FILES}/assets/${asset.id}/proxies/`).set(h).expect(200)).body;
    expect(list.objects.map((p: { id: string }) => p.id).sort()).toEqual([b.id, c.id].sort());
    await t.http.delete(`${FILES}/assets/${asset.id}/versions/all/proxies/`).set(h).expect(204);
    list = (await t.http.get(`${FILES}/assets/${asset.id}/proxies/`).set(h).expect(200)).body;
    expect(list.total).toBe(0);
  });

  it('another domain, a member without an ACL entry, a deleted asset: 404, nothing changed', async () => {
    const asset = await newAsset();
    const p = await newProxy(asset.id);
    const domain = await createDomain(t);
    const foreign = bearer(
      (await tokenFor(t, await createUser(t, { domainId: domain.id, roles: ROLES }))).token,
    );
    const stranger = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
    const base = `${FILES}/assets/${asset.id}`;
    for (const who of [foreign, stranger]) {
      await t.http.get(`${base}/proxies/`).set(who).expect(404);
      await t.http.get(`${base}/proxies/${p.id}/`).set(who).expect(404);
      await t.http.get(`${base}/proxies/${p.id}/download_url/`).set(who).expect(404);
      await t.http.post(`${base}/proxies/`).set(who).send({ name: 'x' }).expect(404);
      await t.http.patch(`${base}/proxies/${p.id}/`).set(who).send({ name: 'x' }).expect(404);
      await t.http.put(`${base}/proxies/${p.id}/`).set(who).send({ name: 'x' }).expect(404);
      await t.http.delete(`${base}/proxies/${p.id}/`).set(who).expect(404);
      await t.http.get(`${base}/versions/${p.version_id}/proxies/`).set(who).expect(404);
      await t.http.delete(`${base}/versions/${p.version_id}/proxies/`).set(who).expect(404);
      await t.http.delete(`${base}/versions/all/proxies/`).set(who).expect(404);
    }
    const still = (await t.http.get(`${base}/proxies/${p.id}/`).set(h).expect(200)).body;
    expect(still.name).toBe('proxy.mp4');
    // a proxy id under another asset is not found
    const other = await newAsset();
    await t.http.get(`${FILES}/assets/${other.id}/proxies/${p.id}/`).set(h).expect(404);
    await t.http.delete(`${FILES}/assets/${other.id}/proxies/${p.id}/`).set(h).expect(404);
    // the asset deleted: its proxies are 404
    await t.http.delete(`/API/assets/v1/assets/${asset.id}/`).set(h).expect(204);
    await t.http.get(`${base}/proxies/${p.id}/`).set(h).expect(404);
    await t.http.get(`${base}/proxies/`).set(h).expect(404);
    await t.http.post(`${base}/proxies/`).set(h).send({ name: 'x' }).expect(404);
  });

  it('read without write: reads pass, create, change and delete are 403; no credentials 401', async () => {
    const asset = await newAsset();
    const p = await newProxy(asset.id);
    const reader = await createUser(t, { roles: ROLES });
    await t.http
      .put(`/API/acls/v1/users/${reader.id}/acl/assets/${asset.id}/`)
      .set(h)
      .send({ permissions: ['read'] })
      .expect((r) => expect([200, 201]).toContain(r.status));
    const hr = bearer((await tokenFor(t, reader)).token);
    const base = `${FILES}/assets/${asset.id}`;
    await t.http.get(`${base}/proxies/${p.id}/`).set(hr).expect(200);
    await t.http.get(`${base}/proxies/`).set(hr).expect(200);
    const before = await proxyCount();
    await t.http.post(`${base}/proxies/`).set(hr).send({ name: 'x' }).expect(403);
    await t.http.patch(`${base}/proxies/${p.id}/`).set(hr).send({ name: 'x' }).expect(403);
    await t.http.delete(`${base}/proxies/${p.id}/`).set(hr).expect(403);
    await t.http.delete(`${base}/versions/all/proxies/`).set(hr).expect(403);
    expect(await proxyCount()).toBe(before);
    // the write permission without the role: 403 too
    const noRole = await createUser(t, { roles: ['can_read_assets'] });
    await t.http
      .put(`/API/acls/v1/users/${noRole.id}/acl/assets/${asset.id}/`)
      .set(h)
      .send({ permissions: ['read', 'write', 'delete'] })
      .expect((r) => expect([200, 201]).toContain(r.status));
    const hn = bearer((await tokenFor(t, noRole)).token);
    await t.http.get(`${base}/proxies/${p.id}/download_url/`).set(hn).expect(400); // readable; not CLOSED
    await t.http.post(`${base}/proxies/`).set(hn).send({ name: 'x' }).expect(403);
    await t.http.delete(`${base}/proxies/${p.id}/`).set(hn).expect(403);
    // an OAuth token whose scopes cover reading only (full roles and ACL): reads pass, changes are 403
    const sc = await createUser(t, { roles: ROLES });
    await t.http
      .put(`/API/acls/v1/users/${sc.id}/acl/assets/${asset.id}/`)
      .set(h)
      .send({ permissions: ['read', 'write', 'delete'] })
      .expect((r) => expect([200, 201]).toContain(r.status));
    const app = await createApp(t, { type: 'OAUTH', clientType: 'confidential', scopes: ['assets:read'] });
    const hs = bearer(
      (await tokenFor(t, sc, { kind: 'OAUTH', appId: app.id, scopes: ['assets:read'] })).token,
    );
    await t.http.get(`${base}/proxies/${p.id}/`).set(hs).expect(200);
    await t.http.post(`${base}/proxies/`).set(hs).send({ name: 'x' }).expect(403);
    await t.http.patch(`${base}/proxies/${p.id}/`).set(hs).send({ name: 'x' }).expect(403);
    await t.http.delete(`${base}/proxies/${p.id}/`).set(hs).expect(403);
    // no credentials
    await t.http.get(`${base}/proxies/`).expect(401);
    await t.http.get(`${base}/proxies/${p.id}/download_url/`).expect(401);
    await t.http.post(`${base}/proxies/`).send({ name: 'x' }).expect(401);
    await t.http.delete(`${base}/proxies/${p.id}/`).expect(401);
    expect(await proxyCount()).toBe(before);
  });

  it('hostile input is a 400 that changes nothing', async () => {
    const asset = await newAsset();
    const p = await newProxy(asset.id);
    const base = `${FILES}/assets/${asset.id}`;
    const before = await proxyCount();
    for (const body of [
      { name: 'x'.repeat(256) },
      { filename: 'a/../../etc/passwd' },
      { filename: '..' },
      { filename: 'ok\u202Egnp.exe' },
      { size: -1 },
      { size: 100001 },
      { size: 'ten' },
      { storage_id: 'not-a-uuid' },
      { version_id: 'nope' },
      { version_id: randomUUID() },
      { status: 'CLOSED' },
      { status: 'WHATEVER' },
      { bit_rate: -5 },
      { rotation: 720 },
      { resolution: 'big' },
      { is_public: 'yes' },
      { frame_rate: '1'.repeat(33) },
    ])
      await t.http
        .post(`${base}/proxies/`)
        .set(h)
        .send({ name: 'x', ...body })
        .expect((r) => expect({ body, status: r.status }).toEqual({ body, status: 400 }));
    expect(await proxyCount()).toBe(before);
    for (const body of [
      { status: 'WHATEVER' },
      { status: 'FAILED' },
      { name: 'y'.repeat(256) },
      { filename: 'a\\b' },
      { audio_bitrate: -1 },
    ])
      await t.http
        .patch(`${base}/proxies/${p.id}/`)
        .set(h)
        .send(body)
        .expect((r) => expect({ body, status: r.status }).toEqual({ body, status: 400 }));
    const same = (await t.http.get(`${base}/proxies/${p.id}/`).set(h).expect(200)).body;
    expect(same).toMatchObject({ name: 'proxy.mp4', filename: 'proxy.mp4', status: 'OPEN', codec: 'h264' });
    // malformed ids in the path name nothing
    await t.http.get(`${base}/proxies/not-a-uuid/`).set(h).expect(404);
    await t.http.delete(`${base}/versions/not-a-uuid/proxies/`).set(h).expect(404);
    expect(await proxyCount()).toBe(before);
  });

  it('an upload link opens only its own proxy; download links refuse forged and expired signatures', async () => {
    const asset = await newAsset();
    const a = await newProxy(asset.id);
    const b = await newProxy(asset.id);
    const received = async (id: string) =>
      (await t.http.get(`${FILES}/assets/${asset.id}/proxies/${id}/`).set(h).expect(200)).body.received;
    // a's signature on b's path, and on a plain file's path
    const aUrl = new URL(a.upload_url as string);
    const bPath = new URL(b.upload_url as string).pathname;
    await put(`${bPath}${aUrl.search}`, 'bytes 0-9/10', Buffer.alloc(10)).expect(403);
    const file = (
      await t.http
        .post(`${FILES}/assets/${asset.id}/files/`)
        .set(h)
        .send({ original_name: 'f.bin', directory_path: '', size: 10, type: 'FILE' })
        .expect(201)
    ).body;
    await put(
      `${new URL(file.upload_url as string).pathname}${aUrl.search}`,
      'bytes 0-9/10',
      Buffer.alloc(10),
    ).expect(403);
    expect(await received(b.id)).toBe(0);

    // a's own link works; then the download link
    const bytes = Buffer.from('0123456789');
    await put(pathOf(a.upload_url), 'bytes 0-9/10', bytes).expect(200);
    await t.http
      .patch(`${FILES}/assets/${asset.id}/proxies/${a.id}/`)
      .set(h)
      .send({ status: 'CLOSED' })
      .expect(200);
    // b is not CLOSED: no download link
    await t.http.get(`${FILES}/assets/${asset.id}/proxies/${b.id}/download_url/`).set(h).expect(400);
    const { url } = (
      await t.http.get(`${FILES}/assets/${asset.id}/proxies/${a.id}/download_url/`).set(h).expect(200)
    ).body;
    const u = new URL(url as string);
    const sig = u.searchParams.get('signature') as string;
    const forged = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    await server
      .get(`${u.pathname}?expires=${u.searchParams.get('expires')}&signature=${forged}`)
      .expect(403);
    await server
      .get(`${u.pathname}?expires=${Number(u.searchParams.get('expires')) + 60}&signature=${sig}`)
      .expect(403);
    // an upload link is no download link
    await server.get(`/API/files/v1/download/files/${a.file_id}/${aUrl.search}`).expect(403);
    await server.get(pathOf(url)).buffer(true).parse(binary).expect(200);
    t.get(Clock).advance(2 * 3600_000);
    await server.get(pathOf(url)).expect(403);
  });

  it('a proxy’s file is not one of the asset’s files/: absent from the lists, 404 to the file routes, nothing changed', async () => {
    const asset = await newAsset();
    const bytes = Buffer.from('0123456789');
    const proxy = await newProxy(asset.id);
    await put(pathOf(proxy.upload_url), 'bytes 0-9/10', bytes).expect(200);
    await t.http
      .patch(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`)
      .set(h)
      .send({ status: 'CLOSED' })
      .expect(200);
    const plain = (
      await t.http
        .post(`${FILES}/assets/${asset.id}/files/`)
        .set(h)
        .send({ original_name: 'f.bin', directory_path: '', size: 10, type: 'FILE' })
        .expect(201)
    ).body as { id: string; version_id: string };
    expect(plain.version_id).toBe(proxy.version_id);
    const ids = (body: { objects: { id: string }[] }) => body.objects.map((o) => o.id);
    const all = (await t.http.get(`${FILES}/assets/${asset.id}/files/`).set(h).expect(200)).body;
    expect(ids(all)).toEqual([plain.id]);
    expect(all.total).toBe(1);
    const byVersion = (
      await t.http.get(`${FILES}/assets/${asset.id}/versions/${proxy.version_id}/files/`).set(h).expect(200)
    ).body;
    expect(ids(byVersion)).toEqual([plain.id]);
    expect(byVersion.total).toBe(1);

    const file = `${FILES}/assets/${asset.id}/files/${proxy.file_id}`;
    await t.http.get(`${file}/`).set(h).expect(404);
    await t.http
      .patch(`${file}/`)
      .set(h)
      .send({ metadata: { x: 1 } })
      .expect(404);
    await t.http.delete(`${file}/`).set(h).expect(404);
    await t.http.get(`${file}/download/`).set(h).expect(404);
    await t.http.get(`${file}/download_url/`).set(h).expect(404);
    await t.http.post(`${file}/keyframes/`).set(h).expect(404);
    const [row] = await t.ds.query('SELECT status, date_deleted, metadata FROM files WHERE id = $1', [
      proxy.file_id,
    ]);
    expect(row).toMatchObject({ status: 'CLOSED', date_deleted: null, metadata: {} });
    // the proxy routes are its door
    const one = (await t.http.get(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`).set(h).expect(200))
      .body;
    expect(one).toMatchObject({ status: 'CLOSED', file_id: proxy.file_id });
    const { url } = (
      await t.http.get(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/download_url/`).set(h).expect(200)
    ).body;
    const got = await server.get(pathOf(url)).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
    await t.http.delete(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`).set(h).expect(204);
    const [gone] = await t.ds.query('SELECT status FROM files WHERE id = $1', [proxy.file_id]);
    expect(gone.status).toBe('DELETED');
    // the plain file is untouched by all of it
    await t.http.get(`${FILES}/assets/${asset.id}/files/${plain.id}/`).set(h).expect(200);
  });
});

/** The same upload on an S3 storage (a local s3rver): two chunks, the first one a full 5 MiB part. */
describe('proxies on an S3 storage', () => {
  let t: TestApp;
  let s3: Awaited<ReturnType<typeof startS3>>;

  beforeAll(async () => {
    s3 = await startS3();
    t = await createTestApp(s3.env);
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it('uploads in two chunks, closes, and downloads the same bytes', async () => {
    const h = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
    const server = request(t.app.getHttpServer());
    const asset = (await t.http.post('/API/assets/v1/assets/').set(h).send({ title: 's3' }).expect(201)).body;
    const bytes = Buffer.alloc(5 * 1024 * 1024 + 1000, 7);
    bytes.write('the end', bytes.length - 7);
    const proxy = (
      await t.http
        .post(`${FILES}/assets/${asset.id}/proxies/`)
        .set(h)
        .send({ name: 'p.mp4', size: bytes.length })
        .expect(201)
    ).body;
    expect(proxy.storage_method).toBe('S3');
    const start = await server.post(pathOf(proxy.upload_url)).set('x-goog-resumable', 'start').expect(201);
    const session = pathOf(start.headers.location as string);
    const cut = 5 * 1024 * 1024;
    const send = (from: number, to: number) =>
      server
        .put(session)
        .set('Content-Range', `bytes ${from}-${to - 1}/${bytes.length}`)
        .set('Content-Type', 'application/octet-stream')
        .send(bytes.subarray(from, to));
    await send(0, cut).expect(308);
    await send(cut, bytes.length).expect(200);
    await t.http
      .patch(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/`)
      .set(h)
      .send({ status: 'CLOSED' })
      .expect(200);
    const { url } = (
      await t.http.get(`${FILES}/assets/${asset.id}/proxies/${proxy.id}/download_url/`).set(h).expect(200)
    ).body;
    const got = await server.get(pathOf(url)).buffer(true).parse(binary).expect(200);
    expect(sha256(got.body as Buffer)).toBe(sha256(bytes));
  });
});
