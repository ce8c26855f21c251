import { Get, HttpCode, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request, Response } from 'express';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { SamlUrlDto } from './dto/identity-provider.dto.js';
import type { IdentityProviderEntity } from '../../base/model/identity-provider.entity.js';
import { IdpErrors } from './identity-providers.errors.js';
import { answerBrowser, BROWSER_ERROR, REDIRECT } from '../federation/browser-answer.js';
import { HostileXmlError } from './saml-xml.js';
import { SamlRefusal, type SamlService } from './saml.service.js';
import type { SsoLoginService } from './sso-login.service.js';
import { Route } from '../../base/common/http/route.js';

export { BROWSER_ERROR, REDIRECT };

/**
 * The metadata, single logout and logout routes of `SamlController` (through `SamlSsoRoutes`), and the helpers
 * of its browser routes. `SamlController` extends `SamlSsoRoutes`, which extends this class: Nest registers a
 * controller's own routes first and inherited ones after, so the route order and the route-policy keys
 * (`SamlController.<method>`) stay as they were.
 */
export abstract class SamlMetadataLogoutRoutes {
  protected abstract readonly saml: SamlService;
  protected abstract readonly sso: SsoLoginService;
  private readonly logger = new Logger('SAML');

  @Route.get('metadata/:public_id', {
    summary: 'The SP metadata (EntityDescriptor) to give the IdP’s administrator',
    public: 'anonymous',
    ok: {
      description: 'SAML 2.0 SP metadata',
      content: { 'application/xml': { schema: { type: 'string' } } },
    },
    errors: [404, { 400: 'A malformed path' }],
  })
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

  @Route.get('slo/:public_id', {
    summary: 'Single logout: 302 to the IdP’s SLO endpoint, or back to the web app when it has none',
    public: 'anonymous',
    errors: [{ 400: 'A malformed path' }],
  })
  @ApiResponse(REDIRECT)
  @ApiResponse(BROWSER_ERROR(404, 'No such identity provider'))
  samlSlo(@Param('public_id') publicId: string, @Req() req: Request, @Res() res: Response) {
    return this.browser(req, res, async () => this.slo(await this.saml.byPublicId(publicId)));
  }

  @Route.post('slo/:public_id', {
    summary: 'Single logout (POST binding): as GET',
    public: 'anonymous',
    errors: [{ 400: 'A malformed path' }],
  })
  @ApiResponse(REDIRECT)
  @ApiResponse(BROWSER_ERROR(404, 'No such identity provider'))
  samlSloPost(@Param('public_id') publicId: string, @Req() req: Request, @Res() res: Response) {
    return this.browser(req, res, async () => this.slo(await this.saml.byPublicId(publicId)));
  }

  @Get('slo/:system_domain_id/:identity_provider_id')
  @Public()
  @ApiOperation({
    summary: 'Deprecated form of slo/{public_id} (GET): the same single logout',
    deprecated: true,
  })
  @ApiResponse(REDIRECT)
  @ApiResponse(BROWSER_ERROR(404, 'No such identity provider'))
  @ApiErrors({ 400: 'A malformed path' })
  samlSloDeprecated(
    @Param('system_domain_id') domainId: string,
    @Param('identity_provider_id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.browser(req, res, async () => this.slo(await this.saml.byDomainAndId(domainId, id)));
  }

  @Route.post('logout/:public_id', {
    summary: '{url} of the IdP’s single logout (null when the IdP has none)',
    public: 'anonymous',
    ok: SamlUrlDto,
    errors: [404, { 400: 'A malformed path' }],
  })
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

  protected async start(idp: IdentityProviderEntity, returnTo: unknown): Promise<string> {
    const back = await this.sso.safeReturn(idp, typeof returnTo === 'string' ? returnTo : null);
    return this.saml.authorizeUrl(idp, back);
  }

  protected async consume(idp: IdentityProviderEntity, body: unknown, req: Request): Promise<string> {
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

  protected async slo(idp: IdentityProviderEntity): Promise<string> {
    return this.saml.logoutUrl(idp) ?? (await this.sso.safeReturn(idp, null));
  }

  /** A browser's answer: a 302 (no body, never cached), or the error as a page or as JSON. */
  protected browser(req: Request, res: Response, run: () => Promise<string>): Promise<void> {
    return answerBrowser(req, res, run);
  }
}
