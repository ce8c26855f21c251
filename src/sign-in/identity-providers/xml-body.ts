import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { IdpErrors } from './identity-providers.errors.js';

const MAX_BODY = 1_000_000;
const XML_TYPES = ['application/xml', 'text/xml', 'application/samlmetadata+xml'];

/**
 * Reads an XML body (IdP metadata) as text, for the two routes that take one; runs after the guard, so only
 * an administrator gets a body read. Anything over 1 MB is refused unread (a 400, as any document over the
 * 200 kB the parser accepts); JSON bodies were already read by the JSON parser.
 */
@Injectable()
export class XmlBodyInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    if (isXmlRequest(req) && !req.readableEnded) req.body = await readText(req, MAX_BODY);
    return next.handle();
  }
}

export function isXmlRequest(req: Request): boolean {
  return XML_TYPES.includes(
    String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase(),
  );
}

function readText(req: Request, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = () => reject(IdpErrors.INVALID_XML('the XML document is too large or unreadable'));
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        return fail();
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}
