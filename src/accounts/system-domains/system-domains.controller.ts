import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
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

/**
 * System domain (tenant) administration. Super administrators manage every domain; a domain's administrators
 * read their own and edit its profile and logo; its members read its Basic form. Thin: the rules live in
 * SystemDomainAdminService.
 */
@ApiTags('system domains')
@ApiErrors(400)
@Controller('API/auth/v1/system_domains')
export class SystemDomainsController extends SystemDomainByIdRoutes {
  constructor(protected readonly domains: SystemDomainAdminService) {
    super();
  }

  @Route.get({
    summary:
      'Every system domain (page style): query (name, base_url, description), statuses and types ' +
      '(comma-separated), is_template; sort on name, base_url, status, type, billing_tier, date_created, ' +
      'date_modified; facets count status, type and billing_tier over the filtered list',
    policy: superAdmin,
    ok: SystemDomainListDto,
  })
  listSystemDomains(@Query() q: SystemDomainListQueryDto, @Req() req: Request): Promise<SystemDomainListDto> {
    return this.domains.list(q, req.path);
  }

  @Route.post({
    summary: 'Create a system domain (with its built-in sign-in app)',
    policy: superAdmin,
    created: SystemDomainDto,
  })
  createSystemDomain(
    @Body() body: NewSystemDomainDto,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainDto> {
    return this.domains.create(caller, body);
  }

  // the published search path: the list's filters under its own name (declared before /{id}, which caught it)
  @Route.get('search', {
    summary: 'Search system domains: the same filters, sort, facets and answer as the list',
    policy: superAdmin,
    ok: SystemDomainListDto,
  })
  searchSystemDomains(
    @Query() q: SystemDomainListQueryDto,
    @Req() req: Request,
  ): Promise<SystemDomainListDto> {
    return this.domains.list(q, req.path);
  }

  @Route.get('templates', {
    summary: 'The template domains (is_template), page style; sort as the list',
    policy: superAdmin,
    ok: SystemDomainTemplateListDto,
  })
  listSystemDomainTemplates(
    @Query() q: SystemDomainListQueryDto,
    @Req() req: Request,
  ): Promise<SystemDomainTemplateListDto> {
    return this.domains.templates(q, req.path);
  }

  @Route.get('basic/:id', {
    summary:
      'The Basic form of the caller’s domain (any member); BasicAdmin (adds contract_end_date, freeze_date) ' +
      'for its administrators and super administrators (any domain)',
    policy: { access },
    ok: SystemDomainBasicDto,
    errors: [{ 404: NOT_FOUND }],
  })
  getSystemDomainBasic(
    @Param('id', domainId) id: string,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainBasicDto> {
    return this.domains.basic(caller, id);
  }
}
