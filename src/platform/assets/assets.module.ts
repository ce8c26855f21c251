import { Module } from '@nestjs/common';
import { AccessService } from '../../base/common/auth/access.service.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AclsController } from './acls.controller.js';
import { AclsService } from './acls.service.js';
import { registerAssetAccess } from './asset-access.js';
import { AssetPermissionsService } from './asset-permissions.js';
import { AssetsController } from './assets.controller.js';
import { AssetsRepository } from './assets.repository.js';
import { AssetsService } from './assets.service.js';
import { registerCollectionAccess } from './collection-access.js';
import { CollectionAclsController } from './collection-acls.controller.js';
import { CollectionAclsRepository } from './collection-acls.repository.js';
import { CollectionAclsService } from './collection-acls.service.js';
import { CollectionContentsController } from './collection-contents.controller.js';
import { CollectionContentsService } from './collection-contents.service.js';
import { CollectionEvents } from './collection-events.js';
import { CollectionPermissionsService } from './collection-permissions.js';
import { CollectionQueueController } from './collection-queue.controller.js';
import { CollectionQueueService } from './collection-queue.service.js';
import { CollectionsController } from './collections.controller.js';
import { CollectionsRepository } from './collections.repository.js';
import { CollectionsService } from './collections.service.js';

/**
 * Assets (issue 24) and collections (issue 38): `/API/assets/v1/assets/`, `/API/assets/v1/collections/`
 * and the delete queue of collections, and their entity ACLs under `/API/acls/v1/`. Registers the access
 * checkers of assets and collections (one per permission, see asset-access.ts and collection-access.ts);
 * exports the services the metadata and search modules build on.
 */
@Module({
  imports: [EventsModule, AuditModule],
  controllers: [
    AssetsController,
    AclsController,
    CollectionsController,
    CollectionContentsController,
    CollectionQueueController,
    CollectionAclsController,
  ],
  providers: [
    AssetsService,
    AclsService,
    AssetPermissionsService,
    AssetsRepository,
    CollectionsService,
    CollectionContentsService,
    CollectionQueueService,
    CollectionAclsService,
    CollectionPermissionsService,
    CollectionEvents,
    CollectionsRepository,
    CollectionAclsRepository,
  ],
  exports: [AssetsService, AssetPermissionsService, CollectionsService, CollectionPermissionsService],
})
export class AssetsModule {
  constructor(
    access: AccessService,
    permissions: AssetPermissionsService,
    collectionPermissions: CollectionPermissionsService,
  ) {
    registerAssetAccess(access, permissions);
    registerCollectionAccess(access, collectionPermissions);
  }
}
