import { Clock } from '../../src/base/common/clock.js';
import { ByteStores } from '../../src/platform/files/byte-stores.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  binary,
  closeAndExtractKeyframes,
  FILES,
  filesUnder,
  JOBS,
  makeVideo,
  pathOf,
} from '../utils/files.js';
import { waitFor } from '../utils/wait-for.js';

const ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];
type H = Record<string, string>;

/**
 * Issue 38 item 3: the files service as its published clients call it. `metadata` as a JSON string, a
 * `directory_path` from the root, `download_url/`, `generate_signed_url`, a file set's and a version's files,
 * PUT of a format, `storages/{purpose}/default/`, keyframes with KeyframeSchema's fields that a second request
 * replaces. Each under the asset's ACL: another tenant's or an unreadable asset is a 404, a missing role a
 * 403, no credentials a 401, hostile input a 400 that changes nothing.
 */
describe('files: as published clients call them', () => {
  let t: TestApp;
  let h: H;
  let foreign: H;
  let stranger: H;
  let roleless: H;

  const newAsset = async () =>
    (await t.http.post('/API/assets/v1/assets/').set(h).send({ title: 'published' }).expect(201)).body as {
      id: string;
    };
  const newFile = (assetId: string, body: Record<string, unknown> = {}) =>
    t.http
      .post(`${FILES}/assets/${assetId}/files/`)
      .set(h)
      .send({ original_name: 'a.bin', directory_path: '', size: 3, type: 'FILE', ...body });
  const count = async (assetId: string) =>
    (await t.http.get(`${FILES}/assets/${assetId}/files/`).set(h).expect(200)).body.total as number;
  /** A CLOSED file of `bytes` (sent in one request to its upload_url). */
  const closedFile = async (assetId: string, bytes: Buffer, body: Record<string, unknown> = {}) => {
    const f = (await newFile(assetId, { size: bytes.length, ...body }).expect(201)).body;
    await t.http
      .put(pathOf(f.upload_url as string))
      .set('Content-Type', 'application/octet-stream')
      .send(bytes)
      .expect(200);
    await t.http
      .patch(`${FILES}/assets/${assetId}/files/${f.id}/`)
      .set(h)
      .send({ status: 'CLOSED' })
      .expect(200);
    return f as { id: string; version_id: string };
  };
  const download = (url: string) => t.http.get(pathOf(url)).buffer(true).parse(binary);
  const grantRead = async (userId: string, assetId: string) =>
    t.http
      .put(`/API/acls/v1/users/${userId}/acl/assets/${assetId}/`)
      .set(h)
      .send({ permissions: ['read'] })
      .expect((r) => expect([200, 201]).toContain(r.status));

  beforeAll(async () => {
    t = await createTestApp({ FILES_WORKER_INTERVAL_MS: '50' });
    h = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
    const domain = await createDomain(t);
    foreign = bearer((await tokenFor(t, await createUser(t, { domainId: domain.id, roles: ROLES }))).token);
    stranger = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
    roleless = bearer((await tokenFor(t, await createUser(t, { roles: [] }))).token);
  });
  afterEach(() => t.get(Clock).reset());
  afterAll(() => t.close());

  describe('POST …/files/: metadata and directory_path as clients send them', () => {
    it('metadata as an object or as a JSON string is kept and read back', async () => {
      const asset = await newAsset();
      const a = (await newFile(asset.id, { metadata: '{}' }).expect(201)).body;
      expect(a.metadata).toEqual({});
      const b = (await newFile(asset.id, { metadata: '{"camera":"A","take":3}' }).expect(201)).body;
      const c = (await newFile(asset.id, { metadata: { camera: 'B' } }).expect(201)).body;
      const read = async (id: string) =>
        (await t.http.get(`${FILES}/assets/${asset.id}/files/${id}/`).set(h).expect(200)).body.metadata;
      expect(await read(b.id)).toEqual({ camera: 'A', take: 3 });
      expect(await read(c.id)).toEqual({ camera: 'B' });
      const list = (await t.http.get(`${FILES}/assets/${asset.id}/files/`).set(h).expect(200)).body;
      expect(list.objects.map((f: { metadata: unknown }) => f.metadata)).toEqual([
        {},
        { camera: 'A', take: 3 },
        { camera: 'B' },
      ]);
      await t.http
        .patch(`${FILES}/assets/${asset.id}/files/${c.id}/`)
        .set(h)
        .send({ metadata: '{"camera":"C"}' })
        .expect(200);
      expect(await read(c.id)).toEqual({ camera: 'C' });
    });

    it('a metadata string that is not a JSON object is a 400 that stores nothing', async () => {
      const asset = await newAsset();
      for (const metadata of ['not json', '[1]', '"x"', 'null', '{"a":"\\u0000"}', 7]) {
        const res = await newFile(asset.id, { metadata }).expect(400);
        expect(res.body.errors).toHaveProperty('metadata');
      }
      expect(await count(asset.id)).toBe(0);
    });

    it('a directory_path of "/" or with a leading "/" names the root; one climbing out is still a 400', async () => {
      const asset = await newAsset();
      expect((await newFile(asset.id, { directory_path: '/' }).expect(201)).body.directory_path).toBe('');
      expect(
        (await newFile(asset.id, { directory_path: '/clips/2026' }).expect(201)).body.directory_path,
      ).toBe('clips/2026');
      for (const bad of ['/../etc', '/a/../../b', 'C:/win', '/a\u0007b'])
        await newFile(asset.id, { directory_path: bad }).expect(400);
      expect(await count(asset.id)).toBe(2);
    });
  });

  describe('download_url/ and generate_signed_url', () => {
    it('download_url/ answers the signed link of a CLOSED file; the link gives its bytes', async () => {
      const asset = await newAsset();
      const f = await closedFile(asset.id, Buffer.from('abc'));
      const res = await t.http
        .get(`${FILES}/assets/${asset.id}/files/${f.id}/download_url/`)
        .set(h)
        .expect(200);
      expect(res.body).toEqual({ url: expect.stringMatching(/^http/), expires: expect.any(String) });
      expect((await download(res.body.url).expect(200)).body).toEqual(Buffer.from('abc'));
      const open = (await newFile(asset.id).expect(201)).body;
      await t.http.get(`${FILES}/assets/${asset.id}/files/${open.id}/download_url/`).set(h).expect(400);
    });

    it('a link does not open another file, and stops working when it expires', async () => {
      const asset = await newAsset();
      const a = await closedFile(asset.id, Buffer.from('aaa'));
      const b = await closedFile(asset.id, Buffer.from('bbb'));
      const url = (
        await t.http.get(`${FILES}/assets/${asset.id}/files/${a.id}/download_url/`).set(h).expect(200)
      ).body.url as string;
      await download(url.replace(a.id, b.id)).expect(403);
      t.get(Clock).advance(3600_000);
      await download(url).expect(403);
    });

    it('download_url/ needs read on the asset: other tenants and users without an ACL 404, no role 403, no token 401', async () => {
      const asset = await newAsset();
      const f = await closedFile(asset.id, Buffer.from('abc'));
      const path = `${FILES}/assets/${asset.id}/files/${f.id}/download_url/`;
      for (const who of [foreign, stranger]) {
        const res = await t.http.get(path).set(who).expect(404);
        expect(JSON.stringify(res.body)).not.toContain('http');
      }
      await t.http.get(path).set(roleless).expect(403);
      await t.http.get(path).expect(401);
      await t.http.get(`${FILES}/assets/${asset.id}/files/not-a-uuid/download_url/`).set(h).expect(404);
      const other = await newAsset();
      await t.http.get(`${FILES}/assets/${other.id}/files/${f.id}/download_url/`).set(h).expect(404);
    });

    it('generate_signed_url=true fills url on a file read and list (CLOSED files only); without it url is null', async () => {
      const asset = await newAsset();
      const f = await closedFile(asset.id, Buffer.from('xyz'));
      await newFile(asset.id).expect(201);
      const one = `${FILES}/assets/${asset.id}/files/${f.id}/`;
      expect((await t.http.get(one).set(h).expect(200)).body.url).toBeNull();
      const signed = (await t.http.get(`${one}?generate_signed_url=true`).set(h).expect(200)).body
        .url as string;
      expect((await download(signed).expect(200)).body).toEqual(Buffer.from('xyz'));
      const list = (
        await t.http.get(`${FILES}/assets/${asset.id}/files/?generate_signed_url=true`).set(h).expect(200)
      ).body.objects as { id: string; url: string | null }[];
      expect(list.map((x) => x.url !== null)).toEqual([true, false]);
      expect(
        (await t.http.get(`${FILES}/assets/${asset.id}/files/`).set(h).expect(200)).body.objects[0].url,
      ).toBeNull();
      await t.http.get(`${one}?generate_signed_url=yes`).set(h).expect(400);
    });
  });

  describe('a file set’s and a version’s files', () => {
    it('lists the files of a file set, by its id alone and under its asset, and of a version', async () => {
      const asset = await newAsset();
      const set = (
        await t.http
          .post(`${FILES}/assets/${asset.id}/file_sets/`)
          .set(h)
          .send({ name: 'set', base_dir: '/' })
          .expect(201)
      ).body;
      const inSet = (await newFile(asset.id, { file_set_id: set.id }).expect(201)).body;
      await newFile(asset.id).expect(201);
      for (const path of [
        `${FILES}/file_sets/${set.id}/files/`,
        `${FILES}/assets/${asset.id}/file_sets/${set.id}/files/`,
      ]) {
        const page = (await t.http.get(path).set(h).expect(200)).body;
        expect(page).toMatchObject({ total: 1, objects: [{ id: inSet.id, file_set_id: set.id }] });
      }
      const version = (
        await t.http.get(`${FILES}/assets/${asset.id}/versions/${inSet.version_id}/files/`).set(h).expect(200)
      ).body;
      expect(version.total).toBe(2);
      const none = (
        await t.http.get(`${FILES}/assets/${asset.id}/versions/${asset.id}/files/`).set(h).expect(200)
      ).body;
      expect(none.total).toBe(0);
    });

    it('the same lists are 404 to other tenants and users without an ACL, 403 without the role, 401 without a token', async () => {
      const asset = await newAsset();
      const set = (
        await t.http.post(`${FILES}/assets/${asset.id}/file_sets/`).set(h).send({ name: 's' }).expect(201)
      ).body;
      const f = (await newFile(asset.id, { file_set_id: set.id }).expect(201)).body;
      const paths = [
        `${FILES}/file_sets/${set.id}/files/`,
        `${FILES}/assets/${asset.id}/file_sets/${set.id}/files/`,
        `${FILES}/assets/${asset.id}/versions/${f.version_id}/files/`,
      ];
      for (const path of paths) {
        for (const who of [foreign, stranger]) {
          const res = await t.http.get(path).set(who).expect(404);
          expect(JSON.stringify(res.body)).not.toContain(f.id);
        }
        await t.http.get(path).set(roleless).expect(403);
        await t.http.get(path).expect(401);
      }
      // a file set of another asset under this one, and ids that are not UUIDs (not found, as everywhere)
      const other = await newAsset();
      await t.http.get(`${FILES}/assets/${other.id}/file_sets/${set.id}/files/`).set(h).expect(404);
      await t.http.get(`${FILES}/file_sets/x'--/files/`).set(h).expect(404);
      await t.http.get(`${FILES}/assets/${asset.id}/versions/1/files/`).set(h).expect(404);
    });

    it('a reader granted read sees the file set’s files; a second tenant’s file set is not confirmed', async () => {
      const asset = await newAsset();
      const set = (
        await t.http.post(`${FILES}/assets/${asset.id}/file_sets/`).set(h).send({ name: 's' }).expect(201)
      ).body;
      await newFile(asset.id, { file_set_id: set.id }).expect(201);
      const reader = await createUser(t, { roles: ROLES });
      await grantRead(reader.id, asset.id);
      const hr = bearer((await tokenFor(t, reader)).token);
      expect((await t.http.get(`${FILES}/file_sets/${set.id}/files/`).set(hr).expect(200)).body.total).toBe(
        1,
      );
    });
  });

  describe('PUT and PATCH of a format', () => {
    it('both change the fields given; a reader is 403, another tenant 404, hostile input a 400 that changes nothing', async () => {
      const asset = await newAsset();
      const format = (
        await t.http
          .post(`${FILES}/assets/${asset.id}/formats/`)
          .set(h)
          .send({ name: 'original' })
          .expect(201)
      ).body;
      const path = `${FILES}/assets/${asset.id}/formats/${format.id}/`;
      expect((await t.http.put(path).set(h).send({ name: 'master' }).expect(200)).body).toMatchObject({
        name: 'master',
      });
      expect(
        (
          await t.http
            .patch(path)
            .set(h)
            .send({ storage_methods: ['FILE'] })
            .expect(200)
        ).body,
      ).toMatchObject({
        name: 'master',
        storage_methods: ['FILE'],
      });
      for (const bad of [
        { name: '' },
        { name: 'x'.repeat(201) },
        { metadata: 'nope' },
        { storage_methods: 'FILE' },
      ])
        await t.http.put(path).set(h).send(bad).expect(400);
      const reader = await createUser(t, { roles: ROLES });
      await grantRead(reader.id, asset.id);
      await t.http
        .put(path)
        .set(bearer((await tokenFor(t, reader)).token))
        .send({ name: 'r' })
        .expect(403);
      await t.http.put(path).set(foreign).send({ name: 'f' }).expect(404);
      await t.http.put(path).set(stranger).send({ name: 's' }).expect(404);
      await t.http.put(path).send({ name: 'n' }).expect(401);
      expect((await t.http.get(path).set(h).expect(200)).body).toMatchObject({
        name: 'master',
        storage_methods: ['FILE'],
      });
    });
  });

  describe('GET storages/{purpose}/default/', () => {
    it('answers the purpose’s default storage, as matching/ does; an unknown purpose is a 404', async () => {
      for (const purpose of ['FILES', 'KEYFRAMES']) {
        const d = (await t.http.get(`${FILES}/storages/${purpose}/default/`).set(h).expect(200)).body;
        const m = (await t.http.get(`${FILES}/storages/matching/${purpose}/`).set(h).expect(200)).body;
        expect(d).toEqual(m);
        expect(d).toMatchObject({ purpose, default: true });
      }
      await t.http.get(`${FILES}/storages/NOPE/default/`).set(h).expect(404);
      await t.http.get(`${FILES}/storages/FILES/default/`).set(roleless).expect(403);
      await t.http.get(`${FILES}/storages/FILES/default/`).expect(401);
    });
  });

  describe('keyframes', () => {
    it('carry KeyframeSchema’s fields, and asking again replaces them (the old images removed from the store)', async () => {
      const asset = await newAsset();
      const video = makeVideo(2);
      const f = (await newFile(asset.id, { original_name: 'clip.mp4', size: video.length }).expect(201)).body;
      await t.http
        .put(pathOf(f.upload_url as string))
        .set('Content-Type', 'video/mp4')
        .send(video)
        .expect(200);
      expect((await closeAndExtractKeyframes(t, h, asset.id, f.id)).status).toBe('FINISHED');
      const list = async () =>
        (await t.http.get(`${FILES}/assets/${asset.id}/keyframes/`).set(h).expect(200)).body.objects as {
          id: string;
          url: string;
        }[];
      const first = await list();
      expect(first.length).toBeGreaterThan(0);
      expect(first[0]).toMatchObject({
        type: 'KEYFRAME',
        filename: 'clip_0000.jpg',
        name: 'clip_0000.jpg',
        resolution: { width: 320, height: 240 },
        status: 'CLOSED',
        storage_id: expect.any(String),
        storage_method: 'FILE',
        time_code: { seconds: 0, frames: 0 },
        version_id: f.version_id,
        file_id: f.id,
        url: expect.stringMatching(/^http/),
      });
      const one = `${FILES}/assets/${asset.id}/keyframes/${first[0].id}/`;
      expect((await t.http.get(`${one}?generate_signed_url=true`).set(h).expect(200)).body).toMatchObject({
        id: first[0].id,
        type: 'KEYFRAME',
        url: expect.stringMatching(/^http/),
      });
      for (const who of [foreign, stranger]) await t.http.get(one).set(who).expect(404);
      const other = await newAsset();
      await t.http.get(`${FILES}/assets/${other.id}/keyframes/${first[0].id}/`).set(h).expect(404);
      // asked again: a second job whose images replace the first's
      const { job_id } = (
        await t.http.post(`${FILES}/assets/${asset.id}/files/${f.id}/keyframes/`).set(h).expect(200)
      ).body;
      await waitFor(async () => {
        const j = (await t.http.get(`${JOBS}/${job_id}/`).set(h).expect(200)).body;
        return j.status === 'FINISHED' ? j : undefined;
      });
      const second = await list();
      expect(second.length).toBe(first.length);
      expect(second.map((k) => k.id).filter((id) => first.some((o) => o.id === id))).toEqual([]);
      await download(first[0].url).expect(404);
      expect((await download(second[0].url).expect(200)).body.subarray(0, 2)).toEqual(
        Buffer.from([0xff, 0xd8]),
      );
      // the first images' bytes go once the replacement committed; the second's stay
      const root = t.get(ByteStores).root;
      await waitFor(() => first.every((k) => !filesUnder(root).some((p) => p.includes(k.id))));
      for (const k of second) expect(filesUnder(root).some((p) => p.includes(k.id))).toBe(true);
    });

    it('the keyframe list is the asset’s: other tenants and users without an ACL 404', async () => {
      const asset = await newAsset();
      for (const who of [foreign, stranger])
        await t.http
          .get(`${FILES}/assets/${asset.id}/keyframes/?generate_signed_url=true`)
          .set(who)
          .expect(404);
      await t.http.get(`${FILES}/assets/${asset.id}/keyframes/`).set(roleless).expect(403);
    });
  });
});
