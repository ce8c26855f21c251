import { Injectable } from '@nestjs/common';
import { AssetsService } from '../assets/assets.service.js';
import type { AuthContext } from '../common/auth/auth-context.js';
import { pageEnvelope } from '../common/http/list-envelope.js';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { AssetEntity } from '../assets/asset.entity.js';
import { AssetSearch, type SearchRequest } from './asset-search.js';
import type { SearchBodyDto, SearchHitDto, SearchQueryDto, SearchResultDto } from './dto/search.dto.js';

/**
 * POST /API/search/v1/search/: the request into a SearchRequest, the engine's page of ids into assets as GET
 * answers them (plus `_highlight`), in the list envelope with facets.
 */
@Injectable()
export class SearchService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly engine: AssetSearch,
    private readonly assets: AssetsService,
  ) {}

  async search(
    auth: AuthContext,
    body: SearchBodyDto,
    q: SearchQueryDto,
    path: string,
  ): Promise<SearchResultDto> {
    const request: SearchRequest = {
      query: (body.query ?? '').trim(),
      sort: (body.sort ?? []).map((s) => ({
        name: s.name as SearchRequest['sort'][number]['name'],
        order: s.order === 'desc' ? 'desc' : 'asc',
      })),
      filter: body.filter?.terms?.length
        ? { operator: body.filter.operator === 'or' ? 'or' : 'and', terms: body.filter.terms }
        : null,
      page: body.page ?? q.page ?? 1,
      perPage: body.per_page ?? q.per_page ?? 10,
    };
    const result = await this.engine.search(auth, request);
    const ids = result.hits.map((h) => h.id);
    const rows = ids.length ? await this.ds.getRepository(AssetEntity).findBy({ id: In(ids) }) : [];
    const views = new Map((await this.assets.views(this.ds.manager, auth, rows)).map((v) => [v.id, v]));
    const metadata = await this.metadata(ids);
    const objects: SearchHitDto[] = result.hits
      .filter((h) => views.has(h.id))
      .map((h) => ({ ...views.get(h.id)!, _highlight: h.highlight, metadata: metadata.get(h.id) ?? {} }));
    const envelope = pageEnvelope(objects, result.total, request.page, request.perPage, path, {});
    return { ...envelope, facets: result.facets, scroll_id: null } as unknown as SearchResultDto;
  }

  /** The current version's metadata of each asset of the page: field → its values. */
  private async metadata(ids: string[]): Promise<Map<string, Record<string, unknown[]>>> {
    if (ids.length === 0) return new Map();
    const rows: { asset_id: string; field_name: string; values: unknown[] }[] = await this.ds.query(
      `SELECT mv.asset_id, mv.field_name,
              (SELECT coalesce(jsonb_agg(e.item -> 'value'), '[]'::jsonb) FROM jsonb_array_elements(mv.field_values) AS e(item)) AS values
         FROM metadata_values mv JOIN assets a ON a.id = mv.asset_id AND a.current_version_id = mv.version_id
        WHERE mv.asset_id = ANY($1::uuid[])
        ORDER BY mv.field_name`,
      [ids],
    );
    const out = new Map<string, Record<string, unknown[]>>();
    for (const r of rows) out.set(r.asset_id, { ...out.get(r.asset_id), [r.field_name]: r.values });
    return out;
  }
}
