import { pipeline } from 'node:stream/promises';
import { Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { setAbortLevel } from '../../base/common/http/request-logging.js';
import type { Request, Response } from 'express';
import { isUuid } from '../../base/common/validation/uuid.js';
import type { DownloadService } from './download.service.js';
import { FileLinks, type LinkPurpose } from './file-links.js';
import { FilesErrors } from './files.errors.js';
import { Route } from '../../base/common/http/route.js';

const OCTETS = { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } };
const JPEG = { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } };

const SIGNED = [
  ApiQuery({ name: 'expires', required: true, description: 'Unix time the link stops working' }),
  ApiQuery({ name: 'signature', required: true, description: 'The service’s signature of the link' }),
];
export const signed = (): MethodDecorator => (t, k, d) => {
  for (const dec of SIGNED) dec(t, k, d);
};

/**
 * The download routes of `TransferController`, and the link check and streamed answer its routes share.
 * `TransferController` extends this class: Nest registers a controller's own routes first and inherited ones
 * after, so the route order and the route-policy keys (`TransferController.<method>`) stay as they were.
 */
export abstract class TransferDownloadRoutes {
  protected abstract readonly links: FileLinks;
  protected abstract readonly downloads: DownloadService;

  @Route.get('download/files/:file_id', {
    summary: 'The bytes of a closed file (signed link from …/files/{file_id}/download/); Range answered',
    public: 'anonymous',
    ok: { description: 'The bytes', content: OCTETS },
    errors: [404, { 403: 'Invalid or expired link', 416: 'Range not satisfiable' }],
  })
  @signed()
  @ApiHeader({ name: 'Range', required: false, description: 'bytes=S-E, bytes=S- or bytes=-N' })
  @ApiResponse({ status: 206, description: 'The requested range', content: OCTETS })
  async downloadFile(
    @Param('file_id') fileId: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    this.check('file', fileId, q);
    await this.send(res, await this.downloads.file(fileId, req.headers.range));
  }

  @Route.get('download/keyframes/:keyframe_id', {
    summary: 'A keyframe image (JPEG; signed link from the asset’s keyframe list)',
    public: 'anonymous',
    ok: { description: 'The image', content: JPEG },
    errors: [404, { 403: 'Invalid or expired link', 416: 'Range not satisfiable' }],
  })
  @signed()
  @ApiResponse({ status: 206, description: 'The requested range', content: JPEG })
  async downloadKeyframe(
    @Param('keyframe_id') id: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    this.check('keyframe', id, q);
    await this.send(res, await this.downloads.keyframe(id, req.headers.range));
  }

  protected check(purpose: LinkPurpose, id: string, q: Record<string, unknown>): void {
    if (!isUuid(id) || !this.links.verify(purpose, id, q.expires, q.signature)) throw FilesErrors.BAD_LINK();
  }

  /**
   * Streams the bytes. A client that goes away mid-body is a warning in the access log, not an error; one that
   * closes once every byte was handed over (some close as soon as they have Content-Length bytes, before the
   * answer's end is flushed) is debug.
   */
  protected async send(res: Response, d: Awaited<ReturnType<DownloadService['file']>>): Promise<void> {
    res.status(d.status).set(d.headers);
    setAbortLevel(res, 'warn');
    const length = Number(d.headers['Content-Length']);
    let sent = 0;
    if (length === 0) setAbortLevel(res, 'debug');
    d.body.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (sent >= length) setAbortLevel(res, 'debug');
    });
    await pipeline(d.body, res).catch(() => {
      // the client went away mid-download: nothing to answer
    });
  }
}
