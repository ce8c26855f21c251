import { provideConfig } from '../../base/config/namespace.js';
import { DOMAIN_SCHEDULE_CONFIG } from './system-domains-config.js';
import { Module } from '@nestjs/common';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { DomainScheduleWorker } from './domain-schedule.worker.js';
import { SystemDomainsModule } from './system-domains.module.js';

/** The job that carries out passed freeze and deactivation dates (every instance runs it; see the worker). */
@Module({
  imports: [EventsModule, AuditModule, SystemDomainsModule],
  providers: [provideConfig(DOMAIN_SCHEDULE_CONFIG), DomainScheduleWorker],
  exports: [DomainScheduleWorker],
})
export class DomainScheduleModule {}
