import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  NewSystemDomainDto,
  SystemDomainBasicDto,
  SystemDomainDto,
  SystemDomainListDto,
  SystemDomainListQueryDto,
  SystemDomainTemplateListDto,
} from './dto/system-domain.dto.js';
import { SystemDomainAdminService } from './system-domain-admin.service.js';
import { superAdmin, NOT_FOUND, access, domainId } from './system-domain-feature.routes.js';
import { SystemDomainByIdRoutes } from './system-domain-by-id.routes.js';
import { Route } from '../../base/common/http/route.js';

const domains = ServiceRoutes<SystemDomainAdminService>('domains');

/**
 * System domain (tenant) administration. Super administrators manage every domain; a domain's administrators
 * read their own and edit its profile and logo; its members read its Basic form. Thin: the rules live in
 * SystemDomainAdminService.
 */
@ApiTags('system domains')
@ApiErrors(400)
@Controller('API/auth/v1/system_domains')
export class SystemDomainsController extends domains.handlers(
  {
    listSystemDomains: domains.call(
      'list',
      Route.get({
        summary:
          'Every system domain (page style): query (name, base_url, description), statuses and types ' +
          '(comma-separated), is_template; sort on name, base_url, status, type, billing_tier, date_created, ' +
          'date_modified; facets count status, type and billing_tier over the filtered list',
        policy: superAdmin,
        ok: SystemDomainListDto,
      }),
      input.query(SystemDomainListQueryDto),
      input.path,
    ),
    createSystemDomain: domains.call(
      'create',
      Route.post({
        summary: 'Create a system domain (with its built-in sign-in app)',
        policy: superAdmin,
        created: SystemDomainDto,
      }),
      input.caller,
      input.body(NewSystemDomainDto),
    ),
    // the published search path: the list's filters under its own name (declared before /{id}, which caught it)
    searchSystemDomains: domains.call(
      'list',
      Route.get('search', {
        summary: 'Search system domains: the same filters, sort, facets and answer as the list',
        policy: superAdmin,
        ok: SystemDomainListDto,
      }),
      input.query(SystemDomainListQueryDto),
      input.path,
    ),
    listSystemDomainTemplates: domains.call(
      'templates',
      Route.get('templates', {
        summary: 'The template domains (is_template), page style; sort as the list',
        policy: superAdmin,
        ok: SystemDomainTemplateListDto,
      }),
      input.query(SystemDomainListQueryDto),
      input.path,
    ),
    getSystemDomainBasic: domains.call(
      'basic',
      Route.get('basic/:id', {
        summary:
          'The Basic form of the caller’s domain (any member); BasicAdmin (adds contract_end_date, freeze_date) ' +
          'for its administrators and super administrators (any domain)',
        policy: { access },
        ok: SystemDomainBasicDto,
        errors: [{ 404: NOT_FOUND }],
      }),
      input.caller,
      input.param('id', domainId),
    ),
  },
  SystemDomainByIdRoutes,
) {
  constructor(protected readonly domains: SystemDomainAdminService) {
    super();
  }
}
