import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
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

  @Get()
  @Authenticated(superAdmin)
  @ApiOperation({
    summary:
      'Every system domain (page style): query (name, base_url, description), statuses and types ' +
      '(comma-separated), is_template; sort on name, base_url, status, type, billing_tier, date_created, ' +
      'date_modified; facets count status, type and billing_tier over the filtered list',
  })
  @ApiOkResponse({ type: SystemDomainListDto })
  listSystemDomains(@Query() q: SystemDomainListQueryDto, @Req() req: Request): Promise<SystemDomainListDto> {
    return this.domains.list(q, req.path);
  }

  @Post()
  @Authenticated(superAdmin)
  @ApiOperation({ summary: 'Create a system domain (with its built-in sign-in app)' })
  @ApiCreatedResponse({ type: SystemDomainDto })
  createSystemDomain(
    @Body() body: NewSystemDomainDto,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainDto> {
    return this.domains.create(caller, body);
  }

  // the published search path: the list's filters under its own name (declared before /{id}, which caught it)
  @Get('search')
  @Authenticated(superAdmin)
  @ApiOperation({ summary: 'Search system domains: the same filters, sort, facets and answer as the list' })
  @ApiOkResponse({ type: SystemDomainListDto })
  searchSystemDomains(
    @Query() q: SystemDomainListQueryDto,
    @Req() req: Request,
  ): Promise<SystemDomainListDto> {
    return this.domains.list(q, req.path);
  }

  @Get('templates')
  @Authenticated(superAdmin)
  @ApiOperation({ summary: 'The template domains (is_template), page style; sort as the list' })
  @ApiOkResponse({ type: SystemDomainTemplateListDto })
  listSystemDomainTemplates(
    @Query() q: SystemDomainListQueryDto,
    @Req() req: Request,
  ): Promise<SystemDomainTemplateListDto> {
    return this.domains.templates(q, req.path);
  }

  @Get('basic/:id')
  @Authenticated({ access })
  @ApiOperation({
    summary:
      'The Basic form of the caller’s domain (any member); BasicAdmin (adds contract_end_date, freeze_date) ' +
      'for its administrators and super administrators (any domain)',
  })
  @ApiOkResponse({ type: SystemDomainBasicDto })
  @ApiErrors({ 404: NOT_FOUND })
  getSystemDomainBasic(
    @Param('id', domainId) id: string,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainBasicDto> {
    return this.domains.basic(caller, id);
  }
}
