import { Body, Controller, Param, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { NoFilesInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request, Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import {
  MARKETPLACE_FORM_SCHEMA,
  MARKETPLACE_SIGNUP_SCHEMA,
  MarketplaceLinkDto,
  MarketplaceLinkResultDto,
  MarketplaceSignupResultDto,
} from './dto/marketplace.dto.js';
import { MarketplaceSignupFlow } from './marketplace-signup.flow.js';
import { MarketplaceService } from './marketplace.service.js';
import { Route } from '../../base/common/http/route.js';

/** The buyer's form post: no files, a handful of small fields (a JWT is a few kB). */
const FORM_LIMITS = { files: 0, fields: 10, parts: 10, fieldNameSize: 100, fieldSize: 16 * 1024 };
const LINK_ERRORS = 'The domain is already linked to another marketplace customer';

@ApiTags('marketplace')
@ApiErrors(400)
@Controller('API/auth/v1/marketplace')
export class MarketplaceController {
  constructor(
    private readonly marketplace: MarketplaceService,
    private readonly flow: MarketplaceSignupFlow,
  ) {}

  @Route.post('signup', {
    summary:
      'Exchange a marketplace token (field `x-<cloud>-marketplace-token`) for a single-use marketplace_signup_nonce',
    public: 'signin',
    ok: MarketplaceSignupResultDto,
  })
  @ApiBody({ schema: MARKETPLACE_SIGNUP_SCHEMA })
  marketplaceSignup(@Body() body: unknown): Promise<MarketplaceSignupResultDto> {
    return this.flow.signup(body);
  }

  @Route.post('link', {
    summary: 'Link the caller’s domain to the marketplace customer behind a signup nonce (administrators)',
    policy: { admin: true },
    ok: MarketplaceLinkResultDto,
    errors: [{ 409: LINK_ERRORS }],
  })
  marketplaceLink(
    @Caller() auth: AuthContext,
    @Body() body: MarketplaceLinkDto,
  ): Promise<MarketplaceLinkResultDto> {
    return this.marketplace.link(auth.systemDomainId, body.marketplace_signup_nonce, auth.requestId);
  }

  @Post(':cloud/signup')
  @Public('signin')
  @UseInterceptors(NoFilesInterceptor({ limits: FORM_LIMITS }))
  @ApiOperation({
    summary:
      'The form a marketplace posts the buyer’s browser to (multipart/form-data or urlencoded): 302 to the registration page with the nonce, or with `marketplace_error`; with `Accept: application/json`, 200 and the MarketplaceSignup answer (errors 400)',
  })
  @ApiOkResponse({ type: MarketplaceSignupResultDto, description: 'Only with `Accept: application/json`' })
  @ApiConsumes('multipart/form-data', 'application/x-www-form-urlencoded')
  @ApiBody({ schema: MARKETPLACE_FORM_SCHEMA })
  @ApiResponse({
    status: 302,
    description:
      'To `{PUBLIC_BASE_URL}/registrations?marketplace_signup_nonce=…`, or `?marketplace_error=invalid_token|token_replayed|token_missing`',
    headers: { Location: { schema: { type: 'string', format: 'uri' } } },
  })
  @ApiErrors({ 404: 'No marketplace of that name is configured' })
  marketplaceCloudSignup(
    @Param('cloud') cloud: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const json = req.accepts(['text/html', 'application/json']) === 'application/json';
    // the answer carries a secret (in the Location: no body): not cached, not passed on as a referrer
    return this.flow.formSignup(cloud, body, json).then(({ url, result }) => {
      res.status(url ? 302 : 200).set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
      if (url) res.location(url).end();
      else res.json(result);
    });
  }

  @Route.post(':cloud/link', {
    summary:
      'Link the caller’s domain, the nonce having come from the marketplace in the path (administrators)',
    policy: { admin: true },
    ok: MarketplaceLinkResultDto,
    errors: [{ 404: 'No marketplace of that name is configured', 409: LINK_ERRORS }],
  })
  marketplaceCloudLink(
    @Caller() auth: AuthContext,
    @Param('cloud') cloud: string,
    @Body() body: MarketplaceLinkDto,
  ): Promise<MarketplaceLinkResultDto> {
    return this.marketplace.link(auth.systemDomainId, body.marketplace_signup_nonce, auth.requestId, cloud);
  }
}
