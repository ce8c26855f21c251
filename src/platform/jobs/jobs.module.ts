import { Module } from '@nestjs/common';
import { AccessService } from '../../base/common/auth/access.service.js';
import { registerJobAccess } from './job-access.js';
import { JobsBulkController } from './jobs-bulk.controller.js';
import { JobsBulkService } from './jobs-bulk.service.js';
import { JobsController } from './jobs.controller.js';
import { JobsRepository } from './jobs.repository.js';
import { JobsService } from './jobs.service.js';

/**
 * Jobs (issues 20, 38): `/API/jobs/v1/jobs/`. Exports JobsService: the files module starts KEYFRAMES jobs.
 * The bulk routes' controller comes first, so `priority/` and `state/` are not read as a job's id.
 */
@Module({
  controllers: [JobsBulkController, JobsController],
  providers: [JobsService, JobsBulkService, JobsRepository],
  exports: [JobsService],
})
export class JobsModule {
  constructor(access: AccessService, repo: JobsRepository) {
    registerJobAccess(access, repo);
  }
}
