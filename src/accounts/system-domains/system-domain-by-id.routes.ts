import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  CreateSystemDomainDto,
  SystemDomainDto,
  SystemDomainProfileDto,
  UpdateSystemDomainDto,
} from './dto/system-domain.dto.js';
import type { SystemDomainAdminService } from './system-domain-admin.service.js';
import {
  superAdmin,
  domainAdmin,
  NOT_FOUND,
  domainId,
  SystemDomainFeatureRoutes,
} from './system-domain-feature.routes.js';
import { Route } from '../../base/common/http/route.js';

const edit = PutAndPatch({
  path: ':id',
  policy: superAdmin,
  ok: SystemDomainDto,
  errors: [{ 404: NOT_FOUND }],
  put: 'Update a system domain: the super-admin form, name and base_url required; fields left out stay',
  patch: 'Update some fields of a system domain (the super-admin form)',
});
const domains = ServiceRoutes<SystemDomainAdminService>('domains');
const id = input.param('id', domainId);

/**
 * The /{id} routes (the domain, its end-to-end removal, its profile) of `SystemDomainsController`, classes it
 * extends: Nest registers a controller's own routes first and inherited ones after, so the route order and the
 * route-policy keys (`<Controller>.<method>`) stay as they were.
 */
export const SystemDomainByIdRoutes = domains.handlers(
  {
    getSystemDomain: domains.call(
      'get',
      Route.get(':id', {
        summary: 'One system domain, full form (its administrators: their own domain only)',
        policy: domainAdmin,
        ok: SystemDomainDto,
        errors: [{ 404: NOT_FOUND }],
      }),
      id,
    ),
    replaceSystemDomain: domains.call(
      'update',
      edit.put,
      input.caller,
      id,
      input.body(CreateSystemDomainDto),
    ),
    updateSystemDomain: domains.call(
      'update',
      edit.patch,
      input.caller,
      id,
      input.body(UpdateSystemDomainDto),
    ),
    deleteSystemDomain: domains.call(
      'remove',
      Route.delete(':id', {
        summary:
          'Delete a system domain and everything in it, at once: its tokens stop working, its apps, groups, ' +
          'memberships, invitations and webhooks go, users who belonged to it alone are deleted, the others keep ' +
          'their accounts in their other domains. Not the domain of the caller’s own token (400)',
        policy: superAdmin,
        noContent: 'Deleted',
        errors: [{ 404: NOT_FOUND }],
      }),
      input.caller,
      id,
    ),
    deleteSystemDomainE2e: domains.handle(
      Route.delete(':id/e2e', {
        summary:
          'Remove an end-to-end test domain and its test data: as DELETE /v1/system_domains/{id}/, for a domain ' +
          'created with is_e2e only (409 for any other domain, which stays); audited as domain.changed (e2e)',
        policy: superAdmin,
        noContent: 'Deleted',
        errors: [{ 404: NOT_FOUND, 409: 'Not an end-to-end test domain' }],
      }),
      (s, c, i) => s.remove(c, i, { e2eOnly: true }),
      input.caller,
      id,
    ),
    getSystemDomainProfile: domains.call(
      'profile',
      Route.get(':id/profile', {
        summary: 'The domain’s Profile (industry)',
        policy: domainAdmin,
        ok: SystemDomainProfileDto,
        errors: [{ 404: NOT_FOUND }],
      }),
      id,
    ),
    updateSystemDomainProfile: domains.call(
      'updateProfile',
      Route.patch(':id/profile', {
        summary: 'Edit the domain’s Profile (industry): its administrators and super administrators',
        policy: domainAdmin,
        ok: SystemDomainProfileDto,
        errors: [{ 404: NOT_FOUND }],
      }),
      input.caller,
      id,
      input.body(SystemDomainProfileDto),
    ),
  },
  SystemDomainFeatureRoutes,
);
