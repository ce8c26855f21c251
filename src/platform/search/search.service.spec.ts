import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AssetPageItem } from '../assets/asset-page.js';
import type { AssetsService } from '../assets/assets.service.js';
import type { AssetDto } from '../assets/dto/asset.dto.js';
import { AssetSearch, type SearchRequest, type SearchResult } from './asset-search.js';
import type { SearchBodyDto, SearchQueryDto } from './dto/search.dto.js';
import { SearchService } from './search.service.js';

const auth = { userId: 'u1', systemDomainId: 'd1' } as AuthContext;
const PATH = '/API/search/v1/search/';
const FACETS = { type: { buckets: [], doc_count_error_upper_bound: 0, sum_other_doc_count: 0 } };
const item = (id: string): AssetPageItem => ({
  view: { id, title: id, permissions: ['read'] } as unknown as AssetDto,
  metadata: { keywords: ['k'] },
});

function setup(result: SearchResult, page: Map<string, AssetPageItem>) {
  const engine = { search: jest.fn(async (_a: AuthContext, _r: SearchRequest) => result) };
  const assets = { readablePage: jest.fn(async () => page) };
  const service = new SearchService(assets as unknown as AssetsService, engine as unknown as AssetSearch);
  return { service, engine, assets };
}

const search = (s: ReturnType<typeof setup>, body: object, q: object = {}) =>
  s.service.search(auth, body as SearchBodyDto, q as SearchQueryDto, PATH);

describe('SearchService', () => {
  it('the body into the engine’s request: trimmed text, sort orders, a filter only with terms, the page', async () => {
    const s = setup({ hits: [], total: 0, facets: {} }, new Map());
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
    });
  });

  it('defaults: every readable asset, no filter (an empty one too), AND, page 1 of 10 unless the query string says', async () => {
    const s = setup({ hits: [], total: 0, facets: {} }, new Map());
    await search(s, { query: null, filter: { terms: [] } });
    expect(s.engine.search).toHaveBeenLastCalledWith(auth, {
      query: '',
      sort: [],
      filter: null,
      page: 1,
      perPage: 10,
    });
    await search(s, { filter: { terms: [{ name: 'type', value: 'X' }] } }, { page: 2, per_page: 50 });
    expect(s.engine.search).toHaveBeenLastCalledWith(
      auth,
      expect.objectContaining({
        filter: { operator: 'and', terms: [{ name: 'type', value: 'X' }] },
        page: 2,
        perPage: 50,
      }),
    );
  });

  it('hits in the engine’s order as assets with their highlights and metadata; one the page no longer reads is left out', async () => {
    const s = setup(
      {
        hits: [
          { id: 'a2', highlight: { title: ['<em>a2</em>'] } },
          { id: 'gone', highlight: {} },
          { id: 'a1', highlight: {} },
        ],
        total: 3,
        facets: FACETS,
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
    expect(out).toMatchObject({ total: 3, page: 1, per_page: 3, facets: FACETS, scroll_id: null });
  });
});
