import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  CreateOidcProviderDto,
  OidcProviderDto,
  OidcProviderListDto,
  UpdateOidcProviderDto,
} from './dto/oidc-provider.dto.js';
import { OidcProvidersService } from './oidc-providers.service.js';

const admin = { admin: true } as const;
const uuid = new UuidParamPipe('OpenID provider');

/** A domain's external OpenID providers (docs/federated-login.md): its administrators', in their own domain. */
@ApiTags('OpenID providers')
@ApiErrors(400)
@Controller('API/auth/v1/oidc_providers')
export class OidcProvidersController {
  constructor(private readonly providers: OidcProvidersService) {}

  @Get()
  @Authenticated(admin)
  @ApiOperation({ summary: 'The caller’s domain’s OpenID providers (page list)' })
  @ApiOkResponse({ type: OidcProviderListDto })
  listOidcProviders(@Query() q: PageQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.providers.list(caller, q, req.path);
  }

  @Post()
  @Authenticated(admin)
  @ApiOperation({
    summary:
      'Add an OpenID provider; register its redirect_uri at the provider (the client secret is sealed)',
  })
  @ApiCreatedResponse({ type: OidcProviderDto })
  createOidcProvider(
    @Body() body: CreateOidcProviderDto,
    @Caller() caller: AuthContext,
  ): Promise<OidcProviderDto> {
    return this.providers.create(caller, body);
  }

  @Get(':provider_id')
  @Authenticated(admin)
  @ApiOperation({ summary: 'One OpenID provider' })
  @ApiOkResponse({ type: OidcProviderDto })
  @ApiErrors(404)
  getOidcProvider(
    @Param('provider_id', uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<OidcProviderDto> {
    return this.providers.get(caller, id);
  }

  @Patch(':provider_id')
  @Authenticated(admin)
  @ApiOperation({ summary: 'Change an OpenID provider (any subset; settings merged over the stored ones)' })
  @ApiOkResponse({ type: OidcProviderDto })
  @ApiErrors(404)
  updateOidcProvider(
    @Param('provider_id', uuid) id: string,
    @Body() body: UpdateOidcProviderDto,
    @Caller() caller: AuthContext,
  ): Promise<OidcProviderDto> {
    return this.providers.update(caller, id, body);
  }

  @Delete(':provider_id')
  @HttpCode(204)
  @Authenticated(admin)
  @ApiOperation({ summary: 'Delete an OpenID provider (its email domains are unbound)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  deleteOidcProvider(@Param('provider_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.providers.remove(caller, id);
  }
}
