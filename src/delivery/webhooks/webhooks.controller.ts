import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  CreateWebhookDto,
  UpdateWebhookDto,
  WebhookDto,
  WebhookListDto,
  WebhookListQueryDto,
  WebhookWithSecretDto,
} from './dto/webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';
import { webhookAccess, admin, WebhookDeliveryRoutes } from './webhook-delivery.routes.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const UPDATE = 'Update a webhook (any subset of the fields; ENABLED clears its failure count)';

const edit = PutAndPatch({
  path: ':webhook_id',
  policy: webhookAccess,
  ok: WebhookDto,
  errors: [404],
  put: `${UPDATE}. The same as PATCH`,
  patch: UPDATE,
});

/**
 * Webhooks of the caller's domain, at the platform's path and at the older alias (one controller, two
 * mounts: the same routes, policies and answers). Thin: the rules live in WebhooksService.
 */
@ApiTags('webhooks')
@ApiErrors(400)
@Controller(['API/notifications/v1/webhooks', 'API/webhooks/v1/webhooks'])
export class WebhooksController extends WebhookDeliveryRoutes {
  constructor(protected readonly webhooks: WebhooksService) {
    super();
  }

  @Route.get({
    summary:
      'Webhooks of the caller’s domain, deleted ones excluded (page style; filters status, event_type; sort on ' +
      'date_created, date_modified, name, event_type, status, url)',
    policy: admin,
    ok: WebhookListDto,
  })
  listWebhooks(
    @Query() q: WebhookListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<WebhookListDto> {
    return this.webhooks.list(caller, q, req.path);
  }

  @Route.post({
    summary: 'Register a webhook; the answer carries its signing secret, shown this once',
    policy: admin,
    created: WebhookWithSecretDto,
  })
  createWebhook(
    @Body() body: CreateWebhookDto,
    @Caller() caller: AuthContext,
  ): Promise<WebhookWithSecretDto> {
    return this.webhooks.create(caller, body);
  }

  @Route.get(':webhook_id', {
    summary: 'One webhook (never its secret; credential-like header values redacted)',
    policy: webhookAccess,
    ok: WebhookDto,
    errors: [404],
  })
  getWebhook(@Param('webhook_id', uuid) id: string, @Caller() caller: AuthContext): Promise<WebhookDto> {
    return this.webhooks.get(caller, id);
  }

  @edit.both('replaceWebhook')
  updateWebhook(
    @Param('webhook_id', uuid) id: string,
    @Body() body: UpdateWebhookDto,
    @Caller() caller: AuthContext,
  ): Promise<WebhookDto> {
    return this.webhooks.update(caller, id, body);
  }

  @Route.delete(':webhook_id', {
    summary: 'Delete a webhook (soft: status DELETED; deliveries stop, and it answers 404 from then on)',
    policy: webhookAccess,
    noContent: 'Deleted',
    errors: [404],
  })
  deleteWebhook(@Param('webhook_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.webhooks.remove(caller, id);
  }

  @Route.post(':webhook_id/secret/rotate', {
    summary:
      'Replace the signing secret; the answer carries the new one, shown this once (the old one stops at once)',
    policy: webhookAccess,
    ok: WebhookWithSecretDto,
    errors: [404],
  })
  rotateWebhookSecret(
    @Param('webhook_id', uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<WebhookWithSecretDto> {
    return this.webhooks.rotateSecret(caller, id);
  }
}
