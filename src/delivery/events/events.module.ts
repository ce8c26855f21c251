import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository.js';
import { WebhookEventsService } from './webhook-events.service.js';

/**
 * The transactional outbox of webhook events (`WebhookEventsService.record(em, event)`), for every feature
 * that emits events, the audit trail included; WebhooksModule registers webhooks and delivers what is queued.
 */
@Module({
  providers: [WebhookEventsService, EventsRepository],
  exports: [WebhookEventsService],
})
export class EventsModule {}
