import { WIRE_DATE_PATTERN } from '../../src/base/common/http/wire-date.js';
import { randomUUID } from 'node:crypto';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { GroupMemberEntity } from '../../src/base/model/group-member.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const ASSETS = '/API/assets/v1/assets';
const ACLS = '/API/acls/v1';
const ALL = ['read', 'write', 'delete', 'change-acl'];
const ASSET_ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];

/** Issue 24: assets, their soft deletion, and their entity ACLs (per user and per group). */
describe('assets and their ACLs', () => {
  let t: TestApp;
  let owner: UserEntity;
  let ho: Record<string, string>;
  let other: UserEntity;
  let hx: Record<string, string>;
  let third: UserEntity;
  let h3: Record<string, string>;
  let admin: Record<string, string>;

  const create = async (headers: Record<string, string>, title = `asset ${randomUUID().slice(0, 8)}`) =>
    (await t.http.post(`${ASSETS}/`).set(headers).send({ title }).expect(201)).body as {
      id: string;
      title: string;
    };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t, { roles: ASSET_ROLES });
    other = await createUser(t, { roles: ASSET_ROLES });
    third = await createUser(t, { roles: ASSET_ROLES });
    ho = bearer((await tokenFor(t, owner)).token);
    hx = bearer((await tokenFor(t, other)).token);
    h3 = bearer((await tokenFor(t, third)).token);
    admin = bearer((await tokenFor(t, await createUser(t, { isAdmin: true }))).token);
  });
  afterAll(() => t.close());

  describe('the asset itself', () => {
    it('create: 201 with the first version, the creator, the domain and every permission', async () => {
      const res = await t.http
        .post(ASSETS) // without the trailing slash too
        .set(ho)
        .send({ title: 'Sunset over the harbour', external_id: 'ext-1', is_online: true })
        .expect(201);
      expect(res.body).toMatchObject({
        id: expect.any(String),
        title: 'Sunset over the harbour',
        type: 'ASSET',
        status: 'ACTIVE',
        analyze_status: 'N/A',
        archive_status: 'NOT_ARCHIVED',
        external_id: 'ext-1',
        is_online: true,
        object_type: 'assets',
        created_by_user: owner.id,
        system_domain_id: t.domainId,
        date_deleted: null,
        deleted_by_user: null,
        permissions: ALL,
        versions_number: 1,
      });
      expect(res.body.date_created).toMatch(WIRE_DATE_PATTERN);
      expect(res.body.versions).toEqual([
        expect.objectContaining({ id: expect.any(String), created_by_user: owner.id, status: 'ACTIVE' }),
      ]);
    });

    it('title is required; unknown enum values are a 400', async () => {
      const res = await t.http.post(`${ASSETS}/`).set(ho).send({}).expect(400);
      expect(res.body.errors).toHaveProperty('title');
      await t.http.post(`${ASSETS}/`).set(ho).send({ title: 'x', type: 'NOPE' }).expect(400);
      await t.http.post(`${ASSETS}/`).set(ho).send({ title: 'x', status: 'DELETED' }).expect(400);
    });

    it('get, PATCH and PUT answer 200; the list is page style with facets', async () => {
      const a = await create(ho, 'Editable');
      await t.http.get(`${ASSETS}/${a.id}`).set(ho).expect(200);
      const patched = await t.http.patch(`${ASSETS}/${a.id}/`).set(ho).send({ title: 'Edited' }).expect(200);
      expect(patched.body.title).toBe('Edited');
      const put = await t.http.put(`${ASSETS}/${a.id}`).set(ho).send({ type: 'CUSTOM' }).expect(200);
      expect(put.body).toMatchObject({ title: 'Edited', type: 'CUSTOM' });
      const list = await t.http.get(`${ASSETS}/?per_page=100&query=edit`).set(ho).expect(200);
      expect(list.body).toMatchObject({ page: 1, per_page: 100, total: 1 });
      expect(list.body.objects.map((o: { id: string }) => o.id)).toEqual([a.id]);
      expect(list.body.facets.type.buckets).toEqual([{ key: 'CUSTOM', doc_count: 1 }]);
      expect(list.body.first_url).toMatch(/^\/API\/assets\/v1\/assets/);
    });

    it('DELETE is soft: 204, then 404 to reads, writes and the list', async () => {
      const a = await create(ho, 'Doomed');
      await t.http.delete(`${ASSETS}/${a.id}`).set(ho).expect(204);
      const gone = await t.http.get(`${ASSETS}/${a.id}/`).set(ho).expect(404);
      expect(gone.body).toEqual({ errors: ['Asset not found'] });
      await t.http.patch(`${ASSETS}/${a.id}/`).set(ho).send({ title: 'back' }).expect(404);
      await t.http.delete(`${ASSETS}/${a.id}/`).set(ho).expect(404);
      const list = await t.http.get(`${ASSETS}/?per_page=1000`).set(admin).expect(200);
      expect(list.body.objects.map((o: { id: string }) => o.id)).not.toContain(a.id);
      const [row] = await t.ds.query(
        'SELECT date_deleted, deleted_by_user, status FROM assets WHERE id = $1',
        [a.id],
      );
      expect(row).toMatchObject({ deleted_by_user: owner.id, status: 'DELETED' });
      expect(row.date_deleted).not.toBeNull();
    });

    it('a malformed or unknown id is a 404', async () => {
      await t.http.get(`${ASSETS}/not-a-uuid/`).set(ho).expect(404);
      await t.http.get(`${ASSETS}/${randomUUID()}/`).set(ho).expect(404);
    });
  });

  describe('ACLs', () => {
    it('a user without read sees neither the asset nor its list entry nor its facet count', async () => {
      const a = await create(ho, 'Private');
      await t.http.get(`${ASSETS}/${a.id}/`).set(hx).expect(404);
      await t.http.patch(`${ASSETS}/${a.id}/`).set(hx).send({ title: 'mine' }).expect(404);
      await t.http.delete(`${ASSETS}/${a.id}/`).set(hx).expect(404);
      await t.http.get(`${ACLS}/acl/assets/${a.id}/`).set(hx).expect(404);
      const list = await t.http.get(`${ASSETS}/?per_page=1000`).set(hx).expect(200);
      expect(list.body.total).toBe(0);
      expect(list.body.facets.type.buckets).toEqual([]);
      // the administrator of the domain sees everything
      await t.http.get(`${ASSETS}/${a.id}/`).set(admin).expect(200);
    });

    it('read only: GET works, PATCH, DELETE and ACL changes are 403', async () => {
      const a = await create(ho, 'Shared');
      const put = await t.http
        .put(`${ACLS}/users/${other.id}/acl/assets/${a.id}/`)
        .set(ho)
        .send({ permissions: ['read'] })
        .expect(201);
      expect(put.body).toMatchObject({
        user_id: other.id,
        object_type: 'assets',
        object_key: a.id,
        permissions: ['read'],
      });
      const got = await t.http.get(`${ASSETS}/${a.id}/`).set(hx).expect(200);
      expect(got.body.permissions).toEqual(['read']);
      const denied = await t.http.patch(`${ASSETS}/${a.id}/`).set(hx).send({ title: 'mine' }).expect(403);
      expect(denied.body).toEqual({ errors: ['You do not have the write permission on this asset'] });
      await t.http.delete(`${ASSETS}/${a.id}/`).set(hx).expect(403);
      // a read-only user cannot change ACLs, their own included
      await t.http
        .put(`${ACLS}/users/${other.id}/acl/assets/${a.id}/`)
        .set(hx)
        .send({ permissions: ['read', 'write', 'change-acl'] })
        .expect(403);
      await t.http.delete(`${ACLS}/users/${owner.id}/acl/assets/${a.id}/`).set(hx).expect(403);
      const mine = await t.http.get(`${ACLS}/acl/assets/${a.id}/permissions/`).set(hx).expect(200);
      expect(mine.body).toEqual({ permissions: ['read'] });
      const whole = await t.http.get(`${ACLS}/acl/assets/${a.id}`).set(hx).expect(200);
      expect(whole.body.users_acl).toEqual(
        expect.arrayContaining([
          { user_id: owner.id, permissions: ALL },
          { user_id: other.id, permissions: ['read'] },
        ]),
      );
      expect(whole.body.groups_acl).toEqual([]);
      // updating the entry answers 200
      await t.http
        .put(`${ACLS}/users/${other.id}/acl/assets/${a.id}`)
        .set(ho)
        .send({ permissions: ['read', 'write'] })
        .expect(200);
      await t.http.patch(`${ASSETS}/${a.id}/`).set(hx).send({ title: 'now mine too' }).expect(200);
    });

    // what a holder of change-acl may grant, change or remove (no escalation): AclsService's unit spec
    it('a holder of change-acl passes on what they hold: PUT 201, GET and DELETE 204 of a user entry', async () => {
      const a = await create(ho, 'Delegated');
      await t.http
        .put(`${ACLS}/users/${other.id}/acl/assets/${a.id}/`)
        .set(ho)
        .send({ permissions: ['read', 'change-acl'] })
        .expect(201);
      await t.http
        .put(`${ACLS}/users/${third.id}/acl/assets/${a.id}/`)
        .set(hx)
        .send({ permissions: ['read'] })
        .expect(201);
      await t.http.get(`${ASSETS}/${a.id}/`).set(h3).expect(200);
      await t.http.get(`${ACLS}/users/${third.id}/acl/assets/${a.id}/`).set(hx).expect(200);
      await t.http.delete(`${ACLS}/users/${third.id}/acl/assets/${a.id}/`).set(hx).expect(204);
      await t.http.get(`${ASSETS}/${a.id}/`).set(h3).expect(404);
      await t.http.get(`${ACLS}/users/${third.id}/acl/assets/${a.id}/`).set(hx).expect(404);
    });

    it('a group entry applies to the group’s members', async () => {
      const word = `teamword${randomUUID().slice(0, 6)}`;
      const a = await create(ho, `For the team ${word}`);
      const searched = async () =>
        (await t.http.post('/API/search/v1/search/').set(h3).send({ query: word }).expect(200)).body;
      const group = await t.ds
        .getRepository(GroupEntity)
        .save({ system_domain_id: t.domainId, name: `team-${randomUUID().slice(0, 6)}`, roles: [] });
      await t.ds.getRepository(GroupMemberEntity).insert({ group_id: group.id, user_id: third.id });
      await t.http.get(`${ASSETS}/${a.id}/`).set(h3).expect(404);
      expect(await searched()).toMatchObject({ total: 0, objects: [] });
      const put = await t.http
        .put(`${ACLS}/groups/${group.id}/acl/assets/${a.id}/`)
        .set(ho)
        .send({ permissions: ['read', 'write'] })
        .expect(201);
      expect(put.body).toMatchObject({ group_id: group.id, permissions: ['read', 'write'] });
      const got = await t.http.get(`${ASSETS}/${a.id}/`).set(h3).expect(200);
      expect(got.body.permissions).toEqual(['read', 'write']);
      // search applies the group's entry inside the query, and the hit carries the member's permissions
      const found = await searched();
      expect(found.total).toBe(1);
      expect(found.objects[0]).toMatchObject({ id: a.id, permissions: ['read', 'write'] });
      await t.http.get(`${ACLS}/groups/${group.id}/acl/assets/${a.id}`).set(h3).expect(200);
      await t.http.delete(`${ACLS}/groups/${group.id}/acl/assets/${a.id}/`).set(ho).expect(204);
      await t.http.get(`${ASSETS}/${a.id}/`).set(h3).expect(404);
      expect(await searched()).toMatchObject({ total: 0, objects: [] });
    });

    it('bad permissions are a 400; unknown users and groups a 404', async () => {
      const a = await create(ho);
      await t.http
        .put(`${ACLS}/users/${other.id}/acl/assets/${a.id}/`)
        .set(ho)
        .send({ permissions: ['admin'] })
        .expect(400);
      await t.http
        .put(`${ACLS}/users/${randomUUID()}/acl/assets/${a.id}/`)
        .set(ho)
        .send({ permissions: ['read'] })
        .expect(404);
      await t.http
        .put(`${ACLS}/groups/${randomUUID()}/acl/assets/${a.id}/`)
        .set(ho)
        .send({ permissions: ['read'] })
        .expect(404);
    });

    it('an OAuth token with assets:read reads but cannot write, delete or change ACLs', async () => {
      const a = await create(ho, 'Scoped');
      const app = await createApp(t, { type: 'OAUTH', clientType: 'confidential', scopes: ['assets:read'] });
      const scoped = bearer(
        (await tokenFor(t, owner, { kind: 'OAUTH', appId: app.id, scopes: ['assets:read'] })).token,
      );
      await t.http.get(`${ASSETS}/${a.id}/`).set(scoped).expect(200);
      await t.http.get(`${ASSETS}/`).set(scoped).expect(200);
      await t.http.patch(`${ASSETS}/${a.id}/`).set(scoped).send({ title: 'no' }).expect(403);
      await t.http.post(`${ASSETS}/`).set(scoped).send({ title: 'no' }).expect(403);
      await t.http.delete(`${ASSETS}/${a.id}/`).set(scoped).expect(403);
      await t.http
        .put(`${ACLS}/users/${other.id}/acl/assets/${a.id}/`)
        .set(scoped)
        .send({ permissions: ['read'] })
        .expect(403);
    });

    it('another tenant’s asset is a 404 everywhere, even to its administrator', async () => {
      const a = await create(ho, 'Tenant one');
      const domain = await createDomain(t);
      const outsider = await createUser(t, { domainId: domain.id, isAdmin: true });
      const ht = bearer((await tokenFor(t, outsider)).token);
      await t.http.get(`${ASSETS}/${a.id}/`).set(ht).expect(404);
      await t.http.patch(`${ASSETS}/${a.id}/`).set(ht).send({ title: 'x' }).expect(404);
      await t.http.delete(`${ASSETS}/${a.id}/`).set(ht).expect(404);
      await t.http.get(`${ACLS}/acl/assets/${a.id}/`).set(ht).expect(404);
      await t.http
        .put(`${ACLS}/users/${outsider.id}/acl/assets/${a.id}/`)
        .set(ht)
        .send({ permissions: ['read'] })
        .expect(404);
      const list = await t.http.get(`${ASSETS}/`).set(ht).expect(200);
      expect(list.body.total).toBe(0);
      // nor may the owner grant an outsider anything
      await t.http
        .put(`${ACLS}/users/${outsider.id}/acl/assets/${a.id}/`)
        .set(ho)
        .send({ permissions: ['read'] })
        .expect(404);
    });
  });
});
