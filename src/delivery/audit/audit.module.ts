import { provideConfig } from '../../base/config/namespace.js';
import { AUDIT_CONFIG } from './audit-config.js';
import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller.js';
import { AuditQueryService } from './audit-query.service.js';
import { AuditRetentionWorker } from './audit-retention.worker.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';
import { EventsModule } from '../events/events.module.js';

/**
 * The audit trail: its writer (`AuditService`, exported: a feature that audits imports this module), the read
 * API and the retention worker. Every record is also a webhook event, queued through the outbox (EventsModule).
 */
@Module({
  imports: [EventsModule],
  controllers: [AuditController],
  providers: [
    provideConfig(AUDIT_CONFIG),
    AuditService,
    AuditQueryService,
    AuditRetentionWorker,
    AuditRepository,
  ],
  exports: [AuditService],
})
export class AuditModule {}
