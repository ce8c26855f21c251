import { WIRE_DATE_PATTERN } from '../../src/base/common/http/wire-date.js';
import { randomUUID } from 'node:crypto';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { ASSET_ROLES, bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const ASSETS = '/API/assets/v1/assets';
const META = '/API/metadata/v1';
const ACLS = '/API/acls/v1';
const COLLECTIONS = '/API/assets/v1/collections';

type Values = Record<string, { field_values: { value: unknown }[] }>;

/**
 * Issue 38 item 5: the metadata field registry (`/v1/fields/`), views naming registered fields, and an
 * object's values without a view (`/v1/{object_type}/{object_id}/`), as a published client calls them.
 */
describe('metadata fields and values without a view', () => {
  let t: TestApp;
  let user: UserEntity;
  let h: Record<string, string>;
  let outsider: Record<string, string>;

  const uniq = () => `f_${randomUUID().slice(0, 8).replace(/-/g, '')}`;
  const newField = async (body: object) =>
    (await t.http.post(`${META}/fields/`).set(h).send(body).expect(201)).body as Record<string, unknown>;
  const newAsset = async () =>
    (await t.http.post(`${ASSETS}/`).set(h).send({ title: 'Harbour at dawn' }).expect(201)).body as {
      id: string;
      versions: { id: string }[];
    };
  const values = async (id: string, who = h) =>
    (await t.http.get(`${META}/assets/${id}/`).set(who).expect(200)).body as {
      metadata_values: Values;
    };
  const put = (id: string, body: object, who = h) => t.http.put(`${META}/assets/${id}/`).set(who).send(body);
  /** Whether the asset's search document holds the word. */
  const indexed = async (id: string, word: string) =>
    (
      (await t.ds.query("SELECT search_vector @@ to_tsquery('simple', $2) AS hit FROM assets WHERE id = $1", [
        id,
        word,
      ])) as { hit: boolean }[]
    )[0].hit;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t, { roles: ASSET_ROLES });
    h = bearer((await tokenFor(t, user)).token);
    const domain = await createDomain(t);
    outsider = bearer((await tokenFor(t, await createUser(t, { domainId: domain.id, isAdmin: true }))).token);
  });
  afterAll(() => t.close());

  describe('the registry', () => {
    it('POST 201 answers MetadataFieldSchema with defaults; GET, list, PUT and PATCH change the given properties', async () => {
      const name = uniq();
      const f = await newField({ name, label: 'Rating', field_type: 'integer', min_value: 0, max_value: 5 });
      expect(f).toEqual({
        name,
        label: 'Rating',
        field_type: 'integer',
        description: null,
        external_id: null,
        auto_set: false,
        hide_if_not_set: false,
        is_block_field: false,
        is_warning_field: false,
        mapped_field_name: null,
        max_value: 5,
        min_value: 0,
        multi: false,
        options: [],
        read_only: false,
        representative: false,
        required: false,
        sortable: false,
        source_url: null,
        use_as_facet: false,
        date_created: expect.stringMatching(WIRE_DATE_PATTERN),
        date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
      });
      await t.http
        .post(`${META}/fields/`)
        .set(h)
        .send({ name, label: 'x', field_type: 'string' })
        .expect(409);
      expect((await t.http.get(`${META}/fields/${name}/`).set(h).expect(200)).body).toEqual(f);
      const list = await t.http.get(`${META}/fields/?per_page=100&query=${name}`).set(h).expect(200);
      expect(list.body.objects.map((o: { name: string }) => o.name)).toEqual([name]);
      const put = await t.http.put(`${META}/fields/${name}/`).set(h).send({ label: 'Stars' }).expect(200);
      expect(put.body).toMatchObject({ label: 'Stars', field_type: 'integer', max_value: 5 });
      const patch = await t.http
        .patch(`${META}/fields/${name}/`)
        .set(h)
        .send({ description: 'how good', field_type: 'float' })
        .expect(200);
      expect(patch.body).toMatchObject({ label: 'Stars', description: 'how good', field_type: 'float' });
    });

    it.each([
      [{ name: '1bad', label: 'x', field_type: 'string' }, 'name'],
      [{ name: 'a b', label: 'x', field_type: 'string' }, 'name'],
      [{ name: 'x'.repeat(101), label: 'x', field_type: 'string' }, 'name'],
      [{ name: 'ok_name', label: 'x', field_type: 'varchar' }, 'field_type'],
      [{ name: 'ok_name', field_type: 'string' }, 'label'],
      [{ name: 'ok_name', label: ' ', field_type: 'string' }, 'label'],
      [{ name: 'ok_name', label: 'x', field_type: 'integer', min_value: 5, max_value: 1 }, 'min_value'],
      [
        { name: 'ok_name', label: 'x', field_type: 'drop_down', options: [{ value: 'a' }, { value: 'a' }] },
        'options.1.value',
      ],
      [{ name: 'ok_name', label: 'x', field_type: 'string', options: 'a,b' }, 'options'],
    ])('POST %j is a 400 naming %s, and registers nothing', async (body, key) => {
      const res = await t.http.post(`${META}/fields/`).set(h).send(body).expect(400);
      expect(Object.keys(res.body.errors as object)).toContain(key);
      await t.http.get(`${META}/fields/ok_name/`).set(h).expect(404);
    });

    it('a field is not renamed (400); its type stays while objects have values of it (409)', async () => {
      const name = uniq();
      await newField({ name, label: 'Code', field_type: 'string' });
      await t.http.put(`${META}/fields/${name}/`).set(h).send({ name: 'other' }).expect(400);
      const a = await newAsset();
      await put(a.id, { metadata_values: { [name]: { field_values: [{ value: 'AB12' }] } } }).expect(200);
      const res = await t.http
        .patch(`${META}/fields/${name}/`)
        .set(h)
        .send({ field_type: 'integer' })
        .expect(409);
      expect(Object.keys(res.body.errors as object)).toEqual(['field_type']);
      expect((await t.http.get(`${META}/fields/${name}/`).set(h).expect(200)).body.field_type).toBe('string');
    });

    it('DELETE refuses a field a view names (409 naming it); once no view does, 204 and its values leave the objects and their search documents', async () => {
      const name = uniq();
      await newField({ name, label: 'Keyword', field_type: 'tag_cloud', multi: true });
      const view = (
        await t.http
          .post(`${META}/views/`)
          .set(h)
          .send({ name: 'kw view', view_fields: [{ name }] })
          .expect(201)
      ).body as { id: string };
      const a = await newAsset();
      await put(a.id, { metadata_values: { [name]: { field_values: [{ value: 'lighthouse' }] } } }).expect(
        200,
      );
      expect(await indexed(a.id, 'lighthouse')).toBe(true);
      const refused = await t.http.delete(`${META}/fields/${name}/`).set(h).expect(409);
      expect(refused.body.errors.field).toContain('kw view');
      await t.http.get(`${META}/fields/${name}/`).set(h).expect(200);
      await t.http
        .put(`${META}/views/${view.id}/`)
        .set(h)
        .send({ name: 'kw view', view_fields: [] })
        .expect(200);
      await t.http.delete(`${META}/fields/${name}/`).set(h).expect(204);
      await t.http.get(`${META}/fields/${name}/`).set(h).expect(404);
      expect((await values(a.id)).metadata_values).toEqual({});
      expect(await indexed(a.id, 'lighthouse')).toBe(false);
    });

    it('no credentials is a 401; without can_write_assets a write is a 403; another tenant’s field is a 404', async () => {
      await t.http.get(`${META}/fields/`).expect(401);
      await t.http.post(`${META}/fields/`).send({ name: 'x', label: 'x', field_type: 'string' }).expect(401);
      const reader = bearer((await tokenFor(t, await createUser(t, { roles: ['can_read_assets'] }))).token);
      await t.http.get(`${META}/fields/`).set(reader).expect(200);
      await t.http
        .post(`${META}/fields/`)
        .set(reader)
        .send({ name: 'x', label: 'x', field_type: 'string' })
        .expect(403);
      const name = uniq();
      await newField({ name, label: 'Mine', field_type: 'string' });
      await t.http.put(`${META}/fields/${name}/`).set(reader).send({ label: 'theirs' }).expect(403);
      await t.http.delete(`${META}/fields/${name}/`).set(reader).expect(403);
      await t.http.get(`${META}/fields/${name}/`).set(outsider).expect(404);
      await t.http.patch(`${META}/fields/${name}/`).set(outsider).send({ label: 'theirs' }).expect(404);
      await t.http.delete(`${META}/fields/${name}/`).set(outsider).expect(404);
      const list = await t.http.get(`${META}/fields/?per_page=100`).set(outsider).expect(200);
      expect(list.body.objects.map((o: { name: string }) => o.name)).not.toContain(name);
      // the same name is free in the other domain, and stays apart
      await t.http
        .post(`${META}/fields/`)
        .set(outsider)
        .send({ name, label: 'Theirs', field_type: 'boolean' })
        .expect(201);
      expect((await t.http.get(`${META}/fields/${name}/`).set(h).expect(200)).body.label).toBe('Mine');
    });
  });

  describe('views name registered fields', () => {
    it('a view answers each entry as the registered field; an entry naming an unregistered field registers it; a registered definition wins over an inline one', async () => {
      const rating = uniq();
      const mood = uniq();
      await newField({ name: rating, label: 'Rating', field_type: 'integer' });
      const v = await t.http
        .post(`${META}/views/`)
        .set(h)
        .send({
          name: 'mixed',
          view_fields: [
            { name: rating, label: 'ignored', field_type: 'string' },
            { name: mood, label: 'Mood', required: true },
          ],
        })
        .expect(201);
      expect(v.body.view_fields).toMatchObject([
        { name: rating, label: 'Rating', field_type: 'integer', multi: false },
        { name: mood, label: 'Mood', field_type: 'string', multi: true, required: true },
      ]);
      expect((await t.http.get(`${META}/fields/${mood}/`).set(h).expect(200)).body.label).toBe('Mood');
      // a change of the registered field shows in every read of the view
      await t.http.patch(`${META}/fields/${rating}/`).set(h).send({ label: 'Stars' }).expect(200);
      const got = await t.http.get(`${META}/views/${v.body.id}/`).set(h).expect(200);
      expect(got.body.view_fields[0]).toMatchObject({ name: rating, label: 'Stars' });
      // values through the view are checked against the registered type
      const a = await newAsset();
      const bad = await t.http
        .put(`${META}/assets/${a.id}/views/${v.body.id}/`)
        .set(h)
        .send({
          metadata_values: {
            [rating]: { field_values: [{ value: 'five' }] },
            [mood]: { field_values: [{ value: 'calm' }] },
          },
        })
        .expect(400);
      expect(Object.keys(bad.body.errors as object)).toEqual([`metadata_values.${rating}`]);
      await t.http
        .put(`${META}/assets/${a.id}/views/${v.body.id}/`)
        .set(h)
        .send({
          metadata_values: {
            [rating]: { field_values: [{ value: 5 }] },
            [mood]: { field_values: [{ value: 'calm' }] },
          },
        })
        .expect(200);
      expect((await values(a.id)).metadata_values).toMatchObject({
        [rating]: { field_values: [{ value: 5 }] },
        [mood]: { field_values: [{ value: 'calm' }] },
      });
    });
  });

  describe('an asset’s values without a view', () => {
    const [tags, count, locked, day] = [uniq(), uniq(), uniq(), uniq()];
    beforeAll(async () => {
      await newField({ name: tags, label: 'Tags', field_type: 'tag_cloud', multi: true });
      await newField({ name: count, label: 'Count', field_type: 'integer', max_value: 1000 });
      await newField({ name: locked, label: 'Checksum', field_type: 'string', read_only: true });
      await newField({ name: day, label: 'Shot on', field_type: 'date' });
    });

    it('PUT 200 answers MetadataValuesSchema on the current version, GET the same; append adds, overwrite replaces; the search document follows', async () => {
      const a = await newAsset();
      const res = await put(a.id, {
        metadata_values: {
          [tags]: { field_values: [{ value: 'boats' }] },
          [count]: { field_values: [{ value: 3 }] },
          [day]: { field_values: [{ value: '2026-11-28' }] },
        },
      }).expect(200);
      expect(res.body).toEqual({
        object_id: a.id,
        object_type: 'assets',
        version_id: a.versions[0].id,
        job_id: null,
        metadata_values: {
          [tags]: {
            field_values: [{ value: 'boats' }],
            date_created: expect.stringMatching(WIRE_DATE_PATTERN),
            date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
          },
          [count]: {
            field_values: [{ value: 3 }],
            date_created: expect.stringMatching(WIRE_DATE_PATTERN),
            date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
          },
          [day]: {
            field_values: [{ value: '2026-11-28' }],
            date_created: expect.stringMatching(WIRE_DATE_PATTERN),
            date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
          },
        },
        date_created: expect.stringMatching(WIRE_DATE_PATTERN),
        date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
      });
      expect((await t.http.get(`${META}/assets/${a.id}/`).set(h).expect(200)).body).toEqual(res.body);
      expect(await indexed(a.id, 'boats')).toBe(true);

      await put(a.id, {
        mode: 'append',
        metadata_values: { [tags]: { field_values: [{ value: 'harbour' }] } },
      }).expect(200);
      await put(a.id, {
        metadata_values: {
          [tags]: { mode: 'append', field_values: [{ value: 'dawn' }] },
          [count]: { field_values: [{ value: 4 }] },
        },
      }).expect(200);
      const after = (await values(a.id)).metadata_values;
      expect(after[tags].field_values).toEqual([{ value: 'boats' }, { value: 'harbour' }, { value: 'dawn' }]);
      expect(after[count].field_values).toEqual([{ value: 4 }]);
      await put(a.id, {
        metadata_values: { [tags]: { field_values: [{ value: 'gulls' }] }, [day]: { field_values: [] } },
      }).expect(200);
      const last = (await values(a.id)).metadata_values;
      expect(last[tags].field_values).toEqual([{ value: 'gulls' }]);
      expect(last[day]).toBeUndefined();
      expect(await indexed(a.id, 'boats')).toBe(false);
      expect(await indexed(a.id, 'gulls')).toBe(true);
    });

    it.each([
      [
        'an unknown field',
        () => ({ metadata_values: { no_such_field: { field_values: [{ value: 'x' }] } } }),
        'metadata_values.no_such_field',
      ],
      [
        'a bad field name',
        () => ({ metadata_values: { 'a b;--': { field_values: [{ value: 'x' }] } } }),
        'metadata_values.a b;--',
      ],
      [
        'a string for an integer',
        () => ({ metadata_values: { [count]: { field_values: [{ value: '7' }] } } }),
        `metadata_values.${count}`,
      ],
      [
        'an integer above max_value',
        () => ({ metadata_values: { [count]: { field_values: [{ value: 1001 }] } } }),
        `metadata_values.${count}`,
      ],
      [
        'two values of a single field',
        () => ({ metadata_values: { [count]: { field_values: [{ value: 1 }, { value: 2 }] } } }),
        `metadata_values.${count}`,
      ],
      [
        'an impossible date',
        () => ({ metadata_values: { [day]: { field_values: [{ value: '2026-02-30' }] } } }),
        `metadata_values.${day}`,
      ],
      [
        'an object value',
        () => ({ metadata_values: { [tags]: { field_values: [{ value: { $ne: 1 } }] } } }),
        `metadata_values.${tags}`,
      ],
      [
        '101 values',
        () => ({
          metadata_values: {
            [tags]: { field_values: Array.from({ length: 101 }, (_, i) => ({ value: `v${i}` })) },
          },
        }),
        `metadata_values.${tags}`,
      ],
      [
        'a read-only field',
        () => ({ metadata_values: { [locked]: { field_values: [{ value: 'x' }] } } }),
        `metadata_values.${locked}`,
      ],
      [
        'an unknown field mode',
        () => ({ metadata_values: { [tags]: { mode: 'merge', field_values: [{ value: 'x' }] } } }),
        `metadata_values.${tags}`,
      ],
      [
        'an unknown request mode',
        () => ({ mode: 'merge', metadata_values: { [tags]: { field_values: [{ value: 'x' }] } } }),
        'mode',
      ],
      ['metadata_values not an object', () => ({ metadata_values: 'tags=x' }), 'metadata_values'],
      [
        '201 fields',
        () => ({
          metadata_values: Object.fromEntries(
            Array.from({ length: 201 }, (_, i) => [`f${i}`, { field_values: [] }]),
          ),
        }),
        'metadata_values',
      ],
    ])('%s is a 400 naming it, and changes nothing', async (_what, body, key) => {
      const a = await newAsset();
      await put(a.id, { metadata_values: { [tags]: { field_values: [{ value: 'kept' }] } } }).expect(200);
      const before = await values(a.id);
      const sent = body() as { metadata_values?: Record<string, unknown> };
      // the valid field beside the bad one is not written either
      if (
        typeof sent.metadata_values === 'object' &&
        !(tags in sent.metadata_values) &&
        Object.keys(sent.metadata_values).length < 5
      )
        sent.metadata_values[tags] = { field_values: [{ value: 'changed' }] };
      const res = await put(a.id, sent).expect(400);
      expect(Object.keys(res.body.errors as object)).toContain(key);
      expect(await values(a.id)).toEqual(before);
    });

    it('an unknown object_type is a 400; a malformed or unknown id a 404; no credentials a 401', async () => {
      const a = await newAsset();
      const res = await t.http.get(`${META}/widgets/${a.id}/`).set(h).expect(400);
      expect(res.body).toEqual({ errors: { object_type: expect.stringContaining('assets') } });
      await t.http.put(`${META}/widgets/${a.id}/`).set(h).send({ metadata_values: {} }).expect(400);
      await t.http.get(`${META}/assets/nonsense/`).set(h).expect(404);
      await t.http.get(`${META}/assets/${randomUUID()}/`).set(h).expect(404);
      await t.http.get(`${META}/assets/${a.id}/`).expect(401);
      await t.http.put(`${META}/assets/${a.id}/`).send({ metadata_values: {} }).expect(401);
      // the views' and categories' routes still answer as before
      await t.http.get(`${META}/assets/categories/`).set(h).expect(200);
    });

    it('without read the asset is a 404; with read only a PUT is a 403 and changes nothing; another tenant gets 404', async () => {
      const a = await newAsset();
      await put(a.id, { metadata_values: { [tags]: { field_values: [{ value: 'kept' }] } } }).expect(200);
      const before = await values(a.id);
      const member = await createUser(t, { roles: ASSET_ROLES });
      const hm = bearer((await tokenFor(t, member)).token);
      const body = { metadata_values: { [tags]: { field_values: [{ value: 'stolen' }] } } };
      await t.http.get(`${META}/assets/${a.id}/`).set(hm).expect(404);
      await put(a.id, body, hm).expect(404);
      await t.http
        .put(`${ACLS}/users/${member.id}/acl/assets/${a.id}/`)
        .set(h)
        .send({ permissions: ['read'] })
        .expect(201);
      expect(await values(a.id, hm)).toEqual(before);
      await put(a.id, body, hm).expect(403);
      await t.http.get(`${META}/assets/${a.id}/`).set(outsider).expect(404);
      await put(a.id, body, outsider).expect(404);
      expect(await values(a.id)).toEqual(before);
      expect(await indexed(a.id, 'stolen')).toBe(false);
    });
  });

  describe('a collection’s values', () => {
    const [label, topics] = [uniq(), uniq()];
    beforeAll(async () => {
      await newField({ name: label, label: 'Label', field_type: 'string' });
      await newField({ name: topics, label: 'Topics', field_type: 'tag_cloud', multi: true });
    });
    const newCollection = async () =>
      (await t.http.post(`${COLLECTIONS}/`).set(h).send({ title: 'Boats' }).expect(201)).body as {
        id: string;
      };
    const cput = (id: string, body: object, who = h) =>
      t.http.put(`${META}/collections/${id}/`).set(who).send(body);
    const cget = async (id: string, who = h) =>
      (await t.http.get(`${META}/collections/${id}/`).set(who).expect(200)).body as {
        metadata_values: Values;
      };

    it('PUT 200 and GET answer MetadataValuesSchema without a version; append adds; deleting the field takes its values', async () => {
      const c = await newCollection();
      const res = await cput(c.id, {
        metadata_values: {
          [label]: { field_values: [{ value: 'fleet' }] },
          [topics]: { field_values: [{ value: 'sea' }] },
        },
      }).expect(200);
      expect(res.body).toMatchObject({
        object_id: c.id,
        object_type: 'collections',
        version_id: null,
        job_id: null,
        metadata_values: {
          [label]: { field_values: [{ value: 'fleet' }] },
          [topics]: { field_values: [{ value: 'sea' }] },
        },
        date_created: expect.stringMatching(WIRE_DATE_PATTERN),
      });
      expect(await cget(c.id)).toEqual(res.body);
      await cput(c.id, {
        mode: 'append',
        metadata_values: { [topics]: { field_values: [{ value: 'harbour' }] } },
      }).expect(200);
      expect((await cget(c.id)).metadata_values[topics].field_values).toEqual([
        { value: 'sea' },
        { value: 'harbour' },
      ]);
      const bad = await cput(c.id, {
        metadata_values: { [label]: { field_values: [{ value: 1 }] }, nope: { field_values: [] } },
      }).expect(400);
      expect(Object.keys(bad.body.errors as object).sort()).toEqual(
        [`metadata_values.${label}`, 'metadata_values.nope'].sort(),
      );
      const gone = uniq();
      await newField({ name: gone, label: 'Gone', field_type: 'string' });
      await cput(c.id, { metadata_values: { [gone]: { field_values: [{ value: 'x' }] } } }).expect(200);
      await t.http.delete(`${META}/fields/${gone}/`).set(h).expect(204);
      expect((await cget(c.id)).metadata_values[gone]).toBeUndefined();
      const [{ n }] = (await t.ds.query(
        'SELECT count(*)::int AS n FROM collection_metadata_values WHERE collection_id = $1 AND field_name = $2',
        [c.id, gone],
      )) as { n: number }[];
      expect(n).toBe(0);
    });

    it('without read the collection is a 404; with read only a PUT is a 403 and changes nothing; another tenant, a deleted collection and no credentials are refused', async () => {
      const c = await newCollection();
      await cput(c.id, { metadata_values: { [label]: { field_values: [{ value: 'kept' }] } } }).expect(200);
      const before = await cget(c.id);
      const member = await createUser(t, { roles: ASSET_ROLES });
      const hm = bearer((await tokenFor(t, member)).token);
      const body = { metadata_values: { [label]: { field_values: [{ value: 'stolen' }] } } };
      await t.http.get(`${META}/collections/${c.id}/`).set(hm).expect(404);
      await cput(c.id, body, hm).expect(404);
      await t.http
        .put(`${ACLS}/users/${member.id}/acl/collections/${c.id}/`)
        .set(h)
        .send({ permissions: ['read'] })
        .expect(201);
      expect(await cget(c.id, hm)).toEqual(before);
      await cput(c.id, body, hm).expect(403);
      await t.http.get(`${META}/collections/${c.id}/`).set(outsider).expect(404);
      await cput(c.id, body, outsider).expect(404);
      await t.http.get(`${META}/collections/${c.id}/`).expect(401);
      await t.http.get(`${META}/collections/nonsense/`).set(h).expect(404);
      // a reader of assets without the collections role
      const assetsOnly = bearer(
        (await tokenFor(t, await createUser(t, { roles: ['can_read_assets'] }))).token,
      );
      await t.http.get(`${META}/collections/${c.id}/`).set(assetsOnly).expect(403);
      expect(await cget(c.id)).toEqual(before);
      await t.http.delete(`${COLLECTIONS}/${c.id}/`).set(h).expect(204);
      await t.http.get(`${META}/collections/${c.id}/`).set(h).expect(404);
      await cput(c.id, body).expect(404);
    });
  });

  describe('a collection’s values in its search document and its reads', () => {
    const [place, gone] = [uniq(), uniq()];
    const word = () => `kw${randomUUID().slice(0, 8)}`;
    beforeAll(async () => {
      await newField({ name: place, label: 'Place', field_type: 'string' });
      await newField({ name: gone, label: 'Gone', field_type: 'string' });
    });
    const found = async (query: string, who = h) =>
      (
        (
          await t.http
            .post('/API/search/v1/search/')
            .set(who)
            .send({ query, doc_types: ['collections'] })
            .expect(200)
        ).body as { objects: { id: string; metadata: Record<string, unknown[]> }[] }
      ).objects;
    const cput = (id: string, body: object, who = h) =>
      t.http.put(`${META}/collections/${id}/`).set(who).send(body);

    it('a PUT makes the collection findable by its values (weight B, below the title); GET and the list carry them', async () => {
      const [w1, w2] = [word(), word()];
      const c = (
        await t.http
          .post(`${COLLECTIONS}/`)
          .set(h)
          .send({ title: `Quay ${w2}` })
          .expect(201)
      ).body as {
        id: string;
        metadata: object;
      };
      expect(c.metadata).toEqual({});
      const other = (await t.http.post(`${COLLECTIONS}/`).set(h).send({ title: 'Pier' }).expect(201))
        .body as { id: string };
      expect(await found(w1)).toEqual([]);
      await cput(c.id, { metadata_values: { [place]: { field_values: [{ value: `North ${w1}` }] } } }).expect(
        200,
      );
      await cput(other.id, { metadata_values: { [gone]: { field_values: [{ value: w2 }] } } }).expect(200);
      const hits = await found(w1);
      expect(hits.map((o) => o.id)).toEqual([c.id]);
      expect(hits[0].metadata).toEqual({ [place]: [`North ${w1}`] });
      // the title (A) ranks above a value (B)
      expect((await found(w2)).map((o) => o.id)).toEqual([c.id, other.id]);
      const got = (await t.http.get(`${COLLECTIONS}/${c.id}/`).set(h).expect(200)).body as {
        metadata: object;
      };
      expect(got.metadata).toEqual({ [place]: [`North ${w1}`] });
      const list = (await t.http.get(`${COLLECTIONS}/?per_page=100`).set(h).expect(200)).body as {
        objects: { id: string; metadata: object }[];
      };
      expect(list.objects.find((o) => o.id === other.id)?.metadata).toEqual({ [gone]: [w2] });
      expect(list.objects.find((o) => o.id === c.id)?.metadata).toEqual({ [place]: [`North ${w1}`] });
      // an overwrite replaces the indexed words
      await cput(c.id, { metadata_values: { [place]: { field_values: [{ value: 'South' }] } } }).expect(200);
      expect(await found(w1)).toEqual([]);
      // deleting a field takes its values out of the document and the reads
      await t.http.delete(`${META}/fields/${gone}/`).set(h).expect(204);
      expect((await found(w2)).map((o) => o.id)).toEqual([c.id]);
      const after = (await t.http.get(`${COLLECTIONS}/${other.id}/`).set(h).expect(200)).body as {
        metadata: object;
      };
      expect(after.metadata).toEqual({});
    });

    it('a refused PUT (read only, another tenant) indexes nothing; an unreadable collection is not found by its values', async () => {
      const w = word();
      const c = (await t.http.post(`${COLLECTIONS}/`).set(h).send({ title: 'Dock' }).expect(201)).body as {
        id: string;
      };
      await cput(c.id, { metadata_values: { [place]: { field_values: [{ value: w }] } } }).expect(200);
      const member = await createUser(t, { roles: ASSET_ROLES });
      const hm = bearer((await tokenFor(t, member)).token);
      expect(await found(w, hm)).toEqual([]);
      await t.http
        .put(`${ACLS}/users/${member.id}/acl/collections/${c.id}/`)
        .set(h)
        .send({ permissions: ['read'] })
        .expect(201);
      expect((await found(w, hm)).map((o) => o.id)).toEqual([c.id]);
      const stolen = word();
      await cput(c.id, { metadata_values: { [place]: { field_values: [{ value: stolen }] } } }, hm).expect(
        403,
      );
      await cput(
        c.id,
        { metadata_values: { [place]: { field_values: [{ value: stolen }] } } },
        outsider,
      ).expect(404);
      expect(await found(stolen)).toEqual([]);
      expect(
        ((await t.http.get(`${COLLECTIONS}/${c.id}/`).set(h).expect(200)).body as { metadata: object })
          .metadata,
      ).toEqual({
        [place]: [w],
      });
    });
  });
});
