import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The version of the interface, in the OpenAPI document and the service index (GET /API/auth/). */
export const SERVICE_VERSION = '2.0.0';

/** The OpenAPI 3.0.3 document, generated from the decorators; keys sorted so the committed file diffs cleanly. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Portcullis authentication service')
    .setDescription(
      'Applications, personal access tokens, OAuth 2.0, sign-in flows and system domains of a media asset ' +
        'management platform. Errors use {"errors": [...]} or {"errors": {"field": "message"}}.',
    )
    .setVersion(SERVICE_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'Auth-Token', description: 'Legacy form, with App-ID' },
      'legacy',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'Temp-Auth-Token',
        description:
          'The temp_token of a simple login that owes a second factor (multidomain/login, otp/generate)',
      },
      'temp',
    )
    .build();
  const doc = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey: string, methodKey: string) => methodKey,
  });
  doc.openapi = '3.0.3';
  nameAliasMounts(doc);
  declareSurfaceWideResponses(doc);
  rawImageBodies(doc);
  return sortKeys(doc) as OpenAPIObject;
}

/**
 * Operations that never read the database (constant documents, the caller's own address, keys held in
 * memory): the only ones an outage cannot turn into a 503.
 */
export const NEVER_UNAVAILABLE = [
  'getLiveness',
  'getCallerIp',
  'getJwks',
  'getAuthorizationServerMetadata',
  'getServiceIndex',
];

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const ERRORS = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorsDto' } } };

/** A raw image body (`Content-Type: image/*`, the published clients' form of an upload) is the bytes. */
function rawImageBodies(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const content =
        item[method]?.requestBody && 'content' in item[method].requestBody
          ? item[method].requestBody.content
          : undefined;
      for (const type of Object.keys(content ?? {})) {
        if (type.startsWith('image/')) content![type] = { schema: { type: 'string', format: 'binary' } };
      }
    }
  }
}

/**
 * Answers that come from the layers every request passes, not from a feature, declared once here rather
 * than on each route (the contract check holds every response of the e2e suites against the document):
 *
 * - 503 with Retry-After: the database cannot be reached (common/errors/unavailable.ts), on every operation
 *   that reads it. Operations that declare their own 503 (readiness, and the OAuth endpoints in RFC 6749
 *   form) keep theirs.
 * - 413: a body over the parsers' limit (100 kB), on every operation that takes a body. The body parsers
 *   run before any route, so this is always the platform's `{errors}` form, the OAuth endpoints included.
 */
function declareSurfaceWideResponses(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.responses['503'] && !NEVER_UNAVAILABLE.includes(op.operationId ?? '')) {
        op.responses['503'] = {
          description: 'The database cannot be reached; retry after Retry-After seconds',
          headers: { 'Retry-After': { description: 'Seconds', schema: { type: 'integer' } } },
          content: ERRORS,
        };
      }
      if (op.requestBody && !op.responses['413']) {
        op.responses['413'] = { description: 'Body over 100 kB', content: ERRORS };
      }
    }
  }
}

/**
 * A controller mounted at several paths (the webhooks at /API/notifications and their older alias
 * /API/webhooks) gets operationIds `name[0]`, `name[1]` from Swagger, which generated clients turn into
 * odd method names. The first mount keeps the plain name; the others are the older aliases: `nameLegacyN`,
 * marked deprecated.
 */
function nameAliasMounts(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      const m = op?.operationId?.match(/^(.+)\[(\d+)\]$/);
      if (!op || !m) continue;
      const index = Number(m[2]);
      op.operationId = index === 0 ? m[1] : `${m[1]}Legacy${index === 1 ? '' : index}`;
      if (index > 0) op.deprecated = true;
    }
  }
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
