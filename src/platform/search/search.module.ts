import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module.js';
import { AssetSearch } from './asset-search.js';
import { PostgresAssetSearch } from './postgres-asset-search.js';
import { SearchController } from './search.controller.js';
import { SearchService } from './search.service.js';
import { SearchRepository } from './search.repository.js';

/**
 * Search (issue 24, POST /API/search/v1/search/). The engine is bound here, behind the AssetSearch seam:
 * PostgreSQL full-text search today. A page of hits becomes assets through AssetsService.
 */
@Module({
  imports: [AssetsModule],
  controllers: [SearchController],
  providers: [SearchService, SearchRepository, { provide: AssetSearch, useClass: PostgresAssetSearch }],
})
export class SearchModule {}
