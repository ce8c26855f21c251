import { Body, Controller, Get, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../base/common/auth/authenticated.decorator.js';
import { sendPage } from '../../../base/common/html/page-result.js';
import { ConsentExceptionFilter } from './consent-exception.filter.js';
import { LogoutFlow } from './logout-flow.service.js';
import { LogoutForm } from './consent-forms.dto.js';

/**
 * `{base_url}/oauth/logout`, OpenID Connect's `end_session_endpoint` (RP-Initiated Logout 1.0): HTML pages
 * beside the consent page (its session cookie's path), excluded from the OpenAPI document like it. GET and
 * POST both take the request (§2); a POST with `confirm` is the confirmation form.
 */
@ApiExcludeController()
@Public()
@UseFilters(ConsentExceptionFilter)
@Controller('oauth/logout')
export class LogoutController {
  constructor(private readonly flow: LogoutFlow) {}

  @Get()
  async startLogout(@Query() q: LogoutForm, @Req() req: Request, @Res() res: Response): Promise<void> {
    sendPage(res, await this.flow.start(req, q));
  }

  @Post()
  async submitLogout(@Body() body: LogoutForm, @Req() req: Request, @Res() res: Response): Promise<void> {
    sendPage(res, await (body.confirm ? this.flow.confirm(req, body) : this.flow.start(req, body)));
  }
}
