import { applyDecorators, type NestInterceptor, type Type, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiPayloadTooLargeResponse, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ErrorsDto } from '../errors/errors.dto.js';
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from './image-upload.js';

/** An image upload route: the feature's interceptor, both body forms and the 413 in the OpenAPI document. */
export function ImageUpload(interceptor: Type<NestInterceptor>, field = 'logo'): MethodDecorator {
  return applyDecorators(
    UseInterceptors(interceptor),
    ApiConsumes(...IMAGE_TYPES, 'multipart/form-data'),
    ApiBody({
      schema: {
        type: 'object',
        properties: {
          [field]: { type: 'string', format: 'binary', description: 'The image (or send it as "file")' },
        },
      },
    }),
    ApiPayloadTooLargeResponse({ type: ErrorsDto, description: `An image over ${IMAGE_MAX_BYTES} bytes` }),
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
