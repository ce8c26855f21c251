import { Body, Param } from '@nestjs/common';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { IdentityProviderDto, UpdateIdentityProviderDto } from './dto/identity-provider.dto.js';
import type { IdentityProvidersService } from './identity-providers.service.js';
import { DomainBindingRoutes } from './domain-binding.routes.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe('Identity provider');
const idpAccess = { admin: true, access: { entity: 'identity_provider', param: 'identity_provider_id' } };
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

/**
 * The /idp/{identity_provider_id} routes of `IdentityProvidersController`, which extends this class: Nest
 * registers a controller's own routes first and inherited ones after, so the route order and the route-policy
 * keys (`<Controller>.<method>`) stay as they were.
 */
export abstract class IdpByIdRoutes extends DomainBindingRoutes {
  protected abstract readonly idps: IdentityProvidersService;

  @Route.get('idp/:identity_provider_id', {
    summary: 'One identity provider',
    policy: idpAccess,
    ok: IdentityProviderDto,
    errors: [404],
  })
  getIdentityProvider(
    @Param('identity_provider_id', uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<IdentityProviderDto> {
    return this.idps.get(caller, id);
  }

  @edit.both('replaceIdentityProvider')
  updateIdentityProvider(
    @Param('identity_provider_id', uuid) id: string,
    @Body() body: UpdateIdentityProviderDto,
    @Caller() caller: AuthContext,
  ): Promise<IdentityProviderDto> {
    return this.idps.update(caller, id, body);
  }

  @Route.delete('idp/:identity_provider_id', {
    summary: 'Delete an identity provider (its email domains are unbound)',
    policy: idpAccess,
    noContent: 'Deleted',
    errors: [404],
  })
  deleteIdentityProvider(
    @Param('identity_provider_id', uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.idps.remove(caller, id);
  }
}
