import { Body, Controller, Get, HttpCode, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.js';
import type { Request, Response } from 'express';
import { Public } from '../common/auth/authenticated.decorator.js';
import { ApiError } from '../common/errors/api-error.js';
import { LoginTokenDto, MultiDomainUserSystemDto } from '../tokens/dto/token.dto.js';
import { SamlLoginDto, SamlTokenRequestDto, SamlUrlDto } from './dto/identity-provider.dto.js';
import type { IdentityProviderEntity } from './identity-provider.entity.js';
import { IdpErrors } from './identity-providers.errors.js';
import { ssoErrorPage } from './saml-pages.js';
import { HostileXmlError } from './saml-xml.js';
import { SamlRefusal, SamlService } from './saml.service.js';
import { SsoLoginService } from './sso-login.service.js';

const REDIRECT = {
  status: 302,
  description: 'To the identity provider (or back to the web app)',
  headers: { Location: { schema: { type: 'string', format: 'uri' } } },
};
const BROWSER_ERROR = (status: number, description: string) => ({
  status,
  description: `${description}; an HTML page when the browser asks for text/html`,
  content: {
    'application/json': { schema: { $ref: '#/components/schemas/ErrorsDto' } },
    'text/html': { schema: { type: 'string' } },
  },
});
const ACS_FORM = {
  schema: {
    type: 'object',
    required: ['SAMLResponse'],
    properties: { SAMLResponse: { type: 'string' }, RelayState: { type: 'string' } },
  },
};

/**
 * The SAML endpoints a browser and an IdP reach: none takes a credential. Sign-in ends on a 302 to the web
 * app with a single-use code (never a token in a URL), exchanged at `token/`.
 */
@ApiTags('saml')
@Controller('API/auth/v1/auth/saml')
export class SamlController {
  private readonly logger = new Logger('SAML');

  constructor(
    private readonly saml: SamlService,
    private readonly sso: SsoLoginService,
  ) {}

  @Post('login')
  @HttpCode(200)
  @Public('signin')
  @ApiOperation({
    summary: 'SAMLLogin {email} → {url} that starts single sign-on at the IdP of the email’s domain',
  })
  @ApiOkResponse({ type: SamlUrlDto })
  @ApiErrors(400, { 404: 'No identity provider serves this email’s domain' })
  samlLogin(@Body() body: SamlLoginDto): Promise<{ url: string }> {
    return this.sso.loginUrl(body.email);
  }

  @Post('multidomain/login')
  @HttpCode(200)
  @Public('signin')
  @ApiOperation({ summary: '{email} → the domains offering it single sign-on (url starts it)' })
  @ApiOkResponse({ type: [MultiDomainUserSystemDto] })
  @ApiErrors(400)
  samlMultiDomainLogin(@Body() body: SamlLoginDto): Promise<MultiDomainUserSystemDto[]> {
    return this.sso.multiDomain(body.email);
  }

  @Post('token')
  @HttpCode(201)
  @Public('signin')
  @ApiOperation({
    summary: 'The single-use code of the ACS redirect (valid one minute) → the Token, as password login',
  })
  @ApiCreatedResponse({ type: LoginTokenDto })
  @ApiErrors(400, { 401: 'Unknown, used or expired code' })
  samlToken(
    @Body() body: SamlTokenRequestDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LoginTokenDto> {
    res.set('Cache-Control', 'no-store');
    return this.sso.exchange(body.code);
  }

  @Get('sso/:public_id')
  @Public('signin')
  @ApiOperation({
    summary: 'Starts SP-initiated SSO: 302 to the IdP with an AuthnRequest (query return_to: where to end)',
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

  @Post('acs/:public_id')
  @Public('signin')
  @ApiOperation({
    summary: 'SAML assertion consumer service (HTTP-POST binding): 302 to the web app with saml_code',
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

  @Get('metadata/:public_id')
  @Public()
  @ApiOperation({ summary: 'The SP metadata (EntityDescriptor) to give the IdP’s administrator' })
  @ApiOkResponse({
    description: 'SAML 2.0 SP metadata',
    content: { 'application/xml': { schema: { type: 'string' } } },
  })
  @ApiErrors(404, { 400: 'A malformed path' })
  async samlMetadata(@Param('public_id') publicId: string, @Res() res: Response): Promise<void> {
    const xml = await this.saml.metadata(await this.saml.byPublicId(publicId));
    res.status(200).type('application/xml').send(xml);
  }

  @Get('metadata/:system_domain_id/:identity_provider_id')
  @Public()
  @ApiOperation({ summary: 'Deprecated form of metadata/{public_id}', deprecated: true })
  @ApiOkResponse({
    description: 'SAML 2.0 SP metadata',
    content: { 'application/xml': { schema: { type: 'string' } } },
  })
  @ApiErrors(404, { 400: 'A malformed path' })
  async samlMetadataDeprecated(
    @Param('system_domain_id') domainId: string,
    @Param('identity_provider_id') id: string,
    @Res() res: Response,
  ): Promise<void> {
    const xml = await this.saml.metadata(await this.saml.byDomainAndId(domainId, id));
    res.status(200).type('application/xml').send(xml);
  }

  @Get('slo/:public_id')
  @Public()
  @ApiOperation({
    summary: 'Single logout: 302 to the IdP’s SLO endpoint, or back to the web app when it has none',
  })
  @ApiResponse(REDIRECT)
  @ApiResponse(BROWSER_ERROR(404, 'No such identity provider'))
  @ApiErrors({ 400: 'A malformed path' })
  samlSlo(@Param('public_id') publicId: string, @Req() req: Request, @Res() res: Response) {
    return this.browser(req, res, async () => this.slo(await this.saml.byPublicId(publicId)));
  }

  @Post('slo/:public_id')
  @Public()
  @ApiOperation({ summary: 'Single logout (POST binding): as GET' })
  @ApiResponse(REDIRECT)
  @ApiResponse(BROWSER_ERROR(404, 'No such identity provider'))
  @ApiErrors({ 400: 'A malformed path' })
  samlSloPost(@Param('public_id') publicId: string, @Req() req: Request, @Res() res: Response) {
    return this.browser(req, res, async () => this.slo(await this.saml.byPublicId(publicId)));
  }

  @Post('logout/:public_id')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: '{url} of the IdP’s single logout (null when the IdP has none)' })
  @ApiOkResponse({ type: SamlUrlDto })
  @ApiErrors(404, { 400: 'A malformed path' })
  async samlLogout(@Param('public_id') publicId: string): Promise<SamlUrlDto> {
    return { url: this.saml.logoutUrl(await this.saml.byPublicId(publicId)) };
  }

  @Post('logout/:system_domain_id/:identity_provider_id')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Deprecated form of logout/{public_id}', deprecated: true })
  @ApiOkResponse({ type: SamlUrlDto })
  @ApiErrors(404, { 400: 'A malformed path' })
  async samlLogoutDeprecated(
    @Param('system_domain_id') domainId: string,
    @Param('identity_provider_id') id: string,
  ): Promise<SamlUrlDto> {
    return { url: this.saml.logoutUrl(await this.saml.byDomainAndId(domainId, id)) };
  }

  private async start(idp: IdentityProviderEntity, returnTo: unknown): Promise<string> {
    const back = await this.sso.safeReturn(idp, typeof returnTo === 'string' ? returnTo : null);
    return this.saml.authorizeUrl(idp, back);
  }

  private async consume(idp: IdentityProviderEntity, body: unknown, req: Request): Promise<string> {
    const form = (body ?? {}) as Record<string, unknown>;
    if (typeof form.SAMLResponse !== 'string' || !form.SAMLResponse) throw IdpErrors.BAD_RESPONSE();
    const relay = typeof form.RelayState === 'string' ? form.RelayState : null;
    try {
      const accepted = await this.saml.accept(idp, form.SAMLResponse, relay);
      return await this.sso.complete(idp, accepted, req.id ?? null);
    } catch (e) {
      if (e instanceof HostileXmlError) {
        this.logger.warn({ identity_provider_id: idp.id, reason: e.message }, 'SAML response refused (400)');
        throw IdpErrors.BAD_RESPONSE();
      }
      if (e instanceof SamlRefusal) {
        this.logger.warn({ identity_provider_id: idp.id, reason: e.message }, 'SAML response refused');
        throw IdpErrors.REFUSED();
      }
      throw e;
    }
  }

  private async slo(idp: IdentityProviderEntity): Promise<string> {
    return this.saml.logoutUrl(idp) ?? (await this.sso.safeReturn(idp, null));
  }

  /** A browser's answer: a 302 (no body, never cached), or the error as a page or as JSON. */
  private async browser(req: Request, res: Response, run: () => Promise<string>): Promise<void> {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    try {
      const url = await run();
      res.status(302).location(url).end();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      res.set(e.headers ?? {});
      if (e.code) res.set('X-Error-Code', e.code);
      const message = Array.isArray(e.errors) ? e.errors.join(' ') : Object.values(e.errors).join(' ');
      if (req.accepts(['application/json', 'text/html']) === 'text/html') {
        res.status(e.status).type('text/html').send(ssoErrorPage(message));
      } else {
        res.status(e.status).json({ errors: e.errors });
      }
    }
  }
}
