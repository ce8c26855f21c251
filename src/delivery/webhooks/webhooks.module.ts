import { provideConfig } from '../../base/config/namespace.js';
import { WEBHOOK_CONFIG } from './webhook-config.js';
import { Module } from '@nestjs/common';
import { AccessService } from '../../base/common/auth/access.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { EventsModule } from '../events/events.module.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhookWorker } from './webhook-worker.service.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';
import { WebhooksRepository } from './webhooks.repository.js';

/**
 * Webhooks (issue 12): registration and the delivery worker that runs in every instance. What they deliver is
 * queued by the features through the outbox (EventsModule); webhook changes are audited (AuditModule).
 */
@Module({
  imports: [EventsModule, AuditModule],
  controllers: [WebhooksController],
  providers: [
    provideConfig(WEBHOOK_CONFIG),
    WebhooksService,
    WebhookSecrets,
    WebhookWorker,
    WebhooksRepository,
  ],
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
