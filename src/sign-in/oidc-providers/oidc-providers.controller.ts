import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { CrudRoutes } from '../../base/common/http/crud-routes.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  CreateOidcProviderDto,
  OidcProviderDto,
  OidcProviderListDto,
  UpdateOidcProviderDto,
} from './dto/oidc-provider.dto.js';
import { OidcProvidersService } from './oidc-providers.service.js';

const id = input.uuidParam('provider_id', 'OpenID provider');
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
const providers = ServiceRoutes<OidcProvidersService>('providers');

/** A domain's external OpenID providers (docs/federated-login.md): its administrators', in their own domain. */
@ApiTags('OpenID providers')
@ApiErrors(400)
@Controller('API/auth/v1/oidc_providers')
export class OidcProvidersController extends providers.handlers({
  listOidcProviders: providers.call('list', routes.list, input.caller, input.query(PageQueryDto), input.path),
  createOidcProvider: providers.call(
    'create',
    routes.create,
    input.caller,
    input.body(CreateOidcProviderDto),
  ),
  getOidcProvider: providers.call('get', routes.get, input.caller, id),
  updateOidcProvider: providers.call(
    'update',
    routes.update,
    input.caller,
    id,
    input.body(UpdateOidcProviderDto),
  ),
  deleteOidcProvider: providers.call('remove', routes.remove, input.caller, id),
}) {
  constructor(protected readonly providers: OidcProvidersService) {
    super();
  }
}
