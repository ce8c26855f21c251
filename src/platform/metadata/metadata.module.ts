import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module.js';
import { AccessService } from '../../base/common/auth/access.service.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AssetMetadataController } from './asset-metadata.controller.js';
import { AssetMetadataService } from './asset-metadata.service.js';
import { FieldsController } from './fields.controller.js';
import { FieldsRepository } from './fields.repository.js';
import { FieldsService } from './fields.service.js';
import { ObjectMetadataController } from './object-metadata.controller.js';
import { ObjectMetadataService } from './object-metadata.service.js';
import { ViewsController } from './views.controller.js';
import { ViewsService } from './views.service.js';
import { MetadataRepository } from './metadata.repository.js';

/**
 * Metadata (issue 24, `/API/metadata/v1/`): the domain's field registry (issue 38), views naming its fields,
 * asset categories, and objects' values of the fields (an asset's per asset version), through a view or
 * without one. Asset access goes through the checkers AssetsModule registers. ObjectMetadataController is
 * declared last: its `{object_type}/{object_id}` routes catch what no other route of the prefix took.
 */
@Module({
  imports: [AssetsModule, EventsModule],
  controllers: [ViewsController, FieldsController, AssetMetadataController, ObjectMetadataController],
  providers: [
    ViewsService,
    FieldsService,
    AssetMetadataService,
    ObjectMetadataService,
    MetadataRepository,
    FieldsRepository,
  ],
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
