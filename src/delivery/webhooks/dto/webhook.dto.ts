import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateBy, ValidateIf } from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { EnumField, StringField, UuidField } from '../../../base/common/validation/fields.js';
import { DELIVERY_STATUSES } from '../../../base/model/webhook-delivery.entity.js';
import { WEBHOOK_STATUSES } from '../../../base/model/webhook.entity.js';

export const MAX_HEADERS = 20;
export const HEADER_VALUE_MAX = 1000;
const QUERY_MAX_CHARS = 4000;
/** RFC 9110 field-name token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Visible ASCII and Latin-1, spaces and tabs inside: no CR, LF or other controls (no header injection). */
const HEADER_VALUE = /^[\x20-\x7e\x80-\xff\t]*$/;
/**
 * Headers a webhook cannot set: the signature headers, the framing of the request, and hop-by-hop headers.
 * Anything else goes out with every delivery (an Authorization for the receiver, a routing key).
 */
export const RESERVED_HEADERS = [
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
  'user-agent',
];

/** Why a headers object cannot be stored, or null. */
export function headersProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return 'must be an object of header names to string values';
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) return `must have at most ${MAX_HEADERS} headers`;
  const seen = new Set<string>();
  for (const [name, v] of entries) {
    if (!HEADER_NAME.test(name)) return `"${name.slice(0, 100)}" is not a valid header name`;
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.includes(lower)) return `"${name}" is set by the service and cannot be changed`;
    if (seen.has(lower)) return `"${name}" is given twice`;
    seen.add(lower);
    if (typeof v !== 'string') return `the value of "${name}" must be a string`;
    if (v.length > HEADER_VALUE_MAX || !HEADER_VALUE.test(v)) {
      return `the value of "${name}" must be at most ${HEADER_VALUE_MAX} printable characters`;
    }
  }
  return null;
}

function queryProblem(value: unknown): string | null {
  if (typeof value !== 'string' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    return 'must be an object, a string or null';
  }
  if (JSON.stringify(value).length > QUERY_MAX_CHARS)
    return `must be at most ${QUERY_MAX_CHARS} characters as JSON`;
  return null;
}

/** Optional nullable object-or-string (`query`): the rule and its OpenAPI shape in one place. */
function QueryField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      nullable: true,
      oneOf: [{ type: 'object', additionalProperties: true }, { type: 'string' }],
      description:
        'A filter expression some clients send (object or string); kept and returned, not evaluated',
    }),
    IsOptional(),
    ValidateBy({
      name: 'webhookQuery',
      validator: {
        validate: (v: unknown) => queryProblem(v) === null,
        defaultMessage: (a) => `${a?.property} ${queryProblem(a?.value)}`,
      },
    }),
  );
}

function HeadersField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'object',
      additionalProperties: { type: 'string', maxLength: HEADER_VALUE_MAX },
      maxProperties: MAX_HEADERS,
      description:
        'Extra headers sent with every delivery (not the webhook-* signature headers, content-type, host, ' +
        'user-agent or hop-by-hop ones). Stored sealed. Answers show values of credential-like headers ' +
        '(authorization, cookie, or a name containing auth, token, secret, key, password, signature or ' +
        'session) as "[redacted]"; sending "[redacted]" back for such a header keeps its stored value.',
      example: { Authorization: 'Bearer receiver-credential', 'X-Team': 'media' },
    }),
    ValidateIf((_o, v) => v !== undefined),
    ValidateBy({
      name: 'webhookHeaders',
      validator: {
        validate: (v: unknown) => headersProblem(v) === null,
        defaultMessage: (a) => `${a?.property} ${headersProblem(a?.value)}`,
      },
    }),
  );
}

const STATUS_DESCRIPTION =
  'ENABLED or DISABLED. FAILING is set by deliveries (sending it keeps a failing webhook FAILING, otherwise ' +
  'it means ENABLED); DELETED is set by DELETE and refused here';

/** Body of POST: url, event_type and status required (as the platform's clients send them). */
export class CreateWebhookDto {
  @StringField({
    maxLength: 2000,
    description:
      'http or https, no credentials; private, loopback and other non-public targets are refused unless ' +
      'WEBHOOK_ALLOW_PRIVATE is set (names are checked at each delivery, after DNS)',
    example: 'https://hooks.example.com/portcullis',
  })
  url!: string;
  @StringField({ minLength: 1, maxLength: 200, example: 'assets' }) event_type!: string;
  @EnumField(WEBHOOK_STATUSES, { description: STATUS_DESCRIPTION, enumName: 'WebhookStatus' })
  status!: string;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 200,
    description: 'Only this operation (null: any)',
    example: 'update',
  })
  operation?: string | null;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 200,
    description: 'Only this realm (null: any)',
    example: 'metadata',
  })
  realm?: string | null;
  @UuidField({ required: false, nullable: true, description: 'Only changes of this object (null: any)' })
  object_id?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) name?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) description?: string | null;
  @QueryField() query?: Record<string, unknown> | string | null;
  @HeadersField() headers?: Record<string, string>;
}

/** Body of PUT and PATCH: any subset (PUT is the same as PATCH, as elsewhere in this API). */
export class UpdateWebhookDto {
  @StringField({ required: false, maxLength: 2000, description: 'As on creation' }) url?: string;
  @StringField({ required: false, minLength: 1, maxLength: 200 }) event_type?: string;
  @EnumField(WEBHOOK_STATUSES, {
    required: false,
    description: STATUS_DESCRIPTION,
    enumName: 'WebhookStatus',
  })
  status?: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) operation?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) realm?: string | null;
  @UuidField({ required: false, nullable: true }) object_id?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) name?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) description?: string | null;
  @QueryField() query?: Record<string, unknown> | string | null;
  @HeadersField() headers?: Record<string, string>;
}

export class WebhookListQueryDto extends PageQueryDto {
  @EnumField(['ENABLED', 'DISABLED', 'FAILING'], {
    required: false,
    description: 'Only webhooks in this state',
  })
  status?: string;
  @StringField({ required: false, maxLength: 200, description: 'Only webhooks of this event type' })
  event_type?: string;
}

export class DeliveryListQueryDto extends PageQueryDto {
  @EnumField(DELIVERY_STATUSES, { required: false, description: 'Only deliveries in this state' })
  status?: string;
}

export class WebhookDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ example: 'assets' }) event_type!: string;
  @ApiProperty({ nullable: true, type: String }) operation!: string | null;
  @ApiProperty({ nullable: true, type: String }) realm!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) object_id!: string | null;
  @ApiProperty({ enum: WEBHOOK_STATUSES, enumName: 'WebhookStatus' }) status!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({
    nullable: true,
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'string' }],
  })
  query!: unknown;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Credential-like values read "[redacted]"',
  })
  headers!: Record<string, string>;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ nullable: true, type: String, readOnly: true, description: 'Of the latest failed attempt' })
  last_error!: string | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    readOnly: true,
    description: 'The message of the latest failed attempt',
  })
  last_payload!: unknown;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    readOnly: true,
    description: 'Start of the current run of failures',
  })
  first_failed_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', readOnly: true }) deleted_at!:
    string | null;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
}

/** The creation and rotation answers: the only ones that carry the signing secret. */
export class WebhookWithSecretDto extends WebhookDto {
  @ApiProperty({
    readOnly: true,
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description:
      'Standard Webhooks signing secret, shown only in this answer: verify the webhook-signature header with it',
  })
  secret!: string;
}

export class WebhookListDto extends ListEnvelopeDto(WebhookDto) {}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', readOnly: true, description: 'Also the webhook-id header of each attempt' })
  id!: string;
  @ApiProperty({ format: 'uuid' }) webhook_id!: string;
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty() event_type!: string;
  @ApiProperty({ nullable: true, type: String }) realm!: string | null;
  @ApiProperty() operation!: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) object_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) request_id!: string | null;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status!: string;
  @ApiProperty({ type: 'integer', description: 'Attempts made so far' }) attempts!: number;
  @ApiProperty({ nullable: true, type: 'integer', description: 'HTTP status of the latest attempt' })
  response_code!: number | null;
  @ApiProperty({ nullable: true, type: 'integer', description: 'Duration of the latest attempt' })
  duration_ms!: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'Error of the latest attempt (truncated)' })
  error!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'Null unless PENDING' })
  next_attempt_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_attempt_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) delivered_at!: string | null;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
}

export class WebhookDeliveryListDto extends ListEnvelopeDto(WebhookDeliveryDto) {}
