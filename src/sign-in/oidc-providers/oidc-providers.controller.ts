import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { CrudRoutes } from '../../base/common/http/crud-routes.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  CreateOidcProviderDto,
  OidcProviderDto,
  OidcProviderListDto,
  UpdateOidcProviderDto,
} from './dto/oidc-provider.dto.js';
import { OidcProvidersService } from './oidc-providers.service.js';

const uuid = new UuidParamPipe('OpenID provider');
const routes = CrudRoutes({
  param: 'provider_id',
  policy: { admin: true },
  item: OidcProviderDto,
  list: OidcProviderListDto,
  summaries: {
    list: 'The caller’s domain’s OpenID providers (page list)',
    create: 'Add an OpenID provider; register its redirect_uri at the provider (the client secret is sealed)',
    get: 'One OpenID provider',
    update: 'Change an OpenID provider (any subset; settings merged over the stored ones)',
    remove: 'Delete an OpenID provider (its email domains are unbound)',
  },
});

/** A domain's external OpenID providers (docs/federated-login.md): its administrators', in their own domain. */
@ApiTags('OpenID providers')
@ApiErrors(400)
@Controller('API/auth/v1/oidc_providers')
export class OidcProvidersController {
  constructor(private readonly providers: OidcProvidersService) {}

  @routes.list
  listOidcProviders(@Query() q: PageQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.providers.list(caller, q, req.path);
  }

  @routes.create
  createOidcProvider(
    @Body() body: CreateOidcProviderDto,
    @Caller() caller: AuthContext,
  ): Promise<OidcProviderDto> {
    return this.providers.create(caller, body);
  }

  @routes.get
  getOidcProvider(
    @Param('provider_id', uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<OidcProviderDto> {
    return this.providers.get(caller, id);
  }

  @routes.update
  updateOidcProvider(
    @Param('provider_id', uuid) id: string,
    @Body() body: UpdateOidcProviderDto,
    @Caller() caller: AuthContext,
  ): Promise<OidcProviderDto> {
    return this.providers.update(caller, id, body);
  }

  @routes.remove
  deleteOidcProvider(@Param('provider_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.providers.remove(caller, id);
  }
}
