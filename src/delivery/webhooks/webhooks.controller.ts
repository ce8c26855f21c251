import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  CreateWebhookDto,
  DeliveryListQueryDto,
  UpdateWebhookDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookDto,
  WebhookListDto,
  WebhookListQueryDto,
  WebhookWithSecretDto,
} from './dto/webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';
import { Route } from '../../base/common/http/route.js';

/** Domain administrators only, reads included: urls and headers describe the domain's receivers. */
const admin = { admin: true } as const;
const webhookAccess = { admin: true, access: { entity: 'webhook' as const, param: 'webhook_id' } };
const UPDATE = 'Update a webhook (any subset of the fields; ENABLED clears its failure count)';
const id = input.uuidParam('webhook_id');

const edit = PutAndPatch({
  path: ':webhook_id',
  policy: webhookAccess,
  ok: WebhookDto,
  errors: [404],
  put: `${UPDATE}. The same as PATCH`,
  patch: UPDATE,
});
const webhooks = ServiceRoutes<WebhooksService>('webhooks');

/**
 * Webhooks of the caller's domain, at the platform's path and at the older alias (one controller, two
 * mounts: the same routes, policies and answers). Thin: the rules live in WebhooksService.
 */
@ApiTags('webhooks')
@ApiErrors(400)
@Controller(['API/notifications/v1/webhooks', 'API/webhooks/v1/webhooks'])
export class WebhooksController extends webhooks.handlers({
  listWebhooks: webhooks.call(
    'list',
    Route.get({
      summary:
        'Webhooks of the caller’s domain, deleted ones excluded (page style; filters status, event_type; sort on ' +
        'date_created, date_modified, name, event_type, status, url)',
      policy: admin,
      ok: WebhookListDto,
    }),
    input.caller,
    input.query(WebhookListQueryDto),
    input.path,
  ),
  createWebhook: webhooks.call(
    'create',
    Route.post({
      summary: 'Register a webhook; the answer carries its signing secret, shown this once',
      policy: admin,
      created: WebhookWithSecretDto,
    }),
    input.caller,
    input.body(CreateWebhookDto),
  ),
  getWebhook: webhooks.call(
    'get',
    Route.get(':webhook_id', {
      summary: 'One webhook (never its secret; credential-like header values redacted)',
      policy: webhookAccess,
      ok: WebhookDto,
      errors: [404],
    }),
    input.caller,
    id,
  ),
  updateWebhook: webhooks.call('update', edit.patch, input.caller, id, input.body(UpdateWebhookDto)),
  deleteWebhook: webhooks.call(
    'remove',
    Route.delete(':webhook_id', {
      summary: 'Delete a webhook (soft: status DELETED; deliveries stop, and it answers 404 from then on)',
      policy: webhookAccess,
      noContent: 'Deleted',
      errors: [404],
    }),
    input.caller,
    id,
  ),
  rotateWebhookSecret: webhooks.call(
    'rotateSecret',
    Route.post(':webhook_id/secret/rotate', {
      summary:
        'Replace the signing secret; the answer carries the new one, shown this once (the old one stops at once)',
      policy: webhookAccess,
      ok: WebhookWithSecretDto,
      errors: [404],
    }),
    input.caller,
    id,
  ),
  replaceWebhook: webhooks.call('update', edit.put, input.caller, id, input.body(UpdateWebhookDto)),
  listWebhookDeliveries: webhooks.call(
    'deliveries',
    Route.get(':webhook_id/deliveries', {
      summary:
        'The webhook’s delivery log: one entry per event, with its latest attempt (page style; filter status; ' +
        'sort on date_created, status, last_attempt_at; newest first)',
      policy: webhookAccess,
      ok: WebhookDeliveryListDto,
      errors: [404],
    }),
    input.caller,
    id,
    input.query(DeliveryListQueryDto),
    input.path,
  ),
  replayWebhookDelivery: webhooks.call(
    'replay',
    Route.post(':webhook_id/deliveries/:delivery_id/replay', {
      summary: 'Queue one delivery again, due now (same webhook-id, so receivers can deduplicate)',
      policy: webhookAccess,
      accepted: { type: WebhookDeliveryDto, description: 'Queued; the worker sends it shortly' },
      errors: [{ 404: 'No such webhook or delivery', 409: 'The webhook is DISABLED' }],
    }),
    input.caller,
    id,
    input.uuidParam('delivery_id', 'Webhook delivery'),
  ),
}) {
  constructor(protected readonly webhooks: WebhooksService) {
    super();
  }
}
