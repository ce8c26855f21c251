import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const WebhooksErrors = defineErrors('webhooks', {
  NOT_FOUND: message(404, 'Webhook not found'),
  DELIVERY_NOT_FOUND: message(404, 'Webhook delivery not found'),
  /** A field-level problem the DTO cannot see alone: the url's target, a status that is not the caller's to set. */
  INVALID: fields(),
  REPLAY_INACTIVE: message(409, 'The webhook is disabled: enable it before replaying deliveries'),
});
