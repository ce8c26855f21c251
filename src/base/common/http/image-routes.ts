import {
  applyDecorators,
  Get,
  HttpCode,
  type NestInterceptor,
  Post,
  type Type,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiPayloadTooLargeResponse, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated, type AuthenticatedOptions, Public } from '../auth/authenticated.decorator.js';
import { ErrorsDto } from '../errors/errors.dto.js';
import { ApiErrors, type ErrorSpec } from './api-errors.js';
import { Route } from './route.js';
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from './image-upload.js';

/** An image upload route: the feature's interceptor, both body forms and the 413 in the OpenAPI document. */
export function ImageUpload(
  interceptor: Type<NestInterceptor>,
  field = 'logo',
  tooLarge = `An image over ${IMAGE_MAX_BYTES} bytes`,
): MethodDecorator {
  return applyDecorators(
    UseInterceptors(interceptor),
    ApiConsumes(...IMAGE_TYPES, 'image/*', 'multipart/form-data'),
    ApiBody({
      schema: {
        type: 'object',
        properties: {
          [field]: { type: 'string', format: 'binary', description: 'The image (or send it as "file")' },
        },
      },
    }),
    ApiPayloadTooLargeResponse({ type: ErrorsDto, description: tooLarge }),
  );
}

/** The served image: the OpenAPI answer of a GET of one. */
export const ImageAnswer = () =>
  ApiResponse({
    status: 200,
    description: 'The image',
    content: Object.fromEntries(
      IMAGE_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
    ),
  });

/** Sends stored image bytes the safe way: the sniffed type, nosniff, a CSP that runs nothing, a private cache. */
export function sendImage(
  res: Response,
  image: { content_type: string; bytes: Buffer; sha256: string },
): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.setHeader('Cache-Control', 'private, max-age=300');
  res.setHeader('ETag', `"${image.sha256}"`);
  res.status(200).type(image.content_type).send(image.bytes);
}

/** One entity's image (a team's or group's logo, a user's photo, a domain's logo): its routes from one spec. */
export interface ImageRoutesSpec {
  /** The image's path, e.g. `:team_id/logo`. */
  path: string;
  /** The feature's upload interceptor, its multipart field, and the 413's wording when not the default. */
  interceptor: Type<NestInterceptor>;
  field?: string;
  tooLarge?: string;
  /** Who may set and remove it; who may read it (`public`: anyone, a domain's logo on the sign-in pages). */
  write: AuthenticatedOptions;
  read: AuthenticatedOptions | 'public';
  /** The upload's answer: 200 or 201 with its body. */
  uploaded: { status: 200 | 201; type: Type<unknown> };
  /** The upload's errors beyond the 413. */
  uploadErrors?: ErrorSpec[];
  /** The 404 of the removal and of the read. */
  missing: string;
  summaries: { upload: string; remove: string; get: string };
}

/**
 * The image routes of one entity: `const logo = ImageRoutes({...})`, then `@logo.upload`, `@logo.remove` and
 * `@logo.get` on the feature's methods (their names stay the operationIds). Each list is applied as a stack of
 * decorators would be (bottom up).
 */
export function ImageRoutes(spec: ImageRoutesSpec): {
  upload: MethodDecorator;
  remove: MethodDecorator;
  get: MethodDecorator;
} {
  const stack = (...decorators: (MethodDecorator | ClassDecorator)[]) =>
    applyDecorators(...decorators.reverse());
  const missing = { 404: spec.missing };
  return {
    upload: stack(
      Post(spec.path),
      ...(spec.uploaded.status === 200 ? [HttpCode(200)] : []),
      Authenticated(spec.write),
      ImageUpload(spec.interceptor, spec.field, spec.tooLarge),
      ApiOperation({ summary: spec.summaries.upload }),
      ApiResponse({ status: spec.uploaded.status, type: spec.uploaded.type }),
      ApiErrors(...(spec.uploadErrors ?? [])),
    ),
    remove: Route.delete(spec.path, {
      summary: spec.summaries.remove,
      policy: spec.write,
      noContent: 'Removed',
      errors: [missing],
    }),
    get: stack(
      Get(spec.path),
      spec.read === 'public' ? Public() : Authenticated(spec.read),
      ApiOperation({ summary: spec.summaries.get }),
      ImageAnswer(),
      ApiErrors(missing),
    ),
  };
}

/**
 * Sends an image anyone may fetch (a domain's logo on the sign-in pages): nosniff, a CSP that runs nothing,
 * readable across origins, an ETag (304 on a match), cached for good when `version` names the current image.
 */
export function sendPublicImage(
  res: Response,
  image: { content_type: string; bytes: Buffer; sha256: string },
  version: string | undefined,
  ifNoneMatch: string | undefined,
): void {
  const etag = `"${image.sha256}"`;
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('ETag', etag);
  res.setHeader(
    'Cache-Control',
    typeof version === 'string' && version === image.sha256.slice(0, 12)
      ? 'public, max-age=31536000, immutable'
      : 'public, max-age=300',
  );
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) {
    res.status(304).end();
    return;
  }
  res.status(200).type(image.content_type).send(image.bytes);
}
