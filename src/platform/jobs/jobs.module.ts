import { Module } from '@nestjs/common';
import { AccessService } from '../../base/common/auth/access.service.js';
import { registerJobAccess } from './job-access.js';
import { JobsController } from './jobs.controller.js';
import { JobsRepository } from './jobs.repository.js';
import { JobsService } from './jobs.service.js';

/** Jobs (issue 20): `/API/jobs/v1/jobs/`. Exports JobsService: the files module starts KEYFRAMES jobs. */
@Module({
  controllers: [JobsController],
  providers: [JobsService, JobsRepository],
  exports: [JobsService],
})
export class JobsModule {
  constructor(access: AccessService, repo: JobsRepository) {
    registerJobAccess(access, repo);
  }
}
