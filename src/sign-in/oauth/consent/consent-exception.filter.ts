import { Catch, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ApiError } from '../../../base/common/errors/api-error.js';
import { ApiExceptionFilter, errorText } from '../../../base/common/filters/api-exception.filter.js';
import { errorPage } from './consent-pages.js';

const NOTE = 'Go back to the application and start again. If this keeps happening, contact its developer.';

/**
 * The HTML surface's mapper: on the consent page, a person's browser gets a page, never JSON. The error is
 * translated as on the JSON surface (toApiError: coded errors as they are, the database down a 503 with
 * Retry-After, anything else a logged 500) and rendered as the page's error page.
 */
@Catch()
export class ConsentExceptionFilter extends ApiExceptionFilter {
  protected override readonly logger = new Logger('Consent');

  protected override render(err: ApiError, _req: Request, res: Response): void {
    for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
    if (err.code) res.setHeader('X-Error-Code', err.code);
    const detail = errorText(err);
    const title =
      err.status === 503 ? 'Temporarily unavailable' : err.status >= 500 ? 'Error' : 'Request refused';
    res
      .status(err.status)
      .setHeader('Cache-Control', 'no-store')
      .setHeader('X-Frame-Options', 'DENY')
      .setHeader(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      )
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .send(errorPage(title, detail, NOTE));
  }
}
