import { Body, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { BROWSER_ERROR, REDIRECT, SamlMetadataLogoutRoutes } from './saml-metadata-logout.routes.js';
import { Route } from '../../base/common/http/route.js';

const ACS_FORM = {
  schema: {
    type: 'object',
    required: ['SAMLResponse'],
    properties: { SAMLResponse: { type: 'string' }, RelayState: { type: 'string' } },
  },
};

/**
 * The single sign-on and assertion consumer routes of `SamlController`, which extends this class: Nest
 * registers a controller's own routes first and inherited ones after, so the route order and the route-policy
 * keys (`SamlController.<method>`) stay as they were.
 */
export abstract class SamlSsoRoutes extends SamlMetadataLogoutRoutes {
  @Route.get('sso/:public_id', {
    summary: 'Starts SP-initiated SSO: 302 to the IdP with an AuthnRequest (query return_to: where to end)',
    public: 'signin',
  })
  @ApiResponse(REDIRECT)
  @ApiResponse(BROWSER_ERROR(400, 'The IdP is disabled or not fully configured'))
  @ApiResponse(BROWSER_ERROR(404, 'No such identity provider'))
  startSamlSso(
    @Param('public_id') publicId: string,
    @Query('return_to') returnTo: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.browser(req, res, async () => this.start(await this.saml.byPublicId(publicId), returnTo));
  }

  @Get('sso/:system_domain_id/:identity_provider_id')
  @Public('signin')
  @ApiOperation({ summary: 'Deprecated form of sso/{public_id}', deprecated: true })
  @ApiResponse(REDIRECT)
  @ApiResponse(BROWSER_ERROR(400, 'The IdP is disabled or not fully configured'))
  @ApiResponse(BROWSER_ERROR(404, 'No such identity provider'))
  startSamlSsoDeprecated(
    @Param('system_domain_id') domainId: string,
    @Param('identity_provider_id') id: string,
    @Query('return_to') returnTo: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.browser(req, res, async () =>
      this.start(await this.saml.byDomainAndId(domainId, id), returnTo),
    );
  }

  @Route.post('acs/:public_id', {
    summary: 'SAML assertion consumer service (HTTP-POST binding): 302 to the web app with saml_code',
    public: 'signin',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody(ACS_FORM)
  @ApiResponse({ ...REDIRECT, description: 'To the web app, with ?saml_code= (exchange it at token/)' })
  @ApiResponse(BROWSER_ERROR(400, 'No SAMLResponse, or not a plain XML document'))
  @ApiResponse(BROWSER_ERROR(401, 'The response was refused (signature, audience, times, replay, user…)'))
  @ApiResponse(BROWSER_ERROR(404, 'No such identity provider'))
  samlAcs(
    @Param('public_id') publicId: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.browser(req, res, async () => this.consume(await this.saml.byPublicId(publicId), body, req));
  }

  @Post('acs/:system_domain_id/:identity_provider_id')
  @Public('signin')
  @ApiOperation({ summary: 'Deprecated form of acs/{public_id}', deprecated: true })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody(ACS_FORM)
  @ApiResponse({ ...REDIRECT, description: 'To the web app, with ?saml_code= (exchange it at token/)' })
  @ApiResponse(BROWSER_ERROR(400, 'No SAMLResponse, or not a plain XML document'))
  @ApiResponse(BROWSER_ERROR(401, 'The response was refused'))
  @ApiResponse(BROWSER_ERROR(404, 'No such identity provider'))
  samlAcsDeprecated(
    @Param('system_domain_id') domainId: string,
    @Param('identity_provider_id') id: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.browser(req, res, async () =>
      this.consume(await this.saml.byDomainAndId(domainId, id), body, req),
    );
  }
}
