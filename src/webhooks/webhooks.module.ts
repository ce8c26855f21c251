import { Module } from '@nestjs/common';
import { AccessService } from '../common/auth/access.service.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import { WebhookEventsService } from './webhook-events.service.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhookWorker } from './webhook-worker.service.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';
import { WebhooksRepository } from './webhooks.repository.js';

/**
 * Webhooks (issue 12): registration, the transactional outbox (`WebhookEventsService.record(em, event)`,
 * exported for the features that emit events) and the delivery worker that runs in every instance. Also
 * provides the audit trail's writer (`AuditService`, src/audit): each record is a webhook event too.
 */
@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookEventsService,
    WebhookSecrets,
    WebhookWorker,
    WebhooksRepository,
    AuditService,
    AuditRepository,
  ],
  exports: [WebhookEventsService, AuditService],
})
export class WebhooksModule {
  constructor(access: AccessService) {
    access.registerQuery(
      'webhook',
      'Webhook',
      "SELECT id FROM webhooks WHERE id = ANY($1::uuid[]) AND system_domain_id = $2 AND status <> 'DELETED'",
    );
  }
}
