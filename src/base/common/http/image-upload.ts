import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';

/** Largest image accepted (logos, photos): a larger upload stops being read at this size. */
export const IMAGE_MAX_BYTES = 1024 * 1024;

/** The image types stored; what the bytes are decides (see sniffImage), never the client's Content-Type. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** One uploaded file as the services see it, from a multipart part or a raw image body. */
export interface UploadedImage {
  fieldname: string;
  buffer: Buffer;
  size: number;
}

/** How a feature words the three ways an upload fails. */
export interface ImageUploadErrors {
  tooLarge(): Error;
  missing(): Error;
  /** The feature's 400 for problem fields: a body that cannot be read is one, named after the raw field. */
  invalid(fields: Record<string, string>): Error;
}

/**
 * Whether the body is a raw image (`Content-Type: image/<subtype>`, or the media range `image/*` itself, sent
 * literally by the published clients), as the published clients send it. The subtype names nothing: the bytes
 * decide (sniffImage).
 */
export function isRawImage(req: Request): boolean {
  return /^image\/(\*|[a-z0-9.+-]+)$/i.test(
    String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim(),
  );
}

/**
 * Reads an image upload into memory with hard limits, after the guard (only an authorised caller gets a body
 * read): a raw `image/*` body becomes one file named `rawField`; multipart/form-data is read by multer (one
 * file, a few small fields). Anything else reads nothing, and the service answers that the file is missing.
 */
export abstract class ImageUploadInterceptor implements NestInterceptor {
  protected abstract readonly errors: ImageUploadErrors;
  protected abstract readonly rawField: string;
  private readonly multipart = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50 },
  }).any();

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (isRawImage(req)) {
      const buffer = await this.readRaw(req);
      const file: UploadedImage = { fieldname: this.rawField, buffer, size: buffer.length };
      Object.assign(req, { files: [file] });
      return next.handle();
    }
    await new Promise<void>((resolve, reject) => {
      this.multipart(req, http.getResponse<Response>(), (err: unknown) => {
        if (!err) return resolve();
        const code = (err as { code?: string }).code;
        if (code === 'LIMIT_FILE_SIZE') return reject(this.errors.tooLarge());
        if (typeof code === 'string' && code.startsWith('LIMIT_')) return reject(this.errors.missing());
        // a malformed multipart body (no boundary, truncated): the client's fault, not ours
        return reject(this.unreadable());
      });
    });
    return next.handle();
  }

  private readRaw(req: Request): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (fn: () => void) => {
        if (done) return;
        done = true;
        fn();
      };
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > IMAGE_MAX_BYTES) {
          req.removeAllListeners('data');
          req.resume();
          return finish(() => reject(this.errors.tooLarge()));
        }
        chunks.push(c);
      });
      req.on('end', () => finish(() => resolve(Buffer.concat(chunks))));
      req.on('error', () => finish(() => reject(this.unreadable())));
    });
  }

  private unreadable(): Error {
    return this.errors.invalid({ [this.rawField]: 'the multipart/form-data body could not be read' });
  }
}
