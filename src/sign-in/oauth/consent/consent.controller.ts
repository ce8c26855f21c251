import { Body, Controller, Get, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../base/common/auth/authenticated.decorator.js';
import type { AuthorizationParams } from '../authorization-request.service.js';
import { ConsentExceptionFilter } from './consent-exception.filter.js';
import { ConsentFlow } from './consent-flow.service.js';
import { ConsentDecisionForm, ConsentLoginForm, ConsentSecondFactorForm } from './consent-forms.dto.js';
import { sendPage } from '../../../base/common/html/page-result.js';

/**
 * `{base_url}/oauth/authorize`: the server-rendered consent page (HTML, not part of the JSON API, so excluded
 * from the OpenAPI document). One line per route: the browser sign-in's steps are ConsentFlow's, each
 * answering a PageResult that sendPage applies (every page forbids framing and is never cached).
 */
@ApiExcludeController()
@Public()
@UseFilters(ConsentExceptionFilter)
@Controller('oauth/authorize')
export class ConsentController {
  constructor(private readonly flow: ConsentFlow) {}

  @Get()
  async showConsentPage(
    @Query() q: AuthorizationParams,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendPage(res, await this.flow.show(req, q));
  }

  @Post('login')
  @Public('signin') // checks a password: the sign-in budget of the address
  async submitConsentLogin(
    @Body() body: ConsentLoginForm,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendPage(res, await this.flow.login(req, body));
  }

  @Post('mfa')
  @Public('signin') // checks a code: the sign-in budget of the address
  async submitConsentSecondFactor(
    @Body() body: ConsentSecondFactorForm,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendPage(res, await this.flow.secondFactor(req, body));
  }

  @Post()
  async submitConsentDecision(
    @Body() body: ConsentDecisionForm,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendPage(res, await this.flow.decide(req, body));
  }
}
