import { provideConfig } from '../../base/config/namespace.js';
import { FILES_CONFIG } from './files-config.js';
import { Module } from '@nestjs/common';
import { AssetPermissionsService } from '../assets/asset-permissions.js';
import { AssetsModule } from '../assets/assets.module.js';
import { AccessService } from '../../base/common/auth/access.service.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { ByteStores } from './byte-stores.js';
import { DownloadService } from './download.service.js';
import { registerFileAccess } from './file-access.js';
import { FileLinks } from './file-links.js';
import { FilesController } from './files.controller.js';
import { FileListsController } from './file-lists.controller.js';
import { FilesService } from './files.service.js';
import { FilesWorker } from './files.worker.js';
import { FormatsController } from './formats.controller.js';
import { FormatsService } from './formats.service.js';
import { KeyframesService } from './keyframes.service.js';
import { StoragesController } from './storages.controller.js';
import { StoragesService } from './storages.service.js';
import { TransferController } from './transfer.controller.js';
import { UploadDigests } from './upload-digests.js';
import { UploadService } from './upload.service.js';
import { FilesRepository } from './files.repository.js';
import { UploadRepository } from './upload.repository.js';
import { StoragesRepository } from './storages.repository.js';
import { FormatsRepository } from './formats.repository.js';
import { ProxiesController } from './proxies.controller.js';
import { ProxiesRepository } from './proxies.repository.js';
import { ProxiesService } from './proxies.service.js';

/**
 * Files (issue 20): storages, formats, file sets and files under `/API/files/v1/`, the signed resumable
 * upload and downloads, keyframes, and the files worker (keyframes, byte removal). The asset's ACL governs
 * everything under `assets/{asset_id}/`.
 */
@Module({
  imports: [AssetsModule, JobsModule],
  controllers: [
    StoragesController,
    FormatsController,
    FilesController,
    TransferController,
    FileListsController,
    ProxiesController,
  ],
  providers: [
    provideConfig(FILES_CONFIG),
    ByteStores,
    FileLinks,
    StoragesService,
    FormatsService,
    FilesService,
    UploadService,
    UploadDigests,
    DownloadService,
    KeyframesService,
    FilesWorker,
    FilesRepository,
    UploadRepository,
    StoragesRepository,
    FormatsRepository,
    ProxiesService,
    ProxiesRepository,
  ],
})
export class FilesModule {
  constructor(access: AccessService, permissions: AssetPermissionsService, repo: FilesRepository) {
    registerFileAccess(access, permissions, repo);
  }
}
