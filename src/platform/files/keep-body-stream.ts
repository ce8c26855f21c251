import type { NextFunction, Request, Response } from 'express';

/**
 * Mounted before the body parsers on the upload path: the bytes of a chunk are the file's, whatever
 * Content-Type the client sends, and must reach the upload route as the request stream (never parsed, never
 * buffered whole). The parsers choose by Content-Type, so the one they see becomes octets.
 */
export function keepBodyStream(req: Request, _res: Response, next: NextFunction): void {
  if (req.headers['content-type'] !== undefined) req.headers['content-type'] = 'application/octet-stream';
  next();
}
