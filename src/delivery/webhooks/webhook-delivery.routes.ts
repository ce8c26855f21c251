import { Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { DeliveryListQueryDto, WebhookDeliveryDto, WebhookDeliveryListDto } from './dto/webhook.dto.js';
import type { WebhooksService } from './webhooks.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const deliveryUuid = new UuidParamPipe('Webhook delivery');
/** Domain administrators only, reads included: urls and headers describe the domain's receivers. */
export const admin = { admin: true } as const;
export const webhookAccess = { admin: true, access: { entity: 'webhook' as const, param: 'webhook_id' } };

/**
 * The delivery routes of `WebhooksController`, which extends this class: Nest registers a controller's own
 * routes first and inherited ones after, so the route order and the route-policy keys
 * (`<Controller>.<method>`) stay as they were.
 */
export abstract class WebhookDeliveryRoutes {
  protected abstract readonly webhooks: WebhooksService;

  @Route.get(':webhook_id/deliveries', {
    summary:
      'The webhook’s delivery log: one entry per event, with its latest attempt (page style; filter status; ' +
      'sort on date_created, status, last_attempt_at; newest first)',
    policy: webhookAccess,
    ok: WebhookDeliveryListDto,
    errors: [404],
  })
  listWebhookDeliveries(
    @Param('webhook_id', uuid) id: string,
    @Query() q: DeliveryListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<WebhookDeliveryListDto> {
    return this.webhooks.deliveries(caller, id, q, req.path);
  }

  @Route.post(':webhook_id/deliveries/:delivery_id/replay', {
    summary: 'Queue one delivery again, due now (same webhook-id, so receivers can deduplicate)',
    policy: webhookAccess,
    accepted: { type: WebhookDeliveryDto, description: 'Queued; the worker sends it shortly' },
    errors: [{ 404: 'No such webhook or delivery', 409: 'The webhook is DISABLED' }],
  })
  replayWebhookDelivery(
    @Param('webhook_id', uuid) id: string,
    @Param('delivery_id', deliveryUuid) deliveryId: string,
    @Caller() caller: AuthContext,
  ): Promise<WebhookDeliveryDto> {
    return this.webhooks.replay(caller, id, deliveryId);
  }
}
