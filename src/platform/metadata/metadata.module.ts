import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module.js';
import { AccessService } from '../../base/common/auth/access.service.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AssetMetadataController } from './asset-metadata.controller.js';
import { AssetMetadataService } from './asset-metadata.service.js';
import { ViewsController } from './views.controller.js';
import { ViewsService } from './views.service.js';
import { MetadataRepository } from './metadata.repository.js';

/**
 * Metadata (issue 24, `/API/metadata/v1/`): views, asset categories, and the values of an asset's fields
 * per asset version. Asset access goes through the checkers AssetsModule registers.
 */
@Module({
  imports: [AssetsModule, EventsModule],
  controllers: [ViewsController, AssetMetadataController],
  providers: [ViewsService, AssetMetadataService, MetadataRepository],
})
export class MetadataModule {
  constructor(access: AccessService) {
    // 404 "View not found", as the service's own
    access.registerQuery(
      'metadata-view',
      'View',
      'SELECT id FROM metadata_views WHERE id = ANY($1::uuid[]) AND system_domain_id = $2',
    );
  }
}
