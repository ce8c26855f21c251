import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../base/common/http/api-errors.js';
import type { Request, Response } from 'express';
import { Public } from '../base/common/auth/authenticated.decorator.js';
import { staticAsset } from './static-assets.js';
import { StaticErrors } from './static.errors.js';

/** GET /API/auth/static/{filename}: the pages' assets (the spec lists the path without its payload). */
@ApiTags('health')
@Public()
@Controller('API/auth/static')
export class StaticAssetsController {
  @Get(':filename')
  @ApiOperation({
    summary:
      'An asset of the service’s pages: portcullis.css (their style sheet), favicon.svg, the passkey pages’ scripts (simplewebauthn-browser.js, passkey.js), or any of them under its content-hashed name (cached for a year)',
  })
  @ApiResponse({
    status: 200,
    description: 'The asset (nosniff; ETag)',
    content: {
      'text/css': { schema: { type: 'string' } },
      'image/svg+xml': { schema: { type: 'string', format: 'binary' } },
      'text/javascript': { schema: { type: 'string' } },
    },
  })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match named the current ETag)' })
  @ApiErrors({ 400: 'A name the hostile-input rules refuse (NUL)', 404: 'No such asset' })
  getStaticAsset(@Param('filename') filename: string, @Req() req: Request, @Res() res: Response): void {
    const asset = staticAsset(filename);
    if (!asset) throw StaticErrors.NOT_FOUND();
    const etag = `"${asset.sha256}"`;
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    res.setHeader('ETag', etag);
    res.setHeader(
      'Cache-Control',
      asset.hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600, must-revalidate',
    );
    const match = req.headers['if-none-match'];
    if (match && match.split(',').some((m) => m.trim().replace(/^W\//, '') === etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).setHeader('Content-Type', asset.contentType).send(asset.bytes);
  }
}
