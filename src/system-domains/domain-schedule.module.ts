import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { DomainScheduleWorker } from './domain-schedule.worker.js';
import { SystemDomainsModule } from './system-domains.module.js';

/** The job that carries out passed freeze and deactivation dates (every instance runs it; see the worker). */
@Module({
  imports: [WebhooksModule, SystemDomainsModule],
  providers: [DomainScheduleWorker],
  exports: [DomainScheduleWorker],
})
export class DomainScheduleModule {}
