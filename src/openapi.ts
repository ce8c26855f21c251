import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI 3.0.3 document, generated from the decorators; keys sorted so the committed file diffs cleanly. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Portcullis authentication service')
    .setDescription(
      'Applications, personal access tokens, OAuth 2.0, sign-in flows and system domains of a media asset ' +
        'management platform. Errors use {"errors": [...]} or {"errors": {"field": "message"}}.',
    )
    .setVersion('2.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'Auth-Token', description: 'Legacy form, with App-ID' },
      'legacy',
    )
    .build();
  const doc = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey: string, methodKey: string) => methodKey,
  });
  doc.openapi = '3.0.3';
  return sortKeys(doc) as OpenAPIObject;
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
