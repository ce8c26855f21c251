import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import type { WebhookDeliveryDto, WebhookDto } from './dto/webhook.dto.js';
import type { WebhookDeliveryEntity } from '../../base/model/webhook-delivery.entity.js';
import type { WebhookEventEntity } from '../../base/model/webhook-event.entity.js';
import type { WebhookEntity } from '../../base/model/webhook.entity.js';

/** A webhook as answers show it: `headers` already opened and redacted by the caller; never the secret. */
export function webhookView(w: WebhookEntity, headers: Record<string, string>): WebhookDto {
  return {
    id: w.id,
    url: w.url,
    event_type: w.event_type,
    operation: w.operation,
    realm: w.realm,
    object_id: w.object_id,
    status: w.status,
    name: w.name,
    description: w.description,
    query: w.query ?? null,
    headers,
    system_domain_id: w.system_domain_id,
    last_error: w.last_error,
    last_payload: w.last_payload ?? null,
    first_failed_at: wireDateOrNull(w.first_failed_at),
    deleted_at: wireDateOrNull(w.deleted_at),
    date_created: wireDate(w.date_created),
    date_modified: wireDate(w.date_modified),
  };
}

export function deliveryView(d: WebhookDeliveryEntity, e: WebhookEventEntity): WebhookDeliveryDto {
  return {
    id: d.id,
    webhook_id: d.webhook_id,
    event_id: d.event_id,
    event_type: e.event_type,
    realm: e.realm,
    operation: e.operation,
    object_id: e.object_id,
    request_id: e.request_id,
    status: d.status,
    attempts: d.attempts,
    response_code: d.response_code,
    duration_ms: d.duration_ms,
    error: d.error,
    next_attempt_at: d.status === 'PENDING' ? wireDate(d.next_attempt_at) : null,
    last_attempt_at: wireDateOrNull(d.last_attempt_at),
    delivered_at: wireDateOrNull(d.delivered_at),
    date_created: wireDate(d.date_created),
  };
}
