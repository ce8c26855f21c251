import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../base/common/auth/authenticated.decorator.js';
import type { AuthorizationParams } from '../authorization-request.service.js';
import { ConsentExceptionFilter } from './consent-exception.filter.js';
import { ConsentFlow } from './consent-flow.service.js';
import {
  ConsentDecisionForm,
  ConsentLoginForm,
  ConsentPasskeyForm,
  ConsentPasskeyOptionsForm,
  ConsentSecondFactorForm,
} from './consent-forms.dto.js';
import { ConsentPasskeys } from './consent-passkeys.service.js';
import type { RequestOptionsDto } from '../../passkeys/dto/passkeys.dto.js';
import { PasskeyErrors } from '../../passkeys/passkeys.errors.js';
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

  @Post('passkey')
  @Public('signin') // checks a passkey: the sign-in budget of the address
  async submitConsentPasskey(
    @Body() body: ConsentPasskeyForm,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendPage(res, await this.flow.passkey(req, body));
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

/**
 * `{base_url}/oauth/authorize/passkey/options`: the request options of the consent page's passkey button, as
 * JSON for the page's script (ConsentPasskeys.options): the page's CSRF token in the body; usernameless, or
 * for the pending sign-in whose cookie the browser holds. Part of the pages, so not in the OpenAPI document.
 */
@ApiExcludeController()
@Controller('oauth/authorize/passkey')
export class ConsentPasskeyOptionsController {
  constructor(private readonly passkeys: ConsentPasskeys) {}

  @Post('options')
  @HttpCode(200)
  @Public('signin')
  async consentPasskeyOptions(
    @Body() body: ConsentPasskeyOptionsForm,
    @Req() req: Request,
  ): Promise<RequestOptionsDto> {
    const options = await this.passkeys.options(req, body.csrf);
    if (!options) throw PasskeyErrors.PAGE_EXPIRED();
    return options;
  }
}
