import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { FILES, JOBS, pathOf } from '../utils/files.js';

const ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];

/** Issue 20: the asset's ACL governs its formats, file sets and files, across users and domains. */
describe('files: the asset’s ACL', () => {
  let t: TestApp;
  let h: Record<string, string>;

  const newFile = async (size: number) => {
    const asset = (await t.http.post('/API/assets/v1/assets/').set(h).send({ title: 'acl' }).expect(201))
      .body;
    const file = (
      await t.http
        .post(`${FILES}/assets/${asset.id}/files/`)
        .set(h)
        .send({ original_name: 'a.bin', directory_path: '', size, type: 'FILE' })
        .expect(201)
    ).body;
    return { asset, file, url: pathOf(file.upload_url as string) };
  };

  beforeAll(async () => {
    t = await createTestApp();
    h = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
  });
  afterAll(() => t.close());

  it('another domain’s user, and a user without an ACL entry, see nothing: 404', async () => {
    const { asset, file } = await newFile(3);
    const domain = await createDomain(t);
    const foreign = bearer(
      (await tokenFor(t, await createUser(t, { domainId: domain.id, roles: ROLES }))).token,
    );
    const stranger = bearer((await tokenFor(t, await createUser(t, { roles: ROLES }))).token);
    for (const who of [foreign, stranger]) {
      await t.http.get(`${FILES}/assets/${asset.id}/files/`).set(who).expect(404);
      await t.http.get(`${FILES}/assets/${asset.id}/files/${file.id}/`).set(who).expect(404);
      await t.http.get(`${FILES}/assets/${asset.id}/files/${file.id}/download/`).set(who).expect(404);
      await t.http
        .patch(`${FILES}/assets/${asset.id}/files/${file.id}/`)
        .set(who)
        .send({ status: 'CLOSED' })
        .expect(404);
      await t.http.post(`${FILES}/assets/${asset.id}/formats/`).set(who).send({ name: 'x' }).expect(404);
      await t.http
        .post(`${JOBS}/`)
        .set(who)
        .send({ type: 'TRANSFER', object_type: 'files', object_id: file.id })
        .expect(404);
    }
  });

  it('read without write: reads pass, changes are 403', async () => {
    const { asset, file } = await newFile(3);
    const reader = await createUser(t, { roles: ROLES });
    await t.http
      .put(`/API/acls/v1/users/${reader.id}/acl/assets/${asset.id}/`)
      .set(h)
      .send({ permissions: ['read'] })
      .expect((r) => expect([200, 201]).toContain(r.status));
    const hr = bearer((await tokenFor(t, reader)).token);
    await t.http.get(`${FILES}/assets/${asset.id}/files/${file.id}/`).set(hr).expect(200);
    await t.http
      .patch(`${FILES}/assets/${asset.id}/files/${file.id}/`)
      .set(hr)
      .send({ progress_processed: 5 })
      .expect(403);
    await t.http.delete(`${FILES}/assets/${asset.id}/files/${file.id}/`).set(hr).expect(403);
    await t.http.post(`${FILES}/assets/${asset.id}/file_sets/`).set(hr).send({ name: 's' }).expect(403);
  });

  it('a file id under another asset is not found', async () => {
    const a = await newFile(3);
    const b = await newFile(3);
    await t.http.get(`${FILES}/assets/${a.asset.id}/files/${b.file.id}/`).set(h).expect(404);
    await t.http
      .patch(`${FILES}/assets/${a.asset.id}/files/${b.file.id}/`)
      .set(h)
      .send({ status: 'CLOSED' })
      .expect(404);
  });
});
