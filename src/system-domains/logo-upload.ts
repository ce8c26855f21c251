import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';
import { LOGO_MAX_BYTES } from './logo.js';
import { SystemDomainsErrors } from './system-domains.errors.js';

/**
 * Reads a logo upload (multipart/form-data) into memory with hard limits: one file of at most 1 MiB, a few
 * small text fields. Runs after the guard, so only an authorised caller gets a body read at all. Multer's
 * errors become the feature's own (413 for a file too large, 400 for anything else); a request that is not
 * multipart reads nothing and the service answers that the file is missing.
 */
@Injectable()
export class LogoUploadInterceptor implements NestInterceptor {
  private readonly upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50 },
  }).any();

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    await new Promise<void>((resolve, reject) => {
      this.upload(req, res, (err: unknown) => {
        if (!err) return resolve();
        const code = (err as { code?: string }).code;
        if (code === 'LIMIT_FILE_SIZE') return reject(SystemDomainsErrors.LOGO_TOO_LARGE());
        if (typeof code === 'string' && code.startsWith('LIMIT_'))
          return reject(SystemDomainsErrors.LOGO_MISSING());
        // a malformed multipart body (no boundary, truncated): the client's fault, not ours
        return reject(
          SystemDomainsErrors.INVALID({ logo: 'the multipart/form-data body could not be read' }),
        );
      });
    });
    return next.handle();
  }
}
