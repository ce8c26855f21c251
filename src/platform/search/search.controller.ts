import { Body, Controller, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { SearchBodyDto, SearchQueryDto, SearchResultDto } from './dto/search.dto.js';
import { SearchService } from './search.service.js';

@ApiTags('search')
@Controller('API/search/v1/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Post()
  @HttpCode(200)
  @Authenticated({ roles: ['can_read_assets'] })
  @ApiOperation({
    summary:
      'Search the assets (and collections) the caller may read by words of their titles and metadata values and by the criteria (filter, sort, facets_filters, search_after); the list envelope with facets and search_after, each object with doc_type and _highlight',
  })
  @ApiOkResponse({ type: SearchResultDto })
  @ApiErrors(400)
  searchAssets(
    @Body() body: SearchBodyDto,
    @Query() q: SearchQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<SearchResultDto> {
    return this.search.search(caller, body, q, req.path);
  }
}
