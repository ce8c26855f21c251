import { Body, Controller, Query, Req, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { CursorQueryDto } from '../../base/common/http/pagination.dto.js';
import {
  ConvertedIdentityProviderDto,
  CreateIdentityProviderDto,
  IdentityProviderDto,
  IdentityProviderListDto,
} from './dto/identity-provider.dto.js';
import { DomainBindingsService } from './domain-bindings.service.js';
import { IdpErrors } from './identity-providers.errors.js';
import { IdentityProvidersService } from './identity-providers.service.js';
import { isXmlRequest, XmlBodyInterceptor } from './xml-body.js';
import { admin } from './domain-binding.routes.js';
import { IdpByIdRoutes } from './idp-by-id.routes.js';
import { Route } from '../../base/common/http/route.js';

const XML_BODY = {
  description: 'The IdP’s SAML 2.0 metadata: an EntityDescriptor (no DTDs, at most 200 kB)',
  schema: { type: 'string' },
};
/** Identity providers of the caller's domain and the email domains routed to them (domain administrators). */
@ApiTags('identity providers')
@ApiErrors(400)
@Controller('API/auth/v1/auth/saml')
export class IdentityProvidersController extends IdpByIdRoutes {
  constructor(
    protected readonly idps: IdentityProvidersService,
    protected readonly bindings: DomainBindingsService,
  ) {
    super();
  }

  @Route.get('idp', {
    summary: 'Identity providers of the caller’s domain (cursor style)',
    policy: admin,
    ok: IdentityProviderListDto,
  })
  listIdentityProviders(
    @Query() q: CursorQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<IdentityProviderListDto> {
    return this.idps.list(caller, q, req.path);
  }

  @Route.post('idp', {
    summary:
      'Register an identity provider: JSON, or the IdP’s metadata XML (application/xml) for a GENERIC one; ' +
      'saml_settings says what to enter at the IdP',
    policy: admin,
    created: IdentityProviderDto,
  })
  @UseInterceptors(XmlBodyInterceptor)
  @ApiConsumes('application/json', 'application/xml')
  @ApiBody({
    type: CreateIdentityProviderDto,
    description: 'As application/xml: the IdP’s metadata (an EntityDescriptor, no DTDs, at most 200 kB)',
  })
  createIdentityProvider(
    @Body() body: unknown,
    @Req() req: Request,
    @Caller() caller: AuthContext,
  ): Promise<IdentityProviderDto> {
    return this.idps.create(caller, isXmlRequest(req) ? String(body ?? '') : body);
  }

  @Route.post('idp/convert', {
    summary: 'IdP metadata XML (an EntityDescriptor) → the settings JSON of a GENERIC IdP',
    policy: admin,
    created: ConvertedIdentityProviderDto,
  })
  @UseInterceptors(XmlBodyInterceptor)
  @ApiConsumes('application/xml')
  @ApiBody(XML_BODY)
  convertIdentityProviderMetadata(@Body() body: unknown, @Req() req: Request): ConvertedIdentityProviderDto {
    if (!isXmlRequest(req) || typeof body !== 'string')
      throw IdpErrors.INVALID_XML('send the EntityDescriptor as application/xml');
    return this.idps.convert(body);
  }
}
