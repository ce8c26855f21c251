import { randomUUID } from 'node:crypto';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { FILES } from '../utils/files.js';

const APPS = '/API/auth/v1/apps';
const TOKEN = '/API/auth/v1/oauth/token/';
const STORAGES = `${FILES}/storages`;

/**
 * Regressions of the security issue's item 4 (LOW), each replayed over HTTP as it was reported: an app whose
 * acting user outranks the caller is not the caller's to change, an S3 storage names only a bucket the
 * deployment allows, and file names and directories refuse the characters email addresses refuse.
 */
describe('security issue item 4 (LOW)', () => {
  let t: TestApp;
  let root: UserEntity;
  let rootH: Record<string, string>;
  let adminH: Record<string, string>;
  let admin: UserEntity;

  beforeAll(async () => {
    t = await createTestApp({ S3_ALLOWED_BUCKETS: 'tenant-media, shared-media' });
    root = await createUser(t, { isSuperAdmin: true, isAdmin: true });
    rootH = bearer((await tokenFor(t, root)).token);
    admin = await createUser(t, { isAdmin: true });
    adminH = bearer((await tokenFor(t, admin)).token);
  });
  afterAll(() => t.close());

  describe('1. an app whose acting user outranks the caller is not the caller’s to change', () => {
    let app: { id: string; client_secret: string; redirect_uris: string[] };

    const clientCredentials = (secret: string) =>
      t.http
        .post(TOKEN)
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: app.id, client_secret: secret });
    const outranked = (res: { status: number; headers: Record<string, string>; body: unknown }) => {
      expect(res.status).toBe(403);
      expect(res.headers['x-error-code']).toBe('apps.ACTING_USER_OUTRANKS_CALLER');
      expect(res.body).toEqual({ errors: [expect.stringMatching(/rights you do not hold \(super admin/)] });
    };

    beforeAll(async () => {
      const res = await t.http
        .post(`${APPS}/`)
        .set(rootH)
        .send({
          name: 'Nightly export',
          type: 'OAUTH',
          oauth_client_type: 'confidential',
          default_user_id: root.id,
          redirect_uris: ['https://export.example/cb'],
        })
        .expect(201);
      app = res.body;
    });

    it('as reported: turning the super administrator’s backend app public with the caller’s own redirect URI is a 403, nothing changed', async () => {
      const attack = { oauth_client_type: 'public', redirect_uris: ['https://attacker.example/cb'] };
      outranked(await t.http.patch(`${APPS}/${app.id}/`).set(adminH).send(attack));
      outranked(
        await t.http
          .put(`${APPS}/${app.id}/`)
          .set(adminH)
          .send({ name: 'Nightly export', ...attack }),
      );
      const seen = (await t.http.get(`${APPS}/${app.id}/`).set(rootH).expect(200)).body;
      expect(seen).toMatchObject({
        name: 'Nightly export',
        oauth_client_type: 'confidential',
        redirect_uris: ['https://export.example/cb'],
      });
      await clientCredentials(app.client_secret).expect(200);
    });

    it('every other change is refused too: fields, acting user, deletion, secret rotation', async () => {
      for (const body of [
        { redirect_uris: ['https://attacker.example/cb'] },
        { name: 'Renamed', url: 'https://attacker.example/' },
        { allowed_scopes: [] },
        { default_user_id: admin.id },
        { default_user_id: null },
      ]) {
        outranked(await t.http.patch(`${APPS}/${app.id}/`).set(adminH).send(body));
      }
      outranked(await t.http.delete(`${APPS}/${app.id}/`).set(adminH));
      const rotated = await t.http.post(`${APPS}/${app.id}/secret/`).set(adminH);
      outranked(rotated);
      expect(rotated.body.client_secret).toBeUndefined();
      const seen = (await t.http.get(`${APPS}/${app.id}/`).set(rootH).expect(200)).body;
      expect(seen).toMatchObject({ name: 'Nightly export', default_user_id: root.id });
      await clientCredentials(app.client_secret).expect(200);
    });

    it('an app acting as an administrator of another domain, or as a domain administrator changed by a role holder, is refused as well', async () => {
      const other = await createDomain(t);
      const bridge = await createUser(t, { domainId: other.id, isAdmin: true });
      await t.ds
        .getRepository(UserSystemDomainEntity)
        .insert({ user_id: bridge.id, system_domain_id: t.domainId });
      const bridged = (
        await t.http.post(`${APPS}/`).set(rootH).send({ name: 'b', type: 'PAT', default_user_id: bridge.id })
      ).body as { id: string };
      const res = await t.http.patch(`${APPS}/${bridged.id}/`).set(adminH).send({ name: 'x' });
      expect(res.status).toBe(403);
      expect(res.headers['x-error-code']).toBe('apps.ACTING_USER_OUTRANKS_CALLER');
      expect(res.body.errors[0]).toMatch(/administrator of another domain/);
      // a user with can_write_apps and an app acting as a domain administrator
      const writer = bearer(
        (
          await tokenFor(
            t,
            await createUser(t, { roles: ['can_read_apps', 'can_write_apps', 'can_delete_apps'] }),
          )
        ).token,
      );
      const adminApp = (
        await t.http.post(`${APPS}/`).set(adminH).send({ name: 'a', type: 'PAT', default_user_id: admin.id })
      ).body as { id: string };
      const byWriter = await t.http.patch(`${APPS}/${adminApp.id}/`).set(writer).send({ name: 'x' });
      expect(byWriter.status).toBe(403);
      expect(byWriter.headers['x-error-code']).toBe('apps.ACTING_USER_OUTRANKS_CALLER');
      expect((await t.http.delete(`${APPS}/${adminApp.id}/`).set(writer)).status).toBe(403);
    });

    it('apps within the caller’s rights stay the caller’s to change, and the super administrator’s stay theirs', async () => {
      const plain = await createUser(t);
      for (const acting of [null, admin.id, plain.id]) {
        const own = (
          await t.http
            .post(`${APPS}/`)
            .set(adminH)
            .send({ name: 'own', type: 'PAT', default_user_id: acting })
            .expect(201)
        ).body as { id: string };
        await t.http.patch(`${APPS}/${own.id}/`).set(adminH).send({ name: 'renamed' }).expect(200);
        await t.http.delete(`${APPS}/${own.id}/`).set(adminH).expect(204);
      }
      await t.http
        .patch(`${APPS}/${app.id}/`)
        .set(rootH)
        .send({ redirect_uris: ['https://export.example/cb2'] })
        .expect(200);
    });
  });

  describe('2. an S3 storage names only a bucket of S3_ALLOWED_BUCKETS, unless a super administrator sets it', () => {
    const s3 = (bucket?: string) => ({
      name: `s3-${randomUUID().slice(0, 8)}`,
      method: 'S3',
      purpose: 'ARCHIVE',
      settings: bucket === undefined ? { prefix: 'p/' } : { bucket, prefix: 'p/' },
    });
    const names = async () =>
      (
        (await t.http.get(`${STORAGES}/?per_page=100`).set(rootH).expect(200)).body.objects as {
          name: string;
        }[]
      ).map((s) => s.name);

    it('as reported: a domain administrator naming another bucket is a 403, and no storage is made', async () => {
      const body = s3('deployment-backups');
      const res = await t.http.post(`${STORAGES}/`).set(adminH).send(body);
      expect(res.status).toBe(403);
      expect(res.headers['x-error-code']).toBe('files.BUCKET_NOT_ALLOWED');
      expect(res.body).toEqual({ errors: [expect.stringMatching(/S3_ALLOWED_BUCKETS/)] });
      expect(await names()).not.toContain(body.name);
    });

    it('nor can they move a storage to another bucket; a listed bucket, or none (the deployment’s), is theirs to name', async () => {
      const mine = (await t.http.post(`${STORAGES}/`).set(adminH).send(s3('tenant-media')).expect(201)).body;
      expect(mine.settings).toEqual({ bucket: 'tenant-media', prefix: 'p/' });
      const moved = await t.http
        .patch(`${STORAGES}/${mine.id}/`)
        .set(adminH)
        .send({ settings: { bucket: 'deployment-backups', prefix: '' } });
      expect(moved.status).toBe(403);
      expect(moved.headers['x-error-code']).toBe('files.BUCKET_NOT_ALLOWED');
      expect((await t.http.get(`${STORAGES}/${mine.id}/`).set(adminH).expect(200)).body.settings).toEqual({
        bucket: 'tenant-media',
        prefix: 'p/',
      });
      await t.http
        .patch(`${STORAGES}/${mine.id}/`)
        .set(adminH)
        .send({ settings: { bucket: 'shared-media' } })
        .expect(200);
      await t.http.post(`${STORAGES}/`).set(adminH).send(s3()).expect(201);
      // a malformed bucket is still a 400 first
      expect((await t.http.post(`${STORAGES}/`).set(adminH).send(s3('../x'))).status).toBe(400);
    });

    it('a super administrator names any bucket; the domain administrator cannot change the prefix under it', async () => {
      const theirs = (await t.http.post(`${STORAGES}/`).set(rootH).send(s3('deployment-backups')).expect(201))
        .body;
      await t.http
        .patch(`${STORAGES}/${theirs.id}/`)
        .set(rootH)
        .send({ settings: { bucket: 'another-bucket' } })
        .expect(200);
      const res = await t.http
        .patch(`${STORAGES}/${theirs.id}/`)
        .set(adminH)
        .send({ settings: { bucket: 'another-bucket', prefix: 'other-tenant/' } });
      expect(res.status).toBe(403);
      // other fields stay the domain administrator's
      await t.http.patch(`${STORAGES}/${theirs.id}/`).set(adminH).send({ name: 'Archive' }).expect(200);
    });

    it('with no S3_ALLOWED_BUCKETS only a super administrator names a bucket', async () => {
      const bare = await createTestApp();
      try {
        const su = bearer(
          (await tokenFor(bare, await createUser(bare, { isSuperAdmin: true, isAdmin: true }))).token,
        );
        const da = bearer((await tokenFor(bare, await createUser(bare, { isAdmin: true }))).token);
        const res = await bare.http.post(`${STORAGES}/`).set(da).send(s3('tenant-media'));
        expect(res.status).toBe(403);
        expect(res.headers['x-error-code']).toBe('files.BUCKET_NOT_ALLOWED');
        await bare.http.post(`${STORAGES}/`).set(su).send(s3('tenant-media')).expect(201);
      } finally {
        await bare.close();
      }
    });
  });

  describe('3. file names and directories refuse invisible and text-direction characters (the email rule)', () => {
    let asset: { id: string };
    let h: Record<string, string>;

    beforeAll(async () => {
      const roles = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];
      h = bearer((await tokenFor(t, await createUser(t, { roles }))).token);
      asset = (await t.http.post('/API/assets/v1/assets/').set(h).send({ title: 'names' }).expect(201)).body;
    });

    const file = (original_name: string, directory_path = '') =>
      t.http
        .post(`${FILES}/assets/${asset.id}/files/`)
        .set(h)
        .send({ original_name, directory_path, size: 1, type: 'FILE' });
    const refused = (res: { status: number; body: { errors: Record<string, string> } }, field: string) => {
      expect(res.status).toBe(400);
      expect(res.body.errors[field]).toMatch(/invisible or text-direction/);
    };

    it('as reported: ok\\u202Egnp.exe (shown as okexe.png) is a 400, and no file is made', async () => {
      refused(await file('ok\u202Egnp.exe'), 'original_name');
      const files = (await t.http.get(`${FILES}/assets/${asset.id}/files/`).set(h).expect(200)).body;
      expect(files.total).toBe(0);
    });

    it.each([
      ['zero-width space', 'in\u200Bvoice.pdf'],
      ['right-to-left mark', 'report\u200F.pdf'],
      ['isolate', '\u2066x.png'],
      ['BOM', '\uFEFFname.txt'],
      ['soft hyphen', 'pass\u00ADwords.txt'],
    ])('a %s in a name or a directory is a 400', async (_what, bad) => {
      refused(await file(bad), 'original_name');
      refused(await file('ok.png', `clips/${bad}`), 'directory_path');
    });

    it('file sets: the name and base directory on create and on PATCH', async () => {
      const sets = `${FILES}/assets/${asset.id}/file_sets`;
      refused(await t.http.post(`${sets}/`).set(h).send({ name: 'clip\u202E4pm.exe' }), 'name');
      refused(
        await t.http.post(`${sets}/`).set(h).send({ name: 'clip.mp4', base_dir: 'a/\u200Db' }),
        'base_dir',
      );
      const set = (
        await t.http.post(`${sets}/`).set(h).send({ name: 'clip.mp4', base_dir: 'a/b' }).expect(201)
      ).body;
      refused(await t.http.patch(`${sets}/${set.id}/`).set(h).send({ name: 'clip\u202E4pm.exe' }), 'name');
      refused(await t.http.patch(`${sets}/${set.id}/`).set(h).send({ base_dir: '\u2067x' }), 'base_dir');
      const seen = (await t.http.get(`${sets}/${set.id}/`).set(h).expect(200)).body;
      expect(seen).toMatchObject({ name: 'clip.mp4', base_dir: 'a/b' });
    });

    it('names in any script pass', async () => {
      for (const name of ['résumé.pdf', 'фото.jpg', '写真.png', 'تقرير.pdf']) {
        expect((await file(name, 'clips/2026')).status).toBe(201);
      }
    });
  });
});
