import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiConsumes,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { PutAndPatch } from '../common/http/put-patch.js';
import { ApiErrors } from '../common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { CursorQueryDto } from '../common/http/pagination.dto.js';
import { UuidParamPipe } from '../common/http/uuid-param.pipe.js';
import {
  ConvertedIdentityProviderDto,
  CreateIdentityProviderDto,
  DomainBindingDto,
  DomainIdentityProviderMapDto,
  IdentityProviderDto,
  IdentityProviderListDto,
  UnbindDomainQueryDto,
  UpdateIdentityProviderDto,
  VerifyDomainDto,
} from './dto/identity-provider.dto.js';
import { DomainBindingsService } from './domain-bindings.service.js';
import { IdpErrors } from './identity-providers.errors.js';
import { IdentityProvidersService } from './identity-providers.service.js';
import { isXmlRequest, XmlBodyInterceptor } from './xml-body.js';

const uuid = new UuidParamPipe('Identity provider');
const admin = { admin: true } as const;
const idpAccess = { admin: true, access: { entity: 'identity_provider', param: 'identity_provider_id' } };
const XML_BODY = {
  description: 'The IdP’s SAML 2.0 metadata: an EntityDescriptor (no DTDs, at most 200 kB)',
  schema: { type: 'string' },
};
const UPDATE =
  'Update an identity provider (any subset; settings are merged over the stored ones and judged again)';

const edit = PutAndPatch({
  path: 'idp/:identity_provider_id',
  policy: idpAccess,
  ok: IdentityProviderDto,
  errors: [404],
  put: `${UPDATE}. The same as PATCH`,
  patch: UPDATE,
});

/** Identity providers of the caller's domain and the email domains routed to them (domain administrators). */
@ApiTags('identity providers')
@ApiErrors(400)
@Controller('API/auth/v1/auth/saml')
export class IdentityProvidersController {
  constructor(
    private readonly idps: IdentityProvidersService,
    private readonly bindings: DomainBindingsService,
  ) {}

  @Get('idp')
  @Authenticated(admin)
  @ApiOperation({ summary: 'Identity providers of the caller’s domain (cursor style)' })
  @ApiOkResponse({ type: IdentityProviderListDto })
  listIdentityProviders(
    @Query() q: CursorQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<IdentityProviderListDto> {
    return this.idps.list(caller, q, req.path);
  }

  @Post('idp')
  @Authenticated(admin)
  @UseInterceptors(XmlBodyInterceptor)
  @ApiOperation({
    summary:
      'Register an identity provider: JSON, or the IdP’s metadata XML (application/xml) for a GENERIC one; ' +
      'saml_settings says what to enter at the IdP',
  })
  @ApiConsumes('application/json', 'application/xml')
  @ApiBody({
    type: CreateIdentityProviderDto,
    description: 'As application/xml: the IdP’s metadata (an EntityDescriptor, no DTDs, at most 200 kB)',
  })
  @ApiCreatedResponse({ type: IdentityProviderDto })
  createIdentityProvider(
    @Body() body: unknown,
    @Req() req: Request,
    @Caller() caller: AuthContext,
  ): Promise<IdentityProviderDto> {
    return this.idps.create(caller, isXmlRequest(req) ? String(body ?? '') : body);
  }

  @Post('idp/convert')
  @Authenticated(admin)
  @UseInterceptors(XmlBodyInterceptor)
  @ApiOperation({ summary: 'IdP metadata XML (an EntityDescriptor) → the settings JSON of a GENERIC IdP' })
  @ApiConsumes('application/xml')
  @ApiBody(XML_BODY)
  @ApiCreatedResponse({ type: ConvertedIdentityProviderDto })
  convertIdentityProviderMetadata(@Body() body: unknown, @Req() req: Request): ConvertedIdentityProviderDto {
    if (!isXmlRequest(req) || typeof body !== 'string')
      throw IdpErrors.INVALID_XML('send the EntityDescriptor as application/xml');
    return this.idps.convert(body);
  }

  @Get('idp/:identity_provider_id')
  @Authenticated(idpAccess)
  @ApiOperation({ summary: 'One identity provider' })
  @ApiOkResponse({ type: IdentityProviderDto })
  @ApiErrors(404)
  getIdentityProvider(
    @Param('identity_provider_id', uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<IdentityProviderDto> {
    return this.idps.get(caller, id);
  }

  @edit.put
  replaceIdentityProvider(
    @Param('identity_provider_id', uuid) id: string,
    @Body() body: UpdateIdentityProviderDto,
    @Caller() caller: AuthContext,
  ): Promise<IdentityProviderDto> {
    return this.idps.update(caller, id, body);
  }

  @edit.patch
  updateIdentityProvider(
    @Param('identity_provider_id', uuid) id: string,
    @Body() body: UpdateIdentityProviderDto,
    @Caller() caller: AuthContext,
  ): Promise<IdentityProviderDto> {
    return this.idps.update(caller, id, body);
  }

  @Delete('idp/:identity_provider_id')
  @HttpCode(204)
  @Authenticated(idpAccess)
  @ApiOperation({ summary: 'Delete an identity provider (its email domains are unbound)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  deleteIdentityProvider(
    @Param('identity_provider_id', uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.idps.remove(caller, id);
  }

  @Post('domains')
  @Authenticated(admin)
  @ApiOperation({
    summary:
      'Claim an email domain for one of the caller’s identity providers: verified false with the DNS TXT ' +
      'record to publish (verification); it routes no one until verified. One IdP per name and domain; a ' +
      'name verified elsewhere, or that people of other domains or a super administrator use, is refused ' +
      'unless a super administrator decides (force: bound and verified at once)',
  })
  @ApiCreatedResponse({ type: DomainBindingDto })
  @ApiErrors(409, {
    403: 'force from someone not a super administrator',
    404: 'No such identity provider in the caller’s domain',
  })
  bindIdentityProviderDomain(
    @Body() body: DomainIdentityProviderMapDto,
    @Caller() caller: AuthContext,
  ): Promise<DomainBindingDto> {
    return this.bindings.bind(caller, body);
  }

  @Post('domains/:domain/verify')
  @HttpCode(200)
  @Authenticated(admin)
  @ApiOperation({
    summary:
      'Verify an email domain binding: the TXT record _portcullis-challenge.<domain> must carry its value ' +
      '(looked up now), or a super administrator decides (force). The caller’s domain’s binding; super ' +
      'administrators may name another domain’s',
  })
  @ApiOkResponse({ type: DomainBindingDto })
  @ApiErrors(404, {
    403: 'force from someone not a super administrator',
    409: 'The record is not there (yet), or another domain holds the name verified',
    503: 'The DNS lookup did not complete (no answer within DNS_TIMEOUT_MS, or the resolvers failed)',
  })
  verifyIdentityProviderDomain(
    @Param('domain') domain: string,
    @Body() body: VerifyDomainDto,
    @Caller() caller: AuthContext,
  ): Promise<DomainBindingDto> {
    return this.bindings.verify(caller, domain, body);
  }

  @Delete('domains/:domain')
  @HttpCode(204)
  @Authenticated(admin)
  @ApiOperation({
    summary:
      'Unbind an email domain of the caller’s domain; super administrators any domain’s (system_domain_id), ' +
      'or without it the name’s bindings in every domain',
  })
  @ApiNoContentResponse({ description: 'Unbound' })
  @ApiErrors(404)
  unbindIdentityProviderDomain(
    @Param('domain') domain: string,
    @Query() q: UnbindDomainQueryDto,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.bindings.unbind(caller, domain, q.system_domain_id);
  }
}
