import { randomUUID } from 'node:crypto';
import { AuditEventEntity } from '../../src/base/model/audit-event.entity.js';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { WebhookEventEntity } from '../../src/base/model/webhook-event.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const U = '/API/users/v1';
const DOMAINS = '/API/auth/v1/system_domains';
const SAML = '/API/auth/v1/auth/saml';
const INVITE = `${U}/users/invite`;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0rest')]);
const HTML = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

/**
 * The auth and users services as their published clients call them (issue 38 item 6): the list envelope of
 * saml/multidomain/login/, `Content-Type: image/*` sent literally, invite/validate/?hash=, the published
 * features body with its parameters, `{job_id, status}` of reindex/, `invite_link`, and DELETE …/e2e/.
 */
describe('published clients: auth and users services', () => {
  let t: TestApp;
  let h: Record<string, string>;
  let sa: Record<string, string>;
  let other: SystemDomainEntity;
  let otherAdmin: Record<string, string>;
  const as = async (user: UserEntity, domainId?: string) =>
    bearer((await tokenFor(t, user, domainId ? { domainId } : {})).token);
  const raw = (path: string, headers: Record<string, string>, bytes: Buffer, type = 'image/*') =>
    t.http.post(path).set(headers).set('Content-Type', type).send(bytes);
  const name = (p: string) => `${p}-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    t = await createTestApp();
    h = await as(await createUser(t, { isAdmin: true }));
    sa = await as(t.admin);
    other = await createDomain(t);
    otherAdmin = await as(await createUser(t, { domainId: other.id, isAdmin: true }), other.id);
    for (const eventType of ['users', 'groups']) {
      await t.http
        .post('/API/notifications/v1/webhooks/')
        .set(h)
        .send({ url: `https://hooks.example.com/${eventType}`, event_type: eventType, status: 'ENABLED' })
        .expect(201);
    }
  });
  afterAll(() => t?.close());

  describe('saml/multidomain/login/', () => {
    it('answers the list envelope, also when no domain offers single sign-on; a bad email is a 400', async () => {
      const res = await t.http
        .post(`${SAML}/multidomain/login/`)
        .send({ email: 'x@nowhere.test' })
        .expect(200);
      expect(res.body).toEqual({
        objects: [],
        page: 1,
        pages: 1,
        per_page: 1,
        total: 0,
        first_url: expect.stringMatching(/^\/API\/auth\/v1\/auth\/saml\/multidomain\/login\/?\?/),
        last_url: expect.any(String),
        next_url: null,
        prev_url: null,
      });
      for (const body of [{ email: 'not-an-email' }, { email: ['a@b.test'] }, {}]) {
        await t.http.post(`${SAML}/multidomain/login/`).send(body).expect(400);
      }
    });
  });

  describe('image uploads sent as Content-Type: image/* (the media range, literally)', () => {
    const served = async (path: string, headers: Record<string, string>) =>
      (await t.http.get(path).set(headers).buffer(true).expect(200)) as unknown as {
        body: Buffer;
        headers: Record<string, string>;
      };

    it('user photos: the bytes decide; a non-image is refused and changes nothing; who may, cross-tenant', async () => {
      const me = await createUser(t);
      const mh = await as(me);
      const set = await raw(`${U}/users/current/photo/`, mh, PNG).expect(201);
      expect(set.body.photo).toMatch(new RegExp(`/users/${me.id}/photo/\\?v=[0-9a-f]{12}$`));
      let got = await served(`${U}/users/${me.id}/photo/`, h);
      expect(got.headers['content-type']).toBe('image/png');
      await raw(`${U}/users/${me.id}/photo/`, h, JPEG).expect(201);
      expect((await served(`${U}/users/${me.id}/photo/`, h)).headers['content-type']).toBe('image/jpeg');
      // hostile: HTML, SVG and nothing sent as image/*: 400, the JPEG stays
      for (const body of [HTML, SVG, Buffer.alloc(0)])
        await raw(`${U}/users/current/photo/`, mh, body).expect(400);
      await raw(`${U}/users/current/photo/`, mh, Buffer.concat([PNG, Buffer.alloc(1024 * 1024)])).expect(413);
      got = await served(`${U}/users/${me.id}/photo/`, h);
      expect(Buffer.compare(got.body, JPEG)).toBe(0);
      // no credentials, a member without can_write_users, another domain's administrator
      await raw(`${U}/users/${me.id}/photo/`, {}, PNG).expect(401);
      await raw(`${U}/users/${me.id}/photo/`, await as(await createUser(t)), PNG).expect(403);
      await raw(`${U}/users/${me.id}/photo/`, otherAdmin, PNG).expect(404);
      expect(Buffer.compare((await served(`${U}/users/${me.id}/photo/`, h)).body, JPEG)).toBe(0);
    });

    it('team and group logos: taken as image/*, judged by their bytes; members without the role 403', async () => {
      for (const kind of ['teams', 'groups']) {
        const group = (
          await t.http
            .post(`${U}/${kind}`)
            .set(h)
            .send({ name: name(kind) })
            .expect(201)
        ).body;
        const up = await raw(`${U}/${kind}/${group.id}/logo/`, h, PNG).expect(200);
        expect(up.body.logo).toMatch(new RegExp(`/API/users/v1/${kind}/${group.id}/logo/\\?v=[0-9a-f]{12}$`));
        await raw(`${U}/${kind}/${group.id}/logo/`, h, HTML).expect(400);
        await raw(`${U}/${kind}/${group.id}/logo/`, h, SVG).expect(400);
        await raw(`${U}/${kind}/${group.id}/logo/`, {}, JPEG).expect(401);
        await raw(`${U}/${kind}/${group.id}/logo/`, await as(await createUser(t)), JPEG).expect(403);
        await raw(`${U}/${kind}/${group.id}/logo/`, otherAdmin, JPEG).expect(404);
        const got = await served(`${U}/${kind}/${group.id}/logo/`, h);
        expect(got.headers['content-type']).toBe('image/png');
        expect(Buffer.compare(got.body, PNG)).toBe(0);
      }
    });

    it('domain logos: taken as image/* from the domain’s administrator; a non-image changes nothing', async () => {
      const d = await createDomain(t);
      const admin = await as(await createUser(t, { domainId: d.id, isAdmin: true }), d.id);
      const up = await raw(`${DOMAINS}/${d.id}/logo/`, admin, JPEG).expect(201);
      expect(up.body.logo).toEqual(expect.stringContaining(`/API/auth/v1/system_domains/${d.id}/logo/`));
      await raw(`${DOMAINS}/${d.id}/logo/`, admin, HTML).expect(400);
      await raw(`${DOMAINS}/${d.id}/logo/`, {}, PNG).expect(401);
      await raw(
        `${DOMAINS}/${d.id}/logo/`,
        await as(await createUser(t, { domainId: d.id }), d.id),
        PNG,
      ).expect(403);
      await raw(`${DOMAINS}/${d.id}/logo/`, otherAdmin, PNG).expect(404);
      const got = await served(`${DOMAINS}/${d.id}/logo/`, {});
      expect(got.headers['content-type']).toBe('image/jpeg');
      expect(Buffer.compare(got.body, JPEG)).toBe(0);
    });
  });

  describe('invitation links: invite_link, and invite/validate/ with the query parameter hash', () => {
    let group: { id: string };
    beforeAll(async () => {
      group = (
        await t.http
          .post(`${U}/groups`)
          .set(h)
          .send({ name: name('invited') })
          .expect(201)
      ).body;
    });

    it('token/request answers invite_link (the page the invitee follows); its hash validates the link', async () => {
      const link = await t.http
        .post(`${INVITE}/token/request/`)
        .set(h)
        .send({ primary_group: group.id })
        .expect(200);
      expect(link.body.invite_link).toBe(
        `${t.config.http.publicBaseUrl}/invitation/register?hash=${encodeURIComponent(link.body.token)}`,
      );
      const hash = new URL(link.body.invite_link).searchParams.get('hash')!;
      const byQuery = await t.http.post(`${INVITE}/validate/?hash=${encodeURIComponent(hash)}`).expect(200);
      expect(byQuery.body).toMatchObject({ valid: true, kind: 'link', system_domain_id: t.domainId });
      const byBody = await t.http.post(`${INVITE}/validate/`).send({ token: hash }).expect(200);
      expect(byBody.body).toEqual(byQuery.body);
      // both, naming the same token, pass
      await t.http
        .post(`${INVITE}/validate/?hash=${encodeURIComponent(hash)}`)
        .send({ token: hash })
        .expect(200);
    });

    it('validate: hostile or contradictory input is a 400, an unknown hash a 404', async () => {
      const { token } = (
        await t.http.post(`${INVITE}/token/request/`).set(h).send({ primary_group: group.id }).expect(200)
      ).body;
      const q = encodeURIComponent(token);
      await t.http
        .post(`${INVITE}/validate/?hash=${q}`)
        .send({ token: `${token}x` })
        .expect(400);
      await t.http.post(`${INVITE}/validate/`).send({}).expect(400);
      await t.http.post(`${INVITE}/validate/?hash=${q}&hash=${q}`).expect(400);
      await t.http.post(`${INVITE}/validate/?hash=${'a'.repeat(201)}`).expect(400);
      await t.http.post(`${INVITE}/validate/?hash[$ne]=x`).expect(400);
      await t.http.post(`${INVITE}/validate/?hash=${randomUUID()}`).expect(404);
      // the link still works after all that
      await t.http.post(`${INVITE}/validate/?hash=${q}`).expect(200);
    });

    it('only a user writer of the domain gets a link: others 401/403, another domain’s group 404', async () => {
      await t.http.post(`${INVITE}/token/request/`).send({ primary_group: group.id }).expect(401);
      const member = await t.http
        .post(`${INVITE}/token/request/`)
        .set(await as(await createUser(t, { roles: ['can_read_users'] })))
        .send({ primary_group: group.id })
        .expect(403);
      expect(member.body.invite_link).toBeUndefined();
      expect(member.body.token).toBeUndefined();
      const writer = await as(await createUser(t, { roles: ['can_read_users', 'can_write_users'] }));
      // escalation: an administrator's link needs an administrator
      const admin = await t.http
        .post(`${INVITE}/token/request/`)
        .set(writer)
        .send({ primary_group: group.id, is_admin: true })
        .expect(403);
      expect(admin.body.invite_link).toBeUndefined();
      const cross = await t.http
        .post(`${INVITE}/token/request/`)
        .set(otherAdmin)
        .send({ primary_group: group.id })
        .expect(404);
      expect(cross.body.invite_link).toBeUndefined();
    });
  });

  describe('reindex/ answers {job_id, status}', () => {
    it('users and groups: job_id is the request the webhook event hands the indexer; who may, cross-tenant', async () => {
      const target = await createUser(t);
      const group = (
        await t.http
          .post(`${U}/groups`)
          .set(h)
          .send({ name: name('r') })
          .expect(201)
      ).body;
      for (const [path, objectId] of [
        [`${U}/users/${target.id}/reindex/`, target.id],
        [`${U}/groups/${group.id}/reindex/`, group.id],
      ]) {
        const res = await t.http.post(path).set(h).expect(201);
        expect(res.body).toMatchObject({ job_id: res.body.id, status: 'READY' });
        expect(res.body.job_id).toMatch(/^[0-9a-f-]{36}$/);
        const events = await t.ds
          .getRepository(WebhookEventEntity)
          .findBy({ object_id: objectId, operation: 'reindex' });
        expect(events.map((e) => e.data.job_id)).toContain(res.body.job_id);
        await t.http.post(path).expect(401);
        await t.http
          .post(path)
          .set(await as(await createUser(t)))
          .expect(403);
        await t.http.post(path).set(otherAdmin).expect(404);
      }
    });
  });

  describe('POST system_domains/{id}/features/ with the published body', () => {
    const features = (id: string, headers = sa) => t.http.post(`${DOMAINS}/${id}/features/`).set(headers);

    it('upper-case names are the lower-case features; parameters are kept and read back; PUT keeps them', async () => {
      const d = await createDomain(t);
      const parameters = { panel: { position: 'left', widths: [1, 2] }, enabled: true };
      const res = await features(d.id)
        .send({ config: { feature: 'WM_PUBLISH_PANEL', parameters } })
        .expect(201);
      expect(res.body).toEqual({
        features: ['wm_publish_panel'],
        parameters: { wm_publish_panel: parameters },
      });
      // the lower-case name is the same feature; a feature without parameters has none
      await features(d.id)
        .send({ config: { feature: 'wm_publish_panel', parameters } })
        .expect(201);
      await features(d.id)
        .send({ config: { feature: 'shield' } })
        .expect(201);
      const admin = await as(await createUser(t, { domainId: d.id, isAdmin: true }), d.id);
      const read = await t.http.get(`${DOMAINS}/${d.id}/features/`).set(admin).expect(200);
      expect(read.body).toEqual({
        features: ['wm_publish_panel', 'shield'],
        parameters: { wm_publish_panel: parameters },
      });
      // parameters sent again replace the feature's; none removes them
      await features(d.id)
        .send({ config: { feature: 'Shield', parameters: { level: 2 } } })
        .expect(201);
      const put = await t.http
        .put(`${DOMAINS}/${d.id}/features/`)
        .set(sa)
        .send({ features: ['shield'] })
        .expect(200);
      expect(put.body).toEqual({ features: ['shield'], parameters: { shield: { level: 2 } } });
      await features(d.id)
        .send({ config: { feature: 'SHIELD', parameters: {} } })
        .expect(201);
      expect((await t.http.get(`${DOMAINS}/${d.id}/features/`).set(sa).expect(200)).body).toEqual({
        features: ['shield'],
        parameters: {},
      });
      expect((await t.http.get(`${DOMAINS}/${d.id}/`).set(sa).expect(200)).body.features).toEqual(['shield']);
    });

    it('hostile input is a 400 that changes nothing; only super administrators write; others’ domains 404', async () => {
      const d = await createDomain(t);
      await features(d.id)
        .send({ config: { feature: 'KEEP', parameters: { a: 1 } } })
        .expect(201);
      const before = (await t.http.get(`${DOMAINS}/${d.id}/features/`).set(sa).expect(200)).body;
      let deep: Record<string, unknown> = { leaf: 1 };
      for (let i = 0; i < 6; i++) deep = { d: deep };
      for (const config of [
        { feature: 'BIG', parameters: { blob: 'x'.repeat(5000) } },
        { feature: 'DEEP', parameters: deep },
        { feature: 'LIST', parameters: [1, 2] },
        { feature: 'STR', parameters: 'on' },
        { feature: 'bad name!', parameters: {} },
        { feature: '', parameters: {} },
        { feature: 'X'.repeat(65) },
        { feature: ['A'] },
        { feature: 'K\u0130ND' },
      ]) {
        await features(d.id).send({ config }).expect(400);
      }
      await features(d.id).send({ config: 'WM_PUBLISH_PANEL' }).expect(400);
      await features(d.id).send({}).expect(400);
      expect((await t.http.get(`${DOMAINS}/${d.id}/features/`).set(sa).expect(200)).body).toEqual(before);
      // who may: super administrators only; the domain's own administrator reads but does not write
      const admin = await as(await createUser(t, { domainId: d.id, isAdmin: true }), d.id);
      await features(d.id, admin)
        .send({ config: { feature: 'MINE' } })
        .expect(403);
      await features(d.id, {})
        .send({ config: { feature: 'MINE' } })
        .expect(401);
      await t.http.get(`${DOMAINS}/${d.id}/features/`).set(otherAdmin).expect(404);
      await features(randomUUID())
        .send({ config: { feature: 'MINE' } })
        .expect(404);
      expect((await t.http.get(`${DOMAINS}/${d.id}/features/`).set(sa).expect(200)).body).toEqual(before);
    });
  });

  describe('DELETE system_domains/{id}/e2e/', () => {
    const audits = (id: string) =>
      t.ds.getRepository(AuditEventEntity).findBy({ action: 'domain.changed', target_id: id });

    it('removes a domain created as an end-to-end test domain, audited; super administrators only', async () => {
      const created = await t.http
        .post(`${DOMAINS}/`)
        .set(sa)
        .send({ name: name('e2e'), base_url: 'https://e2e.example.test', is_e2e: true })
        .expect(201);
      expect(created.body.is_e2e).toBe(true);
      const id = created.body.id as string;
      const member = await createUser(t, { domainId: id, isAdmin: true });
      const admin = await as(member, id);
      await t.http.delete(`${DOMAINS}/${id}/e2e/`).set(admin).expect(403);
      await t.http.delete(`${DOMAINS}/${id}/e2e/`).expect(401);
      await t.http.delete(`${DOMAINS}/${id}/e2e/`).set(otherAdmin).expect(403);
      await t.http.get(`${DOMAINS}/${id}/`).set(sa).expect(200);
      await t.http.delete(`${DOMAINS}/${id}/e2e/`).set(sa).expect(204);
      await t.http.get(`${DOMAINS}/${id}/`).set(sa).expect(404);
      await t.http.delete(`${DOMAINS}/${id}/e2e/`).set(sa).expect(404);
      expect(await t.ds.getRepository(SystemDomainEntity).existsBy({ id })).toBe(false);
      expect((await audits(id)).map((a) => a.details)).toContainEqual({ operation: 'delete', e2e: true });
    });

    it('a normal domain is not deleted through it (409, nothing changes), even after a PUT/PATCH of is_e2e', async () => {
      const d = await createDomain(t);
      const patched = await t.http.patch(`${DOMAINS}/${d.id}/`).set(sa).send({ is_e2e: true }).expect(200);
      expect(patched.body.is_e2e).toBe(false);
      await t.http
        .put(`${DOMAINS}/${d.id}/`)
        .set(sa)
        .send({ name: d.name, base_url: d.base_url, is_e2e: true })
        .expect(200);
      await t.http.delete(`${DOMAINS}/${d.id}/e2e/`).set(sa).expect(409);
      await t.http.delete(`${DOMAINS}/${t.domainId}/e2e/`).set(sa).expect(400);
      await t.http.delete(`${DOMAINS}/not-a-uuid/e2e/`).set(sa).expect(404);
      await t.http.delete(`${DOMAINS}/${randomUUID()}/e2e/`).set(sa).expect(404);
      expect((await t.http.get(`${DOMAINS}/${d.id}/`).set(sa).expect(200)).body.is_e2e).toBe(false);
      expect((await audits(d.id)).map((a) => a.details)).not.toContainEqual(
        expect.objectContaining({ e2e: true }),
      );
    });
  });
});
