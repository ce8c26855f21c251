import { Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessService } from '../common/auth/access.service.js';
import { registerJobAccess } from './job-access.js';
import { JobsController } from './jobs.controller.js';
import { JobsService } from './jobs.service.js';

/** Jobs (issue 20): `/API/jobs/v1/jobs/`. Exports JobsService: the files module starts KEYFRAMES jobs. */
@Module({
  controllers: [JobsController],
  providers: [JobsService],
  exports: [JobsService],
})
export class JobsModule {
  constructor(access: AccessService, @InjectDataSource() ds: DataSource) {
    registerJobAccess(access, (sql, params) => ds.query(sql, params));
  }
}
