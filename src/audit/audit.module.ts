import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller.js';
import { AuditQueryService } from './audit-query.service.js';
import { AuditRetentionWorker } from './audit-retention.worker.js';
import { AuditRepository } from './audit.repository.js';

/**
 * The audit trail's read API and its retention. Records are written by `AuditService`, which WebhooksModule
 * provides and exports (every record is also a webhook event, and WebhooksModule itself records webhook
 * changes), so a feature that audits imports WebhooksModule, as it does to emit events.
 */
@Module({
  controllers: [AuditController],
  providers: [AuditQueryService, AuditRetentionWorker, AuditRepository],
})
export class AuditModule {}
