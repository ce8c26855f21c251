import { Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { DeliveryListQueryDto, WebhookDeliveryDto, WebhookDeliveryListDto } from './dto/webhook.dto.js';
import type { WebhooksService } from './webhooks.service.js';

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

  @Get(':webhook_id/deliveries')
  @Authenticated(webhookAccess)
  @ApiOperation({
    summary:
      'The webhook’s delivery log: one entry per event, with its latest attempt (page style; filter status; ' +
      'sort on date_created, status, last_attempt_at; newest first)',
  })
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  @ApiErrors(404)
  listWebhookDeliveries(
    @Param('webhook_id', uuid) id: string,
    @Query() q: DeliveryListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<WebhookDeliveryListDto> {
    return this.webhooks.deliveries(caller, id, q, req.path);
  }

  @Post(':webhook_id/deliveries/:delivery_id/replay')
  @HttpCode(202)
  @Authenticated(webhookAccess)
  @ApiOperation({
    summary: 'Queue one delivery again, due now (same webhook-id, so receivers can deduplicate)',
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryDto, description: 'Queued; the worker sends it shortly' })
  @ApiErrors({ 404: 'No such webhook or delivery', 409: 'The webhook is DISABLED' })
  replayWebhookDelivery(
    @Param('webhook_id', uuid) id: string,
    @Param('delivery_id', deliveryUuid) deliveryId: string,
    @Caller() caller: AuthContext,
  ): Promise<WebhookDeliveryDto> {
    return this.webhooks.replay(caller, id, deliveryId);
  }
}
