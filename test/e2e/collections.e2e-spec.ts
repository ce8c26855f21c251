import { WIRE_DATE_PATTERN } from '../../src/base/common/http/wire-date.js';
import { randomUUID } from 'node:crypto';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { GroupMemberEntity } from '../../src/base/model/group-member.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { ASSET_ROLES, bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const COLLECTIONS = '/API/assets/v1/collections';
const QUEUE = '/API/assets/v1/delete_queue/collections';
const ASSETS = '/API/assets/v1/assets';
const ACLS = '/API/acls/v1';
const ALL = ['read', 'write', 'delete', 'change-acl'];

type Obj = { id: string; title: string; parent_id: string | null };
const ids = (body: { objects: { id: string }[] }) => body.objects.map((o) => o.id);

/** Issue 38 item 1: collections, their tree, contents, delete queue and entity ACLs, as clients call them. */
describe('collections', () => {
  let t: TestApp;
  let owner: UserEntity;
  let ho: Record<string, string>;
  let member: UserEntity;
  let hm: Record<string, string>;
  let admin: Record<string, string>;

  const create = async (h: Record<string, string>, body: Record<string, unknown> = {}) =>
    (
      await t.http
        .post(`${COLLECTIONS}/`)
        .set(h)
        .send({ title: `c ${randomUUID().slice(0, 8)}`, ...body })
        .expect(201)
    ).body as Obj;
  const asset = async (h: Record<string, string>, title = `a ${randomUUID().slice(0, 8)}`) =>
    (await t.http.post(`${ASSETS}/`).set(h).send({ title }).expect(201)).body as { id: string };
  const add = (h: Record<string, string>, id: string, object_id: string, object_type = 'asset') =>
    t.http.post(`${COLLECTIONS}/${id}/contents/`).set(h).send({ object_id, object_type });
  const grant = (h: Record<string, string>, id: string, userId: string, permissions: string[], q = '') =>
    t.http.put(`${ACLS}/users/${userId}/acl/collections/${id}/${q}`).set(h).send({ permissions });
  const count = async (table: string) =>
    Number((await t.ds.query(`SELECT count(*) AS n FROM ${table}`))[0].n);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t, { roles: ASSET_ROLES });
    member = await createUser(t, { roles: ASSET_ROLES });
    ho = bearer((await tokenFor(t, owner)).token);
    hm = bearer((await tokenFor(t, member)).token);
    admin = bearer((await tokenFor(t, await createUser(t, { isAdmin: true }))).token);
  });
  afterAll(() => t.close());

  describe('the collection itself', () => {
    it('create: 201 with the CollectionSchema fields and every permission; a webhook event and an audit record', async () => {
      await t.http
        .post('/API/webhooks/v1/webhooks/')
        .set(admin)
        .send({ url: 'https://hooks.example.com/collections', event_type: 'collections', status: 'ENABLED' })
        .expect(201);
      const res = await t.http
        .post(COLLECTIONS)
        .set(ho)
        .send({ title: 'Harbour shots', external_id: 'x-1', category: 'travel' })
        .expect(201);
      expect(res.body).toMatchObject({
        id: expect.any(String),
        title: 'Harbour shots',
        status: 'ACTIVE',
        external_id: 'x-1',
        category: 'travel',
        object_type: 'collection',
        parent_id: null,
        parents: [],
        is_root: true,
        in_collections: [],
        permissions: ALL,
        created_by_user: owner.id,
        system_domain_id: t.domainId,
        date_deleted: null,
        metadata: {},
      });
      expect(res.body.date_created).toMatch(WIRE_DATE_PATTERN);
      const audit = await t.ds.query(
        "SELECT action FROM audit_events WHERE target_type = 'collection' AND target_id = $1",
        [res.body.id],
      );
      expect(audit).toEqual([{ action: 'collection.changed' }]);
      const events = await t.ds.query(
        "SELECT realm, operation, data FROM webhook_events WHERE event_type = 'collections' AND object_id = $1",
        [res.body.id],
      );
      expect(events).toEqual([
        {
          realm: 'collection',
          operation: 'create',
          data: expect.objectContaining({ title: 'Harbour shots' }),
        },
      ]);
      expect(events[0].data).not.toHaveProperty('permissions');
      const [row] = await t.ds.query('SELECT search_vector::text AS v FROM collections WHERE id = $1', [
        res.body.id,
      ]);
      expect(row.v).toContain("'harbour':1A");
    });

    it('get, PATCH, PUT, and the page-style list with query and facets', async () => {
      const c = await create(ho, { title: 'Editable collection' });
      await t.http.get(`${COLLECTIONS}/${c.id}`).set(ho).expect(200);
      const patched = await t.http
        .patch(`${COLLECTIONS}/${c.id}/`)
        .set(ho)
        .send({ title: 'Renamed zebra' })
        .expect(200);
      expect(patched.body.title).toBe('Renamed zebra');
      const put = await t.http.put(`${COLLECTIONS}/${c.id}`).set(ho).send({ status: 'HIDDEN' }).expect(200);
      expect(put.body).toMatchObject({ title: 'Renamed zebra', status: 'HIDDEN' });
      const list = await t.http.get(`${COLLECTIONS}/?per_page=5&page=1&query=zebra`).set(ho).expect(200);
      expect(list.body).toMatchObject({ page: 1, per_page: 5, total: 1 });
      expect(ids(list.body)).toEqual([c.id]);
      expect(list.body.facets.status.buckets).toEqual([{ key: 'HIDDEN', doc_count: 1 }]);
    });

    it('hostile input is a 400 that changes nothing', async () => {
      const before = await count('collections');
      const missing = await t.http.post(`${COLLECTIONS}/`).set(ho).send({}).expect(400);
      expect(missing.body.errors).toHaveProperty('title');
      await t.http
        .post(`${COLLECTIONS}/`)
        .set(ho)
        .send({ title: 'x'.repeat(1001) })
        .expect(400);
      await t.http.post(`${COLLECTIONS}/`).set(ho).send({ title: 'x', parent_id: 'nope' }).expect(400);
      await t.http.post(`${COLLECTIONS}/`).set(ho).send({ title: 'x', status: 'DELETED' }).expect(400);
      expect(await count('collections')).toBe(before);
      const c = await create(ho, { title: 'Stays' });
      await t.http.patch(`${COLLECTIONS}/${c.id}/`).set(ho).send({ title: '' }).expect(400);
      expect((await t.http.get(`${COLLECTIONS}/${c.id}/`).set(ho).expect(200)).body.title).toBe('Stays');
      await t.http.get(`${COLLECTIONS}/not-a-uuid/`).set(ho).expect(404);
    });

    it('no credentials 401; no role 403; an OAuth token without collections:write cannot create', async () => {
      await t.http.get(`${COLLECTIONS}/`).expect(401);
      await t.http.post(`${COLLECTIONS}/`).send({ title: 'x' }).expect(401);
      const plain = bearer((await tokenFor(t, await createUser(t, { roles: ['can_read_assets'] }))).token);
      await t.http.get(`${COLLECTIONS}/`).set(plain).expect(403);
      await t.http.post(`${COLLECTIONS}/`).set(plain).send({ title: 'x' }).expect(403);
      const c = await create(ho);
      const app = await createApp(t, {
        type: 'OAUTH',
        clientType: 'confidential',
        scopes: ['collections:read'],
      });
      const scoped = bearer(
        (await tokenFor(t, owner, { kind: 'OAUTH', appId: app.id, scopes: ['collections:read'] })).token,
      );
      await t.http.get(`${COLLECTIONS}/${c.id}/`).set(scoped).expect(200);
      const before = await count('collections');
      await t.http.post(`${COLLECTIONS}/`).set(scoped).send({ title: 'no' }).expect(403);
      await t.http.patch(`${COLLECTIONS}/${c.id}/`).set(scoped).send({ title: 'no' }).expect(403);
      await t.http.delete(`${COLLECTIONS}/${c.id}/`).set(scoped).expect(403);
      expect(await count('collections')).toBe(before);
    });

    it('another tenant’s collection is a 404 everywhere, even to its administrator', async () => {
      const c = await create(ho);
      const domain = await createDomain(t);
      const outsider = await createUser(t, { domainId: domain.id, isAdmin: true });
      const ht = bearer((await tokenFor(t, outsider)).token);
      await t.http.get(`${COLLECTIONS}/${c.id}/`).set(ht).expect(404);
      await t.http.patch(`${COLLECTIONS}/${c.id}/`).set(ht).send({ title: 'x' }).expect(404);
      await t.http.delete(`${COLLECTIONS}/${c.id}/`).set(ht).expect(404);
      await t.http.get(`${COLLECTIONS}/${c.id}/contents/`).set(ht).expect(404);
      await t.http.get(`${ACLS}/acl/collections/${c.id}/`).set(ht).expect(404);
      // nor may the outsider nest under it, or put it into their own collection
      await t.http.post(`${COLLECTIONS}/`).set(ht).send({ title: 'x', parent_id: c.id }).expect(404);
      const theirs = (await t.http.post(`${COLLECTIONS}/`).set(ht).send({ title: 'theirs' }).expect(201))
        .body;
      await add(ht, theirs.id, c.id, 'collection').expect(404);
      expect((await t.http.get(`${COLLECTIONS}/`).set(ht).expect(200)).body.total).toBe(1);
    });
  });

  describe('delete queue', () => {
    it('DELETE is soft; restore brings it back; purge removes it for good', async () => {
      const c = await create(ho);
      await t.http.delete(`${COLLECTIONS}/${c.id}/`).set(ho).expect(204);
      const gone = await t.http.get(`${COLLECTIONS}/${c.id}/`).set(ho).expect(404);
      expect(gone.body).toEqual({ errors: ['Collection not found'] });
      const [row] = await t.ds.query('SELECT status, deleted_by_user FROM collections WHERE id = $1', [c.id]);
      expect(row).toEqual({ status: 'DELETED', deleted_by_user: owner.id });
      expect(ids((await t.http.get(`${QUEUE}/?per_page=100`).set(ho).expect(200)).body)).toContain(c.id);
      // another member without an entry sees nothing of it
      expect(ids((await t.http.get(`${QUEUE}/?per_page=100`).set(hm).expect(200)).body)).not.toContain(c.id);
      await t.http.put(`${COLLECTIONS}/${c.id}/restore/`).set(hm).expect(404);
      await t.http.put(`${COLLECTIONS}/${c.id}/restore/`).set(ho).expect(204);
      expect((await t.http.get(`${COLLECTIONS}/${c.id}/`).set(ho).expect(200)).body.status).toBe('ACTIVE');
      await t.http.delete(`${COLLECTIONS}/${c.id}/purge/`).set(ho).expect(404); // live: not in the queue
      await t.http.delete(`${COLLECTIONS}/${c.id}/`).set(ho).expect(204);
      await t.http.delete(`${COLLECTIONS}/${c.id}/purge/`).set(ho).expect(204);
      expect(await t.ds.query('SELECT id FROM collections WHERE id = $1', [c.id])).toEqual([]);
    });

    it('bulk: POST restores and DELETE purges {collection_ids}, all or none; purge/all and restore/all', async () => {
      const [a, b, c] = [await create(ho), await create(ho), await create(ho)];
      for (const x of [a, b, c]) await t.http.delete(`${COLLECTIONS}/${x.id}/`).set(ho).expect(204);
      await t.http
        .post(`${QUEUE}/`)
        .set(ho)
        .send({ collection_ids: ['bad'] })
        .expect(400);
      // one unknown id: nothing is restored
      await t.http
        .post(`${QUEUE}/`)
        .set(ho)
        .send({ collection_ids: [a.id, randomUUID()] })
        .expect(404);
      await t.http.get(`${COLLECTIONS}/${a.id}/`).set(ho).expect(404);
      await t.http
        .post(`${QUEUE}/`)
        .set(ho)
        .send({ collection_ids: [a.id] })
        .expect(204);
      await t.http.get(`${COLLECTIONS}/${a.id}/`).set(ho).expect(200);
      await t.http
        .delete(`${QUEUE}/`)
        .set(ho)
        .send({ collection_ids: [b.id] })
        .expect(204);
      expect(await t.ds.query('SELECT id FROM collections WHERE id = $1', [b.id])).toEqual([]);
      await t.http.post(`${QUEUE}/restore/all/`).set(ho).expect(204);
      await t.http.get(`${COLLECTIONS}/${c.id}/`).set(ho).expect(200);
      await t.http.delete(`${COLLECTIONS}/${c.id}/`).set(ho).expect(204);
      await t.http
        .post(`${QUEUE}/purge/`)
        .set(ho)
        .send({ collection_ids: [c.id] })
        .expect(204);
      const d = await create(ho);
      await t.http.delete(`${COLLECTIONS}/${d.id}/`).set(ho).expect(204);
      await t.http.post(`${QUEUE}/purge/all/`).set(ho).expect(204);
      expect(await t.ds.query('SELECT id FROM collections WHERE id = ANY($1)', [[c.id, d.id]])).toEqual([]);
    });
  });

  describe('nesting', () => {
    it('subcollections, ancestors, full path, parents; no cycles', async () => {
      const root = await create(ho, { title: 'root' });
      const mid = (
        await t.http
          .post(`${COLLECTIONS}/${root.id}/subcollections/`)
          .set(ho)
          .send({ title: 'mid' })
          .expect(201)
      ).body;
      expect(mid).toMatchObject({ parent_id: root.id, is_root: false, parents: [root.id] });
      const leaf = await create(ho, { title: 'leaf', parent_id: mid.id });
      expect((await t.http.get(`${COLLECTIONS}/${leaf.id}/`).set(ho).expect(200)).body.parents).toEqual([
        root.id,
        mid.id,
      ]);
      const anc = await t.http.get(`${COLLECTIONS}/${leaf.id}/ancestors/`).set(ho).expect(200);
      expect(ids(anc.body)).toEqual([root.id, mid.id]);
      const path = await t.http.get(`${COLLECTIONS}/${leaf.id}/full/path/`).set(ho).expect(200);
      expect(ids(path.body)).toEqual([root.id, mid.id, leaf.id]);
      // moving root under its own descendant, or under itself, is a 400 that changes nothing
      const cyc = await t.http
        .patch(`${COLLECTIONS}/${root.id}/`)
        .set(ho)
        .send({ parent_id: leaf.id })
        .expect(400);
      expect(cyc.body.errors).toHaveProperty('parent_id');
      await t.http.put(`${COLLECTIONS}/${root.id}/`).set(ho).send({ parent_id: root.id }).expect(400);
      expect((await t.http.get(`${COLLECTIONS}/${root.id}/`).set(ho).expect(200)).body.parent_id).toBeNull();
      // moving leaf to the root level is fine
      const moved = await t.http
        .patch(`${COLLECTIONS}/${leaf.id}/`)
        .set(ho)
        .send({ parent_id: null })
        .expect(200);
      expect(moved.body).toMatchObject({ is_root: true, parents: [] });
    });

    it('a parent must be readable (else 404) and writable (else 403)', async () => {
      const parent = await create(ho);
      await t.http.post(`${COLLECTIONS}/`).set(hm).send({ title: 'x', parent_id: parent.id }).expect(404);
      await t.http
        .post(`${COLLECTIONS}/${parent.id}/subcollections/`)
        .set(hm)
        .send({ title: 'x' })
        .expect(404);
      await grant(ho, parent.id, member.id, ['read']).expect(201);
      await t.http.post(`${COLLECTIONS}/`).set(hm).send({ title: 'x', parent_id: parent.id }).expect(403);
      await t.http
        .post(`${COLLECTIONS}/${parent.id}/subcollections/`)
        .set(hm)
        .send({ title: 'x' })
        .expect(403);
    });
  });

  describe('contents', () => {
    it('add, list, PUT and DELETE assets and collections; in_collections on reads', async () => {
      const c = await create(ho);
      const a = await asset(ho);
      const sub = await create(ho);
      const res = await add(ho, c.id, a.id).expect(201);
      expect(res.body).toMatchObject({ collection_id: c.id, object_id: a.id, object_type: 'asset' });
      expect(res.body.date_created).toMatch(WIRE_DATE_PATTERN);
      await add(ho, c.id, sub.id, 'collection').expect(201);
      const page = await t.http.get(`${COLLECTIONS}/${c.id}/contents/?per_page=10`).set(ho).expect(200);
      expect(page.body).toMatchObject({ total: 2, page: 1 });
      expect(
        page.body.objects.map((o: { id: string; object_type: string }) => [o.id, o.object_type]),
      ).toEqual([
        [a.id, 'assets'],
        [sub.id, 'collection'],
      ]);
      expect((await t.http.get(`${ASSETS}/${a.id}/`).set(ho).expect(200)).body.in_collections).toEqual([
        c.id,
      ]);
      expect((await t.http.get(`${COLLECTIONS}/${sub.id}/`).set(ho).expect(200)).body.in_collections).toEqual(
        [c.id],
      );
      // PUT is idempotent: 200 when there, 201 when added
      await t.http.put(`${COLLECTIONS}/${c.id}/contents/asset/${a.id}/`).set(ho).expect(200);
      await t.http.delete(`${COLLECTIONS}/${c.id}/contents/asset/${a.id}/`).set(ho).expect(204);
      await t.http.delete(`${COLLECTIONS}/${c.id}/contents/asset/${a.id}/`).set(ho).expect(404);
      await t.http.put(`${COLLECTIONS}/${c.id}/contents/assets/${a.id}/`).set(ho).expect(201);
      // a deleted asset is hidden from the contents
      await t.http.delete(`${ASSETS}/${a.id}/`).set(ho).expect(204);
      const after = await t.http.get(`${COLLECTIONS}/${c.id}/contents/`).set(ho).expect(200);
      expect(ids(after.body)).toEqual([sub.id]);
      expect(after.body.total).toBe(1);
    });

    it('concurrent PUTs of one object: one 201, the rest 200, and one content_add record', async () => {
      const c = await create(ho);
      const a = await asset(ho);
      // on PostgreSQL's pool the adds race past the "is it there" read, and ON CONFLICT DO NOTHING decides
      const statuses = (
        await Promise.all(
          Array.from({ length: 6 }, () =>
            t.http.put(`${COLLECTIONS}/${c.id}/contents/asset/${a.id}/`).set(ho),
          ),
        )
      ).map((r) => r.status);
      expect(statuses.sort()).toEqual([200, 200, 200, 200, 200, 201]);
      // the audit record is written with every event (the webhook event only with a subscriber)
      const adds = await t.ds.query(
        "SELECT count(*) AS n FROM audit_events WHERE target_id = $1 AND details->>'operation' = 'content_add'",
        [c.id],
      );
      expect(Number(adds[0].n)).toBe(1);
    });

    it('hostile contents input is a 400 that changes nothing', async () => {
      const c = await create(ho);
      const a = await asset(ho);
      const before = await count('collection_contents');
      await add(ho, c.id, a.id, 'folder').expect(400);
      await add(ho, c.id, 'not-a-uuid').expect(400);
      await t.http.put(`${COLLECTIONS}/${c.id}/contents/folder/${a.id}/`).set(ho).expect(400);
      await add(ho, c.id, c.id, 'collection').expect(400);
      const child = await create(ho, { parent_id: c.id });
      await add(ho, child.id, c.id, 'collection').expect(400); // its own ancestor
      expect(await count('collection_contents')).toBe(before);
    });

    it('a member with the role but no ACL sees neither the collection nor, through it, an unreadable asset', async () => {
      const hidden = await create(ho, { title: 'hidden' });
      await t.http.get(`${COLLECTIONS}/${hidden.id}/`).set(hm).expect(404);
      await t.http.get(`${COLLECTIONS}/${hidden.id}/contents/`).set(hm).expect(404);
      await t.http.get(`${COLLECTIONS}/${hidden.id}/ancestors/`).set(hm).expect(404);
      await t.http.get(`${ACLS}/acl/collections/${hidden.id}/permissions/`).set(hm).expect(404);
      const list = await t.http.get(`${COLLECTIONS}/?per_page=1000`).set(hm).expect(200);
      expect(ids(list.body)).not.toContain(hidden.id);

      // a collection the member may read, holding an asset they may not and one they may
      const shared = await create(ho, { title: 'shared' });
      const secret = await asset(ho, 'secret asset');
      const open = await asset(ho, 'open asset');
      await add(ho, shared.id, secret.id).expect(201);
      await add(ho, shared.id, open.id).expect(201);
      await add(ho, shared.id, hidden.id, 'collection').expect(201);
      await t.http
        .put(`${ACLS}/users/${member.id}/acl/assets/${open.id}/`)
        .set(ho)
        .send({ permissions: ['read'] })
        .expect(201);
      await grant(ho, shared.id, member.id, ['read']).expect(201);
      const page = await t.http.get(`${COLLECTIONS}/${shared.id}/contents/`).set(hm).expect(200);
      expect(ids(page.body)).toEqual([open.id]);
      expect(page.body.total).toBe(1);
      // in_collections names only the collections the member may read
      await add(ho, hidden.id, open.id).expect(201);
      const read = await t.http.get(`${ASSETS}/${open.id}/`).set(hm).expect(200);
      expect(read.body.in_collections).toEqual([shared.id]);
      const owned = await t.http.get(`${ASSETS}/${open.id}/`).set(ho).expect(200);
      expect(owned.body.in_collections).toEqual([shared.id, hidden.id]);
      // the hidden collection is not among the parents/in_collections either
      const sub = await create(ho, { parent_id: hidden.id });
      await grant(ho, sub.id, member.id, ['read']).expect(201);
      const seen = await t.http.get(`${COLLECTIONS}/${sub.id}/`).set(hm).expect(200);
      expect(seen.body).toMatchObject({ parent_id: hidden.id, parents: [], permissions: ['read'] });
      // readable but not writable: writes are 403 and change nothing
      await add(hm, shared.id, open.id).expect(403);
      await t.http.patch(`${COLLECTIONS}/${shared.id}/`).set(hm).send({ title: 'mine' }).expect(403);
      await t.http.delete(`${COLLECTIONS}/${shared.id}/`).set(hm).expect(403);
      // writable, but the asset is not readable: 404, not added
      await grant(ho, shared.id, member.id, ['read', 'write']).expect(200);
      const mine = await create(hm);
      await add(hm, mine.id, secret.id).expect(404);
      expect(ids((await t.http.get(`${COLLECTIONS}/${mine.id}/contents/`).set(hm).expect(200)).body)).toEqual(
        [],
      );
    });
  });

  describe('assign_to_collection', () => {
    it('an asset created with assign_to_collection=true appears in the collection’s contents', async () => {
      const c = await create(ho);
      const res = await t.http
        .post(`${ASSETS}/?assign_to_collection=true`)
        .set(ho)
        .send({ title: 'uploaded', collection_id: c.id })
        .expect(201);
      expect(res.body.in_collections).toEqual([c.id]);
      const page = await t.http.get(`${COLLECTIONS}/${c.id}/contents/`).set(ho).expect(200);
      expect(ids(page.body)).toEqual([res.body.id]);
    });

    it('an empty collection_id is ignored; an unwritable collection creates nothing', async () => {
      const empty = await t.http
        .post(`${ASSETS}/?assign_to_collection=true`)
        .set(ho)
        .send({ title: 'no collection', collection_id: '' })
        .expect(201);
      expect(empty.body.in_collections).toEqual([]);
      const c = await create(ho);
      const before = await count('assets');
      const body = { title: 'refused', collection_id: c.id };
      await t.http.post(`${ASSETS}/?assign_to_collection=true`).set(hm).send(body).expect(404);
      await grant(ho, c.id, member.id, ['read']).expect(201);
      await t.http.post(`${ASSETS}/?assign_to_collection=true`).set(hm).send(body).expect(403);
      await t.http
        .post(`${ASSETS}/?assign_to_collection=true`)
        .set(hm)
        .send({ ...body, collection_id: 'nope' })
        .expect(400);
      expect(await count('assets')).toBe(before);
    });
  });

  describe('ACLs', () => {
    it('grants: GET, PUT (201 then 200), DELETE, whole ACL and permissions; a group entry applies', async () => {
      const c = await create(ho);
      await t.http.get(`${COLLECTIONS}/${c.id}/`).set(hm).expect(404);
      const put = await grant(ho, c.id, member.id, ['write', 'read']).expect(201);
      expect(put.body).toMatchObject({
        user_id: member.id,
        object_type: 'collections',
        object_key: c.id,
        permissions: ['read', 'write'],
      });
      await grant(ho, c.id, member.id, ['read']).expect(200);
      await t.http.get(`${ACLS}/users/${member.id}/acl/collections/${c.id}/`).set(hm).expect(200);
      const whole = await t.http.get(`${ACLS}/acl/collections/${c.id}/`).set(ho).expect(200);
      expect(whole.body.users_acl).toEqual(
        expect.arrayContaining([{ user_id: member.id, permissions: ['read'] }]),
      );
      const mine = await t.http.get(`${ACLS}/acl/collections/${c.id}/permissions/`).set(hm).expect(200);
      expect(mine.body).toEqual({ permissions: ['read'] });
      await t.http.delete(`${ACLS}/users/${member.id}/acl/collections/${c.id}/`).set(ho).expect(204);
      await t.http.get(`${COLLECTIONS}/${c.id}/`).set(hm).expect(404);

      const third = await createUser(t, { roles: ASSET_ROLES });
      const h3 = bearer((await tokenFor(t, third)).token);
      const group = await t.ds
        .getRepository(GroupEntity)
        .save({ system_domain_id: t.domainId, name: `g-${randomUUID().slice(0, 8)}`, roles: [] });
      await t.ds.getRepository(GroupMemberEntity).insert({ group_id: group.id, user_id: third.id });
      await t.http
        .put(`${ACLS}/groups/${group.id}/acl/collections/${c.id}/`)
        .set(ho)
        .send({ permissions: ['read'] })
        .expect(201);
      await t.http.get(`${COLLECTIONS}/${c.id}/`).set(h3).expect(200);
      await t.http.get(`${ACLS}/groups/${group.id}/acl/collections/${c.id}/`).set(h3).expect(200);
      await t.http.delete(`${ACLS}/groups/${group.id}/acl/collections/${c.id}/`).set(ho).expect(204);
      await t.http.get(`${COLLECTIONS}/${c.id}/`).set(h3).expect(404);
      await t.http
        .put(`${ACLS}/users/${member.id}/acl/collections/${c.id}/`)
        .set(ho)
        .send({ permissions: ['own'] })
        .expect(400);
    });

    it('no escalation: only what the caller holds, and change-acl is needed', async () => {
      const c = await create(ho);
      const other = await createUser(t, { roles: ASSET_ROLES });
      await grant(ho, c.id, member.id, ['read', 'write']).expect(201);
      // read+write but no change-acl: 403
      await grant(hm, c.id, other.id, ['read']).expect(403);
      await grant(ho, c.id, member.id, ['read', 'change-acl']).expect(200);
      // may grant read, not write or delete (not held)
      const esc = await grant(hm, c.id, other.id, ['read', 'delete']).expect(403);
      expect(esc.body.errors[0]).toContain('delete');
      await grant(hm, c.id, member.id, ALL).expect(403);
      await grant(hm, c.id, other.id, ['read']).expect(201);
      // may not remove the owner's entry, which carries permissions the member lacks
      await t.http.delete(`${ACLS}/users/${owner.id}/acl/collections/${c.id}/`).set(hm).expect(403);
      const whole = await t.http.get(`${ACLS}/acl/collections/${c.id}/`).set(ho).expect(200);
      expect(whole.body.users_acl).toEqual(
        expect.arrayContaining([
          { user_id: owner.id, permissions: ALL },
          { user_id: member.id, permissions: ['read', 'change-acl'] },
          { user_id: other.id, permissions: ['read'] },
        ]),
      );
    });

    it('propagate=true copies the grant to contents and subcollections the caller may change; not without it', async () => {
      const c = await create(ho);
      const sub = await create(ho, { parent_id: c.id });
      const a = await asset(ho);
      const foreign = await asset(hm); // the owner cannot change its ACL
      await add(ho, c.id, a.id).expect(201);
      await t.http
        .put(`${ACLS}/users/${owner.id}/acl/assets/${foreign.id}/`)
        .set(hm)
        .send({ permissions: ['read'] })
        .expect(201);
      await add(ho, c.id, foreign.id).expect(201);
      const viewer = await createUser(t, { roles: ASSET_ROLES });
      const hv = bearer((await tokenFor(t, viewer)).token);
      await grant(ho, c.id, viewer.id, ['read']).expect(201);
      await t.http.get(`${ASSETS}/${a.id}/`).set(hv).expect(404);
      await t.http.get(`${COLLECTIONS}/${sub.id}/`).set(hv).expect(404);
      await grant(ho, c.id, viewer.id, ['read'], '?propagate=true').expect(200);
      await t.http.get(`${ASSETS}/${a.id}/`).set(hv).expect(200);
      await t.http.get(`${COLLECTIONS}/${sub.id}/`).set(hv).expect(200);
      await t.http.get(`${ASSETS}/${foreign.id}/`).set(hv).expect(404);
      await grant(ho, c.id, viewer.id, ['read'], '?propagate=maybe').expect(400);
    });

    it('an administrator holds every permission without an entry', async () => {
      const c = await create(ho);
      const res = await t.http.get(`${COLLECTIONS}/${c.id}/`).set(admin).expect(200);
      expect(res.body.permissions).toEqual(ALL);
    });
  });
});
