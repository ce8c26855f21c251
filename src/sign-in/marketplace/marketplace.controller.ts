import { applyDecorators, Body, Controller, Param, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { NoFilesInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request, Response } from 'express';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
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
import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';

/** The buyer's form post: no files, a handful of small fields (a JWT is a few kB). */
const FORM_LIMITS = { files: 0, fields: 10, parts: 10, fieldNameSize: 100, fieldSize: 16 * 1024 };
const LINK_ERRORS = 'The domain is already linked to another marketplace customer';

const marketplace = ServiceRoutes<MarketplaceService>('marketplace');
const flow = ServiceRoutes<MarketplaceSignupFlow>('flow');
/** The body as posted: the flow reads and judges the marketplace's fields itself. */
const anyBody: RouteInput<unknown> = { decorate: Body(), type: Object, rank: 2 };

/**
 * The form a marketplace posts the buyer's browser to, written (it answers through @Res: a 302 or JSON), and
 * `:cloud/link`: registered in this order after `MarketplaceController`'s signup and link.
 */
abstract class MarketplaceFormRoute extends marketplace.handlers({
  marketplaceCloudLink: marketplace.handle(
    Route.post(':cloud/link', {
      summary:
        'Link the caller’s domain, the nonce having come from the marketplace in the path (administrators)',
      policy: { admin: true },
      ok: MarketplaceLinkResultDto,
      errors: [{ 404: 'No marketplace of that name is configured', 409: LINK_ERRORS }],
    }),
    (s, auth, cloud, b) => s.link(auth.systemDomainId, b.marketplace_signup_nonce, auth.requestId, cloud),
    input.caller,
    input.param('cloud'),
    input.body(MarketplaceLinkDto),
  ),
}) {
  protected abstract readonly flow: MarketplaceSignupFlow;

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
}

@ApiTags('marketplace')
@ApiErrors(400)
@Controller('API/auth/v1/marketplace')
export class MarketplaceController extends flow.handlers(
  {
    // the stack `@Route.post @ApiBody`, applied bottom up as written
    marketplaceSignup: flow.call(
      'signup',
      applyDecorators(
        ApiBody({ schema: MARKETPLACE_SIGNUP_SCHEMA }),
        Route.post('signup', {
          summary:
            'Exchange a marketplace token (field `x-<cloud>-marketplace-token`) for a single-use marketplace_signup_nonce',
          public: 'signin',
          ok: MarketplaceSignupResultDto,
        }),
      ),
      anyBody,
    ),
  },
  marketplace.handlers(
    {
      marketplaceLink: marketplace.handle(
        Route.post('link', {
          summary:
            'Link the caller’s domain to the marketplace customer behind a signup nonce (administrators)',
          policy: { admin: true },
          ok: MarketplaceLinkResultDto,
          errors: [{ 409: LINK_ERRORS }],
        }),
        (s, auth, b) => s.link(auth.systemDomainId, b.marketplace_signup_nonce, auth.requestId),
        input.caller,
        input.body(MarketplaceLinkDto),
      ),
    },
    MarketplaceFormRoute,
  ),
) {
  constructor(
    protected readonly marketplace: MarketplaceService,
    protected readonly flow: MarketplaceSignupFlow,
  ) {
    super();
  }
}
