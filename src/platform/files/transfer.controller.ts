import { Controller, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request, Response } from 'express';
import { DownloadService } from './download.service.js';
import { FileLinks } from './file-links.js';
import { FilesErrors } from './files.errors.js';
import { UploadService } from './upload.service.js';
import { signed, TransferDownloadRoutes } from './transfer-download.routes.js';
import { Route } from '../../base/common/http/route.js';

class UploadedFileDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', format: 'int64' }) size!: number;
}

/**
 * The signed links: the resumable upload of one file (`upload_url`) and the downloads of closed files and
 * keyframes. No credential header: the link's signature (FileLinks) is the credential, checked before
 * anything else; a bad, expired or other object's link is a 403. Bodies are streams (the upload path is kept
 * away from the body parsers, see app.factory.ts).
 */
@ApiTags('files')
@ApiErrors({ 400: 'Hostile or malformed input' })
@Controller('API/files/v1')
export class TransferController extends TransferDownloadRoutes {
  constructor(
    protected readonly links: FileLinks,
    private readonly uploads: UploadService,
    protected readonly downloads: DownloadService,
  ) {
    super();
  }

  @Route.post('upload/:file_id', {
    summary: 'Start the resumable upload of a file (201 with Location: where to send the bytes)',
    public: 'anonymous',
    created: { description: 'Location: the session URL (the same signed URL)' },
    errors: [400, 404, { 403: 'Invalid or expired link', 409: 'A chunk is being written' }],
  })
  @signed()
  @ApiHeader({ name: 'x-goog-resumable', required: true, description: 'start' })
  async startUpload(
    @Param('file_id') fileId: string,
    @Query() q: Record<string, unknown>,
    @Headers('x-goog-resumable') resumable: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    this.check('upload', fileId, q);
    if (resumable?.trim().toLowerCase() !== 'start')
      throw FilesErrors.BAD_RANGE('start the upload with the header x-goog-resumable: start');
    req.resume();
    await this.uploads.start(fileId);
    res.status(201).set('Location', this.links.uploadUrl(fileId)).end();
  }

  @Route.put('upload/:file_id', {
    summary:
      'Send a chunk (Content-Range bytes S-E/N) or ask how much arrived (bytes */N): 308 with Range until complete, then 200',
    public: 'anonymous',
    ok: { description: 'Every byte arrived', type: UploadedFileDto },
    errors: [
      400,
      404,
      {
        403: 'Invalid or expired link',
        409: 'Another chunk of this upload is in progress',
        413: 'Past the declared size or FILES_MAX_BYTES',
        502: 'The storage failed; resend the chunk',
      },
    ],
  })
  @signed()
  @ApiHeader({ name: 'Content-Range', required: false, description: 'bytes S-E/N, bytes S-E/* or bytes */N' })
  @ApiResponse({ status: 308, description: 'Resume incomplete; Range: bytes=0-(stored-1), absent when none' })
  async putChunk(
    @Param('file_id') fileId: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    this.check('upload', fileId, q);
    const answer = await this.uploads.put(
      fileId,
      req.headers['content-range'],
      req.headers['content-length'],
      req,
    );
    if (answer.status === 200) {
      res.status(200).json(answer.file);
      return;
    }
    if (answer.range) res.set('Range', answer.range);
    res.status(308).end();
  }
}
