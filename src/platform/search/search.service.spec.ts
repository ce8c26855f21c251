import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AssetPageItem } from '../assets/asset-page.js';
import type { AssetDto } from '../assets/dto/asset.dto.js';
import { type SearchRequest, type SearchResult } from './asset-search.js';
import type { SearchBodyDto, SearchQueryDto } from './dto/search.dto.js';
import { SearchService, shaper } from './search.service.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const auth = {
  userId: 'u1',
  systemDomainId: 'd1',
  kind: 'LOGIN',
  roles: new Set(['can_read_assets', 'can_read_collections']),
} as unknown as AuthContext;
const PATH = '/API/search/v1/search/';
const FACETS = { type: { buckets: [], doc_count_error_upper_bound: 0, sum_other_doc_count: 0 } };
const item = (id: string): AssetPageItem => ({
  view: { id, title: id, permissions: ['read'] } as unknown as AssetDto,
  metadata: { keywords: ['k'] },
});

function setup(result: SearchResult, page: Map<string, AssetPageItem>) {
  const engine = { search: jest.fn(async (_a: AuthContext, _r: SearchRequest) => result) };
  const assets = { readablePage: jest.fn(async () => page) };
  const service = construct(SearchService, assets, engine);
  return { service, engine, assets };
}

const search = (s: ReturnType<typeof setup>, body: object, q: object = {}) =>
  s.service.search(auth, body as SearchBodyDto, q as SearchQueryDto, PATH);

describe('SearchService', () => {
  it('the body into the engine’s request: trimmed text, sort orders, a filter only with terms, the page', async () => {
    const s = setup({ hits: [], total: 0, facets: {}, searchAfter: null }, new Map());
    await search(s, {
      query: '  boats ',
      sort: [{ name: 'title', order: 'desc' }, { name: 'date_created' }],
      filter: { operator: 'or', terms: [{ name: 'type', value: 'ASSET' }] },
      page: 3,
      per_page: 5,
    });
    expect(s.engine.search).toHaveBeenCalledWith(auth, {
      query: 'boats',
      sort: [
        { name: 'title', order: 'desc' },
        { name: 'date_created', order: 'asc' },
      ],
      filter: { operator: 'or', terms: [{ name: 'type', value: 'ASSET' }] },
      page: 3,
      perPage: 5,
      docTypes: [],
      facetsFilters: [],
      searchAfter: null,
    });
  });

  it('defaults: every readable asset, no filter (an empty one too), AND, page 1 of 10 unless the query string says', async () => {
    const s = setup({ hits: [], total: 0, facets: {}, searchAfter: null }, new Map());
    await search(s, { query: null, filter: { terms: [] } });
    expect(s.engine.search).toHaveBeenLastCalledWith(auth, {
      query: '',
      sort: [],
      filter: null,
      page: 1,
      perPage: 10,
      docTypes: [],
      facetsFilters: [],
      searchAfter: null,
    });
    await search(s, { filter: { terms: [{ name: 'type', value: 'X' }] } }, { page: 2, per_page: 50 });
    expect(s.engine.search).toHaveBeenLastCalledWith(
      auth,
      expect.objectContaining({
        filter: { terms: [{ name: 'type', value: 'X' }] },
        page: 2,
        perPage: 50,
      }),
    );
  });

  it('hits in the engine’s order as assets with their highlights and metadata; one the page no longer reads is left out', async () => {
    const s = setup(
      {
        hits: [
          { id: 'a2', docType: 'assets', highlight: { title: ['<em>a2</em>'] } },
          { id: 'gone', docType: 'assets', highlight: {} },
          { id: 'a1', docType: 'assets', highlight: {} },
        ],
        total: 3,
        facets: FACETS,
        searchAfter: ['x', 'a1'],
      },
      new Map([
        ['a1', item('a1')],
        ['a2', item('a2')],
      ]),
    );
    const out = await search(s, { query: 'a', per_page: 3 });
    expect(s.assets.readablePage).toHaveBeenCalledWith(auth, ['a2', 'gone', 'a1']);
    expect(out.objects.map((o) => [o.id, o._highlight])).toEqual([
      ['a2', { title: ['<em>a2</em>'] }],
      ['a1', {}],
    ]);
    expect(out.objects[0]).toMatchObject({ permissions: ['read'], metadata: { keywords: ['k'] } });
    // the total and the facets are the engine's (counted over what the caller may read)
    expect(out).toMatchObject({
      total: 3,
      page: 1,
      per_page: 3,
      facets: FACETS,
      scroll_id: null,
      search_after: ['x', 'a1'],
    });
    expect(out.objects[0]).toMatchObject({ doc_type: 'assets' });
  });

  it('include_fields keeps id, doc_type, _highlight and the named fields; exclude_fields drops fields, never id', () => {
    const hit = {
      id: 'a1',
      title: 't',
      status: 'ACTIVE',
      doc_type: 'assets',
      _highlight: {},
      metadata: { camera: ['x'], location: ['y'] },
    };
    expect(shaper(['title'], null)(hit)).toEqual({
      id: 'a1',
      title: 't',
      doc_type: 'assets',
      _highlight: {},
    });
    expect(shaper(['metadata.camera'], null)(hit)).toEqual({
      id: 'a1',
      doc_type: 'assets',
      _highlight: {},
      metadata: { camera: ['x'] },
    });
    expect(shaper(null, ['id', 'title', 'metadata.location', '_highlight'])(hit)).toEqual({
      id: 'a1',
      status: 'ACTIVE',
      doc_type: 'assets',
      metadata: { camera: ['x'] },
    });
    expect(shaper([], [])(hit)).toBe(hit);
  });

  it('a collection hit comes from the engine (no asset statement for it), as CollectionSchema', async () => {
    const s = setup(
      {
        hits: [
          {
            id: 'c1',
            docType: 'collections',
            highlight: {},
            collection: {
              id: 'c1',
              system_domain_id: 'd1',
              title: 'Reel',
              status: 'ACTIVE',
              category: null,
              external_id: null,
              custom_order_status: 'DISABLED',
              parent_id: null,
              created_by_user: 'u1',
              deleted_by_user: null,
              date_created: '2026-11-29T03:00:00.123456+00:00',
              date_modified: '2026-11-29T03:00:00.123456+00:00',
              date_deleted: null,
              permissions: ['write', 'read'],
              metadata: null,
            },
          },
        ],
        total: 1,
        facets: FACETS,
        searchAfter: null,
      },
      new Map(),
    );
    const out = await search(s, { doc_types: ['collections'] });
    expect(s.assets.readablePage).toHaveBeenCalledWith(auth, []);
    const noRole = { ...auth, roles: new Set(['can_read_assets']) } as unknown as AuthContext;
    await expect(
      s.service.search(noRole, { doc_types: ['collections'] } as SearchBodyDto, {} as SearchQueryDto, PATH),
    ).rejects.toMatchObject({ status: 403 });
    expect(out.objects[0]).toMatchObject({
      id: 'c1',
      doc_type: 'collections',
      object_type: 'collection',
      is_root: true,
      permissions: ['read', 'write'],
      metadata: {},
      date_created: '2026-11-29T03:00:00.123000+00:00',
    });
  });
});
