import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  DomainBindingDto,
  DomainIdentityProviderMapDto,
  UnbindDomainQueryDto,
  VerifyDomainDto,
} from './dto/identity-provider.dto.js';
import type { DomainBindingsService } from './domain-bindings.service.js';
import { Route } from '../../base/common/http/route.js';

export const admin = { admin: true } as const;
const bindings = ServiceRoutes<DomainBindingsService>('bindings');
const domain = input.param('domain');
/** The query's system_domain_id: the service takes the id alone. */
const systemDomainId: RouteInput<string | undefined> = {
  ...input.query(UnbindDomainQueryDto),
  pick: (q: UnbindDomainQueryDto) => q.system_domain_id,
};

/**
 * The domain binding routes of `IdentityProvidersController`, which extends this class: Nest registers a
 * controller's own routes first and inherited ones after, so the route order and the route-policy keys
 * (`<Controller>.<method>`) stay as they were.
 */
export const DomainBindingRoutes = bindings.handlers({
  bindIdentityProviderDomain: bindings.call(
    'bind',
    Route.post('domains', {
      summary:
        'Claim an email domain for one of the caller’s identity providers: verified false with the DNS TXT ' +
        'record to publish (verification); it routes no one until verified. One IdP per name and domain; a ' +
        'name verified elsewhere, or that people of other domains or a super administrator use, is refused ' +
        'unless a super administrator decides (force: bound and verified at once)',
      policy: admin,
      created: DomainBindingDto,
      errors: [
        409,
        {
          403: 'force from someone not a super administrator',
          404: 'No such identity provider in the caller’s domain',
        },
      ],
    }),
    input.caller,
    input.body(DomainIdentityProviderMapDto),
  ),
  verifyIdentityProviderDomain: bindings.call(
    'verify',
    Route.post('domains/:domain/verify', {
      summary:
        'Verify an email domain binding: the TXT record _portcullis-challenge.<domain> must carry its value ' +
        '(looked up now), or a super administrator decides (force). The caller’s domain’s binding; super ' +
        'administrators may name another domain’s',
      policy: admin,
      ok: DomainBindingDto,
      errors: [
        404,
        {
          403: 'force from someone not a super administrator',
          409: 'The record is not there (yet), or another domain holds the name verified',
          503: 'The DNS lookup did not complete (no answer within DNS_TIMEOUT_MS, or the resolvers failed)',
        },
      ],
    }),
    input.caller,
    domain,
    input.body(VerifyDomainDto),
  ),
  unbindIdentityProviderDomain: bindings.call(
    'unbind',
    Route.delete('domains/:domain', {
      summary:
        'Unbind an email domain of the caller’s domain; super administrators any domain’s (system_domain_id), ' +
        'or without it the name’s bindings in every domain',
      policy: admin,
      noContent: 'Unbound',
      errors: [404],
    }),
    input.caller,
    domain,
    systemDomainId,
  ),
});
