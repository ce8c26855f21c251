import { Module } from '@nestjs/common';
import { AccessService } from '../../base/common/auth/access.service.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AclsController } from './acls.controller.js';
import { AclsService } from './acls.service.js';
import { registerAssetAccess } from './asset-access.js';
import { AssetPermissionsService } from './asset-permissions.js';
import { AssetsController } from './assets.controller.js';
import { AssetsRepository } from './assets.repository.js';
import { AssetsService } from './assets.service.js';

/**
 * Assets (issue 24): `/API/assets/v1/assets/` and their entity ACLs under `/API/acls/v1/`. Registers the
 * access checkers of assets (one per permission, see asset-access.ts); exports the services the metadata
 * and search modules build on.
 */
@Module({
  imports: [EventsModule],
  controllers: [AssetsController, AclsController],
  providers: [AssetsService, AclsService, AssetPermissionsService, AssetsRepository],
  exports: [AssetsService, AssetPermissionsService],
})
export class AssetsModule {
  constructor(access: AccessService, permissions: AssetPermissionsService) {
    registerAssetAccess(access, permissions);
  }
}
