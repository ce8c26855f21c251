import { Body, Controller, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { SearchBodyDto, SearchQueryDto, SearchResultDto } from './dto/search.dto.js';
import { SearchService } from './search.service.js';
import { Route } from '../../base/common/http/route.js';

@ApiTags('search')
@Controller('API/search/v1/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Route.post({
    summary:
      'Search the assets (and collections) the caller may read by words of their titles and metadata values and by the criteria (filter, sort, facets_filters, search_after); the list envelope with facets and search_after, each object with doc_type and _highlight',
    policy: { roles: ['can_read_assets'] },
    ok: SearchResultDto,
    errors: [400],
  })
  searchAssets(
    @Body() body: SearchBodyDto,
    @Query() q: SearchQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<SearchResultDto> {
    return this.search.search(caller, body, q, req.path);
  }
}
