import { Injectable } from '@nestjs/common';
import { AssetsService } from '../assets/assets.service.js';
import { seesAllAssets } from '../assets/asset-acl-sql.js';
import { canonical } from '../assets/asset-permissions.js';
import { collectionView } from '../assets/collection-view.js';
import { assertRoles } from '../../base/common/auth/assert-roles.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { pageEnvelope } from '../../base/common/http/list-envelope.js';
import { ASSET_PERMISSIONS } from '../../base/model/asset-acl.entity.js';
import { AssetSearch, type CollectionHit, type SearchDocType, type SearchRequest } from './asset-search.js';
import type { SearchBodyDto, SearchHitDto, SearchQueryDto, SearchResultDto } from './dto/search.dto.js';

/**
 * POST /API/search/v1/search/: the criteria into a SearchRequest, the engine's page into objects as GET
 * answers them (plus `doc_type`, `_highlight`, `metadata`), shaped by include_fields / exclude_fields, in
 * the list envelope with facets and the next search_after.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly assets: AssetsService,
    private readonly engine: AssetSearch,
  ) {}

  async search(
    auth: AuthContext,
    body: SearchBodyDto,
    q: SearchQueryDto,
    path: string,
  ): Promise<SearchResultDto> {
    const filter = body.filter;
    const request: SearchRequest = {
      query: (body.query ?? '').trim(),
      sort: (body.sort ?? []).map((s) => ({
        name: s.name,
        order: s.order?.toLowerCase() === 'desc' ? 'desc' : 'asc',
      })),
      filter: filter && (filter.terms?.length || filter.filters?.length) ? filter : null,
      page: body.page ?? q.page ?? 1,
      perPage: body.per_page ?? q.per_page ?? 10,
      docTypes: [...new Set(body.doc_types ?? [])] as SearchDocType[],
      facetsFilters: (body.facets_filters ?? []).map((f) => ({ name: f.name, value_in: f.value_in ?? [] })),
      searchAfter: body.search_after?.length ? body.search_after : null,
    };
    // roles gate first: collections need can_read_collections (an OAuth token: collections:read) too
    if (request.docTypes?.includes('collections')) assertRoles(auth, ['can_read_collections']);
    const result = await this.engine.search(auth, request);
    // the engine's page of readable asset ids, as objects: one more statement (which checks readability
    // again); collections come with the hits
    const assetIds = result.hits.filter((h) => h.docType === 'assets').map((h) => h.id);
    const page = await this.assets.readablePage(auth, assetIds);
    const shape = shaper(body.include_fields ?? null, body.exclude_fields ?? null);
    const objects: SearchHitDto[] = result.hits.flatMap((h) => {
      if (h.collection) {
        const { metadata, ...view } = collectionObject(auth, h.collection);
        return [shape({ ...view, doc_type: 'collections', _highlight: h.highlight, metadata })];
      }
      const item = page.get(h.id);
      if (!item) return [];
      return [shape({ ...item.view, doc_type: 'assets', _highlight: h.highlight, metadata: item.metadata })];
    });
    // after search_after the page is the first after that hit: page is not used
    const envelope = pageEnvelope(
      objects,
      result.total,
      request.searchAfter ? 1 : request.page,
      request.perPage,
      path,
      {},
    );
    return {
      ...envelope,
      facets: result.facets,
      scroll_id: null,
      search_after: result.searchAfter,
    } as unknown as SearchResultDto;
  }
}

/** A collection hit as GET answers it (collection-view.ts), without parents and in_collections. */
function collectionObject(auth: AuthContext, c: CollectionHit): Record<string, unknown> & { id: string } {
  const {
    parents: _parents,
    in_collections: _inCollections,
    ...view
  } = collectionView(c, {
    permissions: seesAllAssets(auth) ? [...ASSET_PERMISSIONS] : canonical(c.permissions ?? []),
    parents: [],
    in_collections: [],
    metadata: c.metadata ?? {},
  });
  return view;
}

/**
 * include_fields: only the named fields of each hit (`metadata.<field>` keeps that metadata field), plus
 * `id`, `doc_type` and `_highlight`; exclude_fields: every field but the named ones (`metadata.<field>`
 * drops one metadata field; `id` is always kept).
 */
export function shaper(
  include: string[] | null,
  exclude: string[] | null,
): (hit: SearchHitDto) => SearchHitDto {
  const inc = include?.length ? new Set(include) : null;
  const exc = new Set(exclude ?? []);
  if (!inc && exc.size === 0) return (hit) => hit;
  const metaOf = (names: Set<string>) =>
    [...names].filter((n) => n.startsWith('metadata.')).map((n) => n.slice('metadata.'.length));
  const metaIn = inc ? metaOf(inc) : [];
  const metaOut = metaOf(exc);
  return (hit) => {
    const out: SearchHitDto = { id: hit.id };
    for (const [k, v] of Object.entries(hit)) {
      if (k === 'id') continue;
      if (
        inc &&
        !inc.has(k) &&
        k !== 'doc_type' &&
        k !== '_highlight' &&
        !(k === 'metadata' && metaIn.length)
      )
        continue;
      if (exc.has(k)) continue;
      if (k === 'metadata' && v && typeof v === 'object') {
        const fields = Object.entries(v as Record<string, unknown>).filter(
          ([f]) => !metaOut.includes(f) && (!inc || inc.has('metadata') || metaIn.includes(f)),
        );
        out[k] = Object.fromEntries(fields);
        continue;
      }
      out[k] = v;
    }
    return out;
  };
}
