import { Injectable } from '@nestjs/common';
import { AssetsService } from '../assets/assets.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { pageEnvelope } from '../../base/common/http/list-envelope.js';
import { AssetSearch, type SearchRequest } from './asset-search.js';
import type { SearchBodyDto, SearchHitDto, SearchQueryDto, SearchResultDto } from './dto/search.dto.js';

/**
 * POST /API/search/v1/search/: the request into a SearchRequest, the engine's page of ids into assets as GET
 * answers them (plus `_highlight`), in the list envelope with facets.
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
    // the engine's page of readable ids, as objects: one more statement (which checks readability again)
    const page = await this.assets.readablePage(
      auth,
      result.hits.map((h) => h.id),
    );
    const objects: SearchHitDto[] = result.hits.flatMap((h) => {
      const item = page.get(h.id);
      return item ? [{ ...item.view, _highlight: h.highlight, metadata: item.metadata }] : [];
    });
    const envelope = pageEnvelope(objects, result.total, request.page, request.perPage, path, {});
    return { ...envelope, facets: result.facets, scroll_id: null } as unknown as SearchResultDto;
  }
}
