import { randomUUID } from 'node:crypto';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { GroupMemberEntity } from '../../src/base/model/group-member.entity.js';
import { createUser } from '../factories/index.js';
import { ASSET_ROLES, bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const ASSETS = '/API/assets/v1/assets';
const META = '/API/metadata/v1';
const SEARCH = '/API/search/v1/search/';
const ACLS = '/API/acls/v1';
const COLLECTIONS = '/API/assets/v1/collections';

interface Hit {
  id: string;
  title: string;
  _highlight: Record<string, string[]>;
  [k: string]: unknown;
}
interface Answer {
  objects: Hit[];
  total: number;
  facets: Record<string, { buckets: { key: string; doc_count: number }[] }>;
  search_after: unknown[] | null;
}

/**
 * Issue 38 item 2: the search criteria as the published clients send them (filter operators in any case,
 * value / value_in / range / exists / missing, nested filters, sort on any field, facets_filters,
 * include_fields / exclude_fields, search_after), each through HTTP, with the ACL inside every answer.
 */
describe('search criteria', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let reader: Record<string, string>;
  let readerId: string;
  const W = `crit${randomUUID().slice(0, 8)}`;
  const id: Record<string, string> = {};

  const search = async (headers: Record<string, string>, body: object, status = 200) =>
    (await t.http.post(SEARCH).set(headers).send(body).expect(status)).body as Answer & {
      errors: Record<string, string>;
    };
  const ids = (a: Answer) => a.objects.map((o) => o.id);
  const names = (a: Answer) => a.objects.map((o) => o.title.slice(W.length + 1));
  /** The suite's own assets (the word W), as `who` finds them with `body`. */
  const find = (who: Record<string, string>, body: object) => search(who, { query: W, ...body });

  beforeAll(async () => {
    t = await createTestApp();
    owner = bearer((await tokenFor(t, await createUser(t, { roles: ASSET_ROLES }))).token);
    const r = await createUser(t, { roles: ASSET_ROLES });
    reader = bearer((await tokenFor(t, r)).token);
    readerId = r.id;
    const view = (
      await t.http
        .post(`${META}/views/`)
        .set(owner)
        .send({
          name: `crit ${W}`,
          view_fields: [{ name: 'camera' }, { name: 'shot_date' }, { name: 'reel', field_type: 'integer' }],
        })
        .expect(201)
    ).body as { id: string };
    const make = async (name: string, type: string, values: Record<string, unknown> | null, extra = {}) => {
      const a = (
        await t.http
          .post(`${ASSETS}/`)
          .set(owner)
          .send({ title: `${W} ${name}`, type, ...extra })
          .expect(201)
      ).body as { id: string };
      if (values) {
        const metadata_values = Object.fromEntries(
          Object.entries(values).map(([k, v]) => [k, { field_values: [{ value: v }] }]),
        );
        await t.http
          .put(`${META}/assets/${a.id}/views/${view.id}/`)
          .set(owner)
          .send({ metadata_values })
          .expect(200);
      }
      id[name] = a.id;
    };
    await make('alpha', 'ASSET', { camera: 'Arri', shot_date: '2026-03-01T10:00:00Z', reel: 5 });
    await make('bravo', 'CUSTOM', { camera: 'Red', shot_date: '2026-03-02', reel: 12 });
    await make('charlie', 'ASSET', null, { external_id: 'ext-3' });
    await make('hidden', 'SEQUENCE', { camera: 'Arri', shot_date: '2026-03-01T12:00:00Z', reel: 7 });
    for (const name of ['alpha', 'bravo', 'charlie']) {
      await t.http
        .put(`${ACLS}/users/${r.id}/acl/assets/${id[name]}/`)
        .set(owner)
        .send({ permissions: ['read'] })
        .expect(201);
    }
  });
  afterAll(() => t.close());

  describe('filter', () => {
    it('operator in any case (AND, and, Or), value and value_in on columns and metadata', async () => {
      const and = await find(owner, {
        filter: {
          operator: 'AND',
          terms: [
            { name: 'type', value: 'ASSET' },
            { name: 'metadata.camera', value: 'Arri' },
          ],
        },
      });
      expect(ids(and)).toEqual([id.alpha]);
      const or = await find(owner, {
        filter: {
          operator: 'Or',
          terms: [
            { name: 'type', value: 'CUSTOM' },
            { name: 'external_id', value: 'ext-3' },
          ],
        },
        sort: [{ name: 'title', order: 'ASC' }],
      });
      expect(names(or)).toEqual(['bravo', 'charlie']);
      const any = await find(owner, {
        filter: { operator: 'and', terms: [{ name: 'metadata.camera', value_in: ['Arri', 'Red'] }] },
        sort: [{ name: 'title' }],
      });
      expect(names(any)).toEqual(['alpha', 'bravo', 'hidden']);
      // a bare name that is no column is the metadata field; the reader never gets the hidden asset
      const bare = await find(reader, {
        filter: { operator: 'and', terms: [{ name: 'camera', value_in: ['Arri'] }] },
      });
      expect(bare).toMatchObject({ total: 1 });
      expect(ids(bare)).toEqual([id.alpha]);
    });

    it('range: metadata numbers, metadata dates (timezone for bounds without an offset), date columns', async () => {
      const reels = await find(owner, {
        filter: { operator: 'and', terms: [{ name: 'reel', range: { min: '6', max: '20' } }] },
        sort: [{ name: 'title' }],
      });
      expect(names(reels)).toEqual(['bravo', 'hidden']);
      expect(
        names(
          await find(reader, { filter: { operator: 'and', terms: [{ name: 'reel', range: { min: '6' } }] } }),
        ),
      ).toEqual(['bravo']);
      const days = await find(owner, {
        filter: {
          operator: 'and',
          terms: [{ name: 'metadata.shot_date', range: { min: '2026-03-02', max: '2026-03-03' } }],
        },
      });
      expect(names(days)).toEqual(['bravo']);
      // 10:30 in Oslo (UTC+1 in March) is 09:30Z: alpha (10:00Z) is after it; in UTC it is before
      const upTo = (timezone?: string) =>
        find(owner, {
          filter: {
            operator: 'and',
            terms: [
              { name: 'shot_date', range: { max: '2026-03-01T10:30:00', ...(timezone ? { timezone } : {}) } },
            ],
          },
          sort: [{ name: 'title' }],
        });
      expect(names(await upTo())).toEqual(['alpha']);
      expect(names(await upTo('Europe/Oslo'))).toEqual([]);
      // 10:30 at -02:00 is 12:30Z: hidden (12:00Z) too, for its owner
      expect(names(await upTo('-02:00'))).toEqual(['alpha', 'hidden']);
      const recent = await find(owner, {
        filter: {
          operator: 'and',
          terms: [{ name: 'date_created', range: { min: 'now-1h', max: 'now+1m' } }],
        },
      });
      expect(recent.total).toBe(4);
      const old = await find(owner, {
        filter: { operator: 'and', terms: [{ name: 'date_created', range: { max: 'now-1d' } }] },
      });
      expect(old.total).toBe(0);
    });

    it('exists and missing, on metadata fields and columns', async () => {
      const has = await find(reader, {
        filter: { operator: 'and', terms: [{ name: 'camera', exists: true }] },
        sort: [{ name: 'title' }],
      });
      expect(names(has)).toEqual(['alpha', 'bravo']);
      const lacks = await find(owner, {
        filter: { operator: 'and', terms: [{ name: 'metadata.camera', missing: true }] },
      });
      expect(names(lacks)).toEqual(['charlie']);
      const ext = await find(owner, {
        filter: { operator: 'and', terms: [{ name: 'external_id', exists: true }] },
      });
      expect(names(ext)).toEqual(['charlie']);
      expect(
        (await find(owner, { filter: { operator: 'and', terms: [{ name: 'external_id', exists: false }] } }))
          .total,
      ).toBe(3);
    });

    it('nested filters combine with the operator of their level', async () => {
      const nested = await find(owner, {
        filter: {
          operator: 'OR',
          filters: [
            {
              operator: 'AND',
              terms: [
                { name: 'type', value: 'ASSET' },
                { name: 'camera', value: 'Arri' },
              ],
            },
            { operator: 'and', terms: [{ name: 'reel', value: '12' }] },
          ],
        },
        sort: [{ name: 'title' }],
      });
      expect(names(nested)).toEqual(['alpha', 'bravo']);
      const deep = (n: number): object =>
        n === 0
          ? { operator: 'and', terms: [{ name: 'type', value: 'CUSTOM' }] }
          : { operator: 'and', filters: [deep(n - 1)] };
      expect(names(await find(owner, { filter: deep(7) }))).toEqual(['bravo']);
    });
  });

  describe('sort', () => {
    it('on metadata fields (numbers as numbers), missing last in both directions, order in any case', async () => {
      expect(names(await find(owner, { sort: [{ name: 'metadata.reel', order: 'DESC' }] }))).toEqual([
        'bravo',
        'hidden',
        'alpha',
        'charlie',
      ]);
      expect(names(await find(reader, { sort: [{ name: 'reel', order: 'Asc' }] }))).toEqual([
        'alpha',
        'bravo',
        'charlie',
      ]);
      expect(
        names(
          await find(owner, {
            sort: [
              { name: 'type', order: 'desc' },
              { name: 'title', order: 'desc' },
            ],
          }),
        ),
      ).toEqual(['hidden', 'bravo', 'charlie', 'alpha']);
    });

    it('an unknown or SQL-ish name sorts as missing: 200, every readable hit, nothing else', async () => {
      for (const name of ['nope', 'title; DROP TABLE assets; --', 'a.id) desc, (select 1', 'metadata.x"y']) {
        const res = await find(reader, { sort: [{ name, order: 'desc' }] });
        expect(res.total).toBe(3);
        expect(ids(res).sort()).toEqual([id.alpha, id.bravo, id.charlie].sort());
      }
    });
  });

  describe('search_after', () => {
    const walk = async (who: Record<string, string>, body: object) => {
      const seen: string[] = [];
      let after: unknown[] | null = null;
      for (let i = 0; i < 10; i++) {
        const res: Answer = await find(who, {
          ...body,
          per_page: 1,
          ...(after ? { search_after: after } : {}),
        });
        seen.push(...names(res));
        after = res.search_after;
        if (!after) break;
      }
      return seen;
    };

    it('pages on the sort values and the id, whatever the sort, never showing what the caller may not read', async () => {
      expect(await walk(owner, { sort: [{ name: 'title', order: 'asc' }] })).toEqual([
        'alpha',
        'bravo',
        'charlie',
        'hidden',
      ]);
      expect(await walk(reader, { sort: [{ name: 'title', order: 'asc' }] })).toEqual([
        'alpha',
        'bravo',
        'charlie',
      ]);
      expect(await walk(reader, { sort: [{ name: 'reel', order: 'desc' }] })).toEqual([
        'bravo',
        'alpha',
        'charlie',
      ]);
      expect(await walk(owner, { sort: [{ name: 'date_created', order: 'desc' }] })).toEqual([
        'hidden',
        'charlie',
        'bravo',
        'alpha',
      ]);
      // the default order (relevance, then id) pages too
      expect((await walk(reader, {})).sort()).toEqual(['alpha', 'bravo', 'charlie']);
    });

    it('the answer gives the last hit’s sort values and id; null on the last page', async () => {
      const first = await find(reader, { sort: [{ name: 'title' }], per_page: 2 });
      expect(first.search_after).toEqual([`${W} bravo`, id.bravo]);
      const last = await find(reader, {
        sort: [{ name: 'title' }],
        per_page: 2,
        search_after: first.search_after,
      });
      expect(names(last)).toEqual(['charlie']);
      expect(last.search_after).toBeNull();
    });

    it('values that do not fit the sort are a 400', async () => {
      for (const search_after of [['x'], [1, id.alpha], [`${W} a`, 'not-an-id'], [`${W} a`, id.alpha, 3]]) {
        const res = await search(reader, { query: W, sort: [{ name: 'title' }], search_after }, 400);
        expect(Object.keys(res.errors)).toEqual(['search_after']);
      }
    });
  });

  describe('facets_filters, include_fields, exclude_fields', () => {
    it('facets_filters restrict the hits; a facet’s own counts ignore its filter, the others’ apply it', async () => {
      const res = await find(reader, {
        facets_filters: [{ name: 'type', value_in: ['ASSET'] }],
        sort: [{ name: 'title' }],
      });
      expect(names(res)).toEqual(['alpha', 'charlie']);
      expect(res.total).toBe(2);
      expect(res.facets.type.buckets).toEqual([
        { key: 'ASSET', doc_count: 2 },
        { key: 'CUSTOM', doc_count: 1 },
      ]);
      expect(res.facets.status.buckets).toEqual([{ key: 'ACTIVE', doc_count: 2 }]);
      expect(res.facets.doc_type.buckets).toEqual([{ key: 'assets', doc_count: 2 }]);
      // on a field that is no facet: a filter for everything
      const cam = await find(reader, { facets_filters: [{ name: 'camera', value_in: ['Red'] }] });
      expect(names(cam)).toEqual(['bravo']);
      expect(cam.facets.type.buckets).toEqual([{ key: 'CUSTOM', doc_count: 1 }]);
    });

    it('include_fields keeps id and the named fields; exclude_fields drops fields but never id', async () => {
      const inc = await find(reader, {
        include_fields: ['title', 'metadata.camera'],
        sort: [{ name: 'title' }],
      });
      expect(inc.objects[0]).toEqual({
        id: id.alpha,
        title: `${W} alpha`,
        doc_type: 'assets',
        _highlight: { title: [`<em>${W}</em> alpha`] },
        metadata: { camera: ['Arri'] },
      });
      const exc = await find(reader, {
        exclude_fields: ['id', 'versions', 'metadata', '_highlight'],
        sort: [{ name: 'title' }],
      });
      expect(exc.objects[0]).toMatchObject({ id: id.alpha, title: `${W} alpha`, permissions: ['read'] });
      expect(exc.objects[0]).not.toHaveProperty('versions');
      expect(exc.objects[0]).not.toHaveProperty('metadata');
      expect(exc.objects[0]).not.toHaveProperty('_highlight');
    });
  });

  describe('ACL inside every answer', () => {
    it('the hidden asset is absent from the reader’s hits, totals, facets and highlights, whatever the criteria', async () => {
      const bodies: object[] = [
        {},
        { query: `${W} hidden` },
        { filter: { operator: 'and', terms: [{ name: 'type', value: 'SEQUENCE' }] } },
        {
          filter: {
            operator: 'or',
            terms: [
              { name: 'id', value: id.hidden },
              { name: 'camera', missing: false },
            ],
          },
        },
        { facets_filters: [{ name: 'type', value_in: ['SEQUENCE'] }] },
        { sort: [{ name: 'reel', order: 'desc' }], per_page: 1 },
      ];
      for (const body of bodies) {
        const res = await find(reader, body);
        expect(ids(res)).not.toContain(id.hidden);
        expect(res.facets.type.buckets.map((b) => b.key)).not.toContain('SEQUENCE');
        expect(JSON.stringify(res)).not.toContain('hidden</em>');
        expect(res.total).toBeLessThanOrEqual(3);
      }
      const owners = await find(owner, { query: `${W} hidden` });
      expect(ids(owners)).toEqual([id.hidden]);
    });
  });

  describe('hostile input: a 400 that changes nothing, or a plain answer that leaks nothing', () => {
    const deep = (n: number): object =>
      n === 0
        ? { operator: 'and', terms: [{ name: 'type', value: 'X' }] }
        : { operator: 'and', filters: [deep(n - 1)] };

    const refused: [string, object, string][] = [
      [
        'an unknown operator',
        { filter: { operator: 'xor', terms: [{ name: 'type', value: 'X' }] } },
        'filter.operator',
      ],
      [
        'a nested unknown operator',
        { filter: { operator: 'and', filters: [{ operator: 'nand' }] } },
        'filter.filters.0.operator',
      ],
      [
        'filters nested 9 levels deep',
        { filter: deep(8) },
        'filter.filters.0.filters.0.filters.0.filters.0.filters.0.filters.0.filters.0.filters.0',
      ],
      [
        'more than 100 terms in all',
        {
          filter: {
            operator: 'or',
            filters: [0, 1, 2].map(() => ({
              operator: 'or',
              terms: Array.from({ length: 40 }, (_, i) => ({ name: 'type', value: `T${i}` })),
            })),
          },
        },
        'filter',
      ],
      [
        'a huge value_in',
        {
          filter: {
            operator: 'and',
            terms: [{ name: 'type', value_in: Array.from({ length: 1001 }, (_, i) => `v${i}`) }],
          },
        },
        'filter.terms.0.value_in',
      ],
      [
        'a term without a criterion',
        { filter: { operator: 'and', terms: [{ name: 'type' }] } },
        'filter.terms.0',
      ],
      [
        'an object as a value',
        { filter: { operator: 'and', terms: [{ name: 'type', value: { $ne: 1 } }] } },
        'filter.terms.0.value',
      ],
      [
        'a date column compared with no date',
        { filter: { operator: 'and', terms: [{ name: 'date_created', range: { min: 'yesterday' } }] } },
        'filter.terms.0.range.min',
      ],
      [
        'an unknown time zone',
        {
          filter: {
            operator: 'and',
            terms: [{ name: 'shot_date', range: { min: '2026-01-01', timezone: "UTC'; --" } }],
          },
        },
        'filter.terms.0.range.timezone',
      ],
      ['an unknown sort order', { sort: [{ name: 'title', order: 'sideways' }] }, 'sort.0.order'],
      [
        'a facets filter with an object',
        { facets_filters: [{ name: 'type', value_in: [{}] }] },
        'facets_filters.0.value_in',
      ],
    ];
    it.each(refused.map(([label, body, field]) => [label, field, body] as const))(
      '%s: 400 naming %s',
      async (_label, field, body) => {
        const res = await search(owner, { query: W, ...body }, 400);
        expect(Object.keys(res.errors)).toEqual([field]);
      },
    );

    it('SQL-ish field names in terms are metadata names no asset has: no error, no leak, nothing changed', async () => {
      const names_ = [
        "type' OR '1'='1",
        'id::text) OR (1=1',
        "metadata.a'); DELETE FROM assets; --",
        '"; DROP TABLE assets; --',
      ];
      for (const name of names_) {
        expect(
          (await find(reader, { filter: { operator: 'and', terms: [{ name, value: 'x' }] } })).total,
        ).toBe(0);
        // missing: nobody has the field, so every readable asset and nothing else
        const all = await find(reader, { filter: { operator: 'and', terms: [{ name, missing: true }] } });
        expect(ids(all).sort()).toEqual([id.alpha, id.bravo, id.charlie].sort());
        await find(reader, { facets_filters: [{ name, value_in: ["' OR 1=1 --"] }] });
      }
      expect((await find(owner, {})).total).toBe(4);
    });
  });

  it('stored values PostgreSQL could not cast are no dates and no numbers: 200, never a 500', async () => {
    const W2 = `odd${randomUUID().slice(0, 8)}`;
    const view = (
      await t.http
        .post(`${META}/views/`)
        .set(owner)
        .send({ name: `odd ${W2}`, view_fields: [{ name: 'shot_date' }] })
        .expect(201)
    ).body as { id: string };
    const odd = [
      '2026-02-30',
      '2026-01-01T10:00+16:00',
      '2026-13-01',
      '0000-01-01',
      '1e99999',
      '2026-01-01T10:00+15:59',
    ];
    for (const value of odd) {
      const a = (
        await t.http
          .post(`${ASSETS}/`)
          .set(owner)
          .send({ title: `${W2} x` })
          .expect(201)
      ).body as {
        id: string;
      };
      await t.http
        .put(`${META}/assets/${a.id}/views/${view.id}/`)
        .set(owner)
        .send({ metadata_values: { shot_date: { field_values: [{ value }] } } })
        .expect(200);
    }
    const range = (min: string) =>
      search(owner, {
        query: W2,
        filter: { operator: 'and', terms: [{ name: 'shot_date', range: { min } }] },
      });
    // only the one valid date (+15:59) is a date; the others are left out, not an error
    expect((await range('2025-01-01')).total).toBe(1);
    expect((await range('0')).total).toBe(0);
    expect((await search(owner, { query: W2, sort: [{ name: 'shot_date', order: 'desc' }] })).total).toBe(6);
  });

  describe('doc_types collections, alone or beside assets', () => {
    const coll: Record<string, string> = {};
    beforeAll(async () => {
      for (const name of ['reels', 'secret']) {
        coll[name] = (
          await t.http
            .post(`${COLLECTIONS}/`)
            .set(owner)
            .send({ title: `${W} ${name}` })
            .expect(201)
        ).body.id;
      }
      await t.http
        .put(`${ACLS}/users/${readerId}/acl/collections/${coll.reels}/`)
        .set(owner)
        .send({ permissions: ['read'] })
        .expect(201);
      await t.http
        .put(`${META}/collections/${coll.reels}/`)
        .set(owner)
        .send({ metadata_values: { camera: { field_values: [{ value: 'Arri' }] } } })
        .expect(200);
    });

    it('a collection hit is the collection (as GET answers it) with doc_type and its metadata; unreadable ones are absent', async () => {
      const res = await find(reader, { doc_types: ['collections'] });
      expect(ids(res)).toEqual([coll.reels]);
      expect(res.total).toBe(1);
      expect(res.facets.doc_type.buckets).toEqual([{ key: 'collections', doc_count: 1 }]);
      expect(res.facets.type.buckets).toEqual([]);
      const got = (await t.http.get(`${COLLECTIONS}/${coll.reels}/`).set(reader).expect(200)).body;
      const { parents: _p, in_collections: _i, metadata: _m, ...own } = got;
      expect(res.objects[0]).toMatchObject({
        ...own,
        doc_type: 'collections',
        metadata: { camera: ['Arri'] },
        _highlight: { title: [`<em>${W}</em> reels`] },
      });
      expect(res.objects[0].permissions).toEqual(['read']);
      const mine = await find(owner, { doc_types: ['collections'], sort: [{ name: 'title' }] });
      expect(names(mine)).toEqual(['reels', 'secret']);
    });

    it('beside assets: one total, facets per doc_type, criteria and paging over both', async () => {
      const both = await find(reader, { doc_types: ['assets', 'collections'], sort: [{ name: 'title' }] });
      expect(names(both)).toEqual(['alpha', 'bravo', 'charlie', 'reels']);
      expect(both.total).toBe(4);
      expect(both.facets.doc_type.buckets).toEqual([
        { key: 'assets', doc_count: 3 },
        { key: 'collections', doc_count: 1 },
      ]);
      const arri = await find(reader, {
        doc_types: ['assets', 'collections'],
        filter: { operator: 'and', terms: [{ name: 'camera', value: 'Arri' }] },
        sort: [{ name: 'title' }],
      });
      expect(names(arri)).toEqual(['alpha', 'reels']);
      const only = await find(reader, {
        doc_types: ['assets', 'collections'],
        facets_filters: [{ name: 'doc_type', value_in: ['collections'] }],
      });
      expect(names(only)).toEqual(['reels']);
      expect(only.facets.doc_type.buckets).toHaveLength(2);
      const seen: string[] = [];
      let after: unknown[] | null = null;
      do {
        const page: Answer = await find(owner, {
          doc_types: ['collections', 'assets'],
          sort: [{ name: 'title', order: 'desc' }],
          per_page: 2,
          ...(after ? { search_after: after } : {}),
        });
        seen.push(...names(page));
        after = page.search_after;
      } while (after && seen.length < 20);
      expect(seen).toEqual(['secret', 'reels', 'hidden', 'charlie', 'bravo', 'alpha']);
    });

    it('a group entry on a collection applies to search, with the member’s permissions on the hit', async () => {
      const group = await t.ds
        .getRepository(GroupEntity)
        .save({ system_domain_id: t.domainId, name: `crit-${randomUUID().slice(0, 6)}`, roles: [] });
      await t.ds.getRepository(GroupMemberEntity).insert({ group_id: group.id, user_id: readerId });
      const secret = () =>
        find(reader, {
          doc_types: ['collections'],
          filter: { operator: 'and', terms: [{ name: 'id', value: coll.secret }] },
        });
      expect((await secret()).total).toBe(0);
      await t.http
        .put(`${ACLS}/groups/${group.id}/acl/collections/${coll.secret}/`)
        .set(owner)
        .send({ permissions: ['read', 'write'] })
        .expect(201);
      const found = await secret();
      expect(ids(found)).toEqual([coll.secret]);
      expect(found.objects[0].permissions).toEqual(['read', 'write']);
      await t.http
        .delete(`${ACLS}/groups/${group.id}/acl/collections/${coll.secret}/`)
        .set(owner)
        .expect(204);
      expect((await secret()).total).toBe(0);
    });

    it('a deleted collection is not found; collections need can_read_collections (403)', async () => {
      const doomed = (
        await t.http
          .post(`${COLLECTIONS}/`)
          .set(owner)
          .send({ title: `${W} doomed` })
          .expect(201)
      ).body.id;
      expect(ids(await find(owner, { doc_types: ['collections'] }))).toContain(doomed);
      await t.http.delete(`${COLLECTIONS}/${doomed}/`).set(owner).expect(204);
      expect(ids(await find(owner, { doc_types: ['collections'] }))).not.toContain(doomed);
      const assetsOnly = bearer(
        (await tokenFor(t, await createUser(t, { roles: ['can_read_assets'] }))).token,
      );
      await search(assetsOnly, { query: W, doc_types: ['assets', 'collections'] }, 403);
      expect((await search(assetsOnly, { query: W })).total).toBe(0);
    });
  });
});
