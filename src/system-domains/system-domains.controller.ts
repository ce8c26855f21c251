import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UploadedFiles,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { PutAndPatch } from '../common/http/put-patch.js';
import { ApiErrors } from '../common/http/api-errors.js';
import type { Request, Response } from 'express';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { isUuid } from '../common/http/uuid-param.pipe.js';
import { ImageRoutes, sendPublicImage } from '../common/http/image-routes.js';
import {
  CreateSystemDomainDto,
  LogoDto,
  ReindexRequestDto,
  ReindexSystemDomainDto,
  SystemDomainBasicDto,
  SystemDomainDto,
  SystemDomainFeaturesDto,
  AddSystemDomainFeatureDto,
  SystemDomainListDto,
  SystemDomainListQueryDto,
  SystemDomainProfileDto,
  SystemDomainTemplateListDto,
  UpdateSystemDomainDto,
} from './dto/system-domain.dto.js';
import { LOGO_MAX_BYTES } from './logo.js';
import { LogoUploadInterceptor } from './logo-upload.js';
import { withFeature } from './domain-features.js';
import { type LogoFile, SystemDomainAdminService } from './system-domain-admin.service.js';
import { SystemDomainsErrors } from './system-domains.errors.js';

/** A path id that is not a UUID names no domain: the same 404 as an unknown one. */
class DomainIdPipe {
  transform(value: string): string {
    if (!isUuid(value)) throw SystemDomainsErrors.NOT_FOUND();
    return value;
  }
}
const domainId = new DomainIdPipe();

const superAdmin = { superAdmin: true } as const;
/** The domain itself: super administrators any, everyone else only the domain of their token (else 404). */
const access = { entity: 'system_domain', param: 'id' } as const;
const domainAdmin = { admin: true, access } as const;
const NOT_FOUND = 'System domain does not exist';

const edit = PutAndPatch({
  path: ':id',
  policy: superAdmin,
  ok: SystemDomainDto,
  errors: [{ 404: NOT_FOUND }],
  put: 'Update a system domain: the super-admin form, name and base_url required; fields left out stay',
  patch: 'Update some fields of a system domain (the super-admin form)',
});

const logo = ImageRoutes({
  path: ':id/logo',
  interceptor: LogoUploadInterceptor,
  tooLarge: `A file over ${LOGO_MAX_BYTES} bytes`,
  write: domainAdmin,
  read: 'public',
  uploaded: { status: 201, type: LogoDto },
  uploadErrors: [{ 404: NOT_FOUND }],
  missing: 'No such domain, or it has no logo',
  summaries: {
    upload:
      'Upload the domain’s logo: one PNG, JPEG, GIF or WebP file (judged by its bytes) of at most 1 MiB, ' +
      'as the raw body (Content-Type image/*) or in the multipart field "logo" (or "file")',
    remove: 'Remove the domain’s logo',
    get:
      'The domain’s logo, public (sign-in pages show it): the stored image with nosniff, a CSP that runs ' +
      'nothing, an ETag and caching (long when ?v= names the current image)',
  },
});

/**
 * System domain (tenant) administration. Super administrators manage every domain; a domain's administrators
 * read their own and edit its profile and logo; its members read its Basic form. Thin: the rules live in
 * SystemDomainAdminService.
 */
@ApiTags('system domains')
@ApiErrors(400)
@Controller('API/auth/v1/system_domains')
export class SystemDomainsController {
  constructor(private readonly domains: SystemDomainAdminService) {}

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
    @Body() body: CreateSystemDomainDto,
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

  @Get(':id')
  @Authenticated(domainAdmin)
  @ApiOperation({ summary: 'One system domain, full form (its administrators: their own domain only)' })
  @ApiOkResponse({ type: SystemDomainDto })
  @ApiErrors({ 404: NOT_FOUND })
  getSystemDomain(@Param('id', domainId) id: string): Promise<SystemDomainDto> {
    return this.domains.get(id);
  }

  @edit.put
  replaceSystemDomain(
    @Param('id', domainId) id: string,
    @Body() body: CreateSystemDomainDto,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainDto> {
    return this.domains.update(caller, id, body);
  }

  @edit.patch
  updateSystemDomain(
    @Param('id', domainId) id: string,
    @Body() body: UpdateSystemDomainDto,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainDto> {
    return this.domains.update(caller, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated(superAdmin)
  @ApiOperation({
    summary:
      'Delete a system domain and everything in it, at once: its tokens stop working, its apps, groups, ' +
      'memberships, invitations and webhooks go, users who belonged to it alone are deleted, the others keep ' +
      'their accounts in their other domains. Not the domain of the caller’s own token (400)',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ 404: NOT_FOUND })
  deleteSystemDomain(@Param('id', domainId) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.domains.remove(caller, id);
  }

  @Get(':id/profile')
  @Authenticated(domainAdmin)
  @ApiOperation({ summary: 'The domain’s Profile (industry)' })
  @ApiOkResponse({ type: SystemDomainProfileDto })
  @ApiErrors({ 404: NOT_FOUND })
  getSystemDomainProfile(@Param('id', domainId) id: string): Promise<SystemDomainProfileDto> {
    return this.domains.profile(id);
  }

  @Patch(':id/profile')
  @Authenticated(domainAdmin)
  @ApiOperation({
    summary: 'Edit the domain’s Profile (industry): its administrators and super administrators',
  })
  @ApiOkResponse({ type: SystemDomainProfileDto })
  @ApiErrors({ 404: NOT_FOUND })
  updateSystemDomainProfile(
    @Param('id', domainId) id: string,
    @Body() body: SystemDomainProfileDto,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainProfileDto> {
    return this.domains.updateProfile(caller, id, body);
  }

  @Get(':id/features')
  @Authenticated(domainAdmin)
  @ApiOperation({ summary: 'The domain’s feature flags' })
  @ApiOkResponse({ type: SystemDomainFeaturesDto })
  @ApiErrors({ 404: NOT_FOUND })
  getSystemDomainFeatures(@Param('id', domainId) id: string): Promise<SystemDomainFeaturesDto> {
    return this.domains.features(id);
  }

  @Put(':id/features')
  @Authenticated(superAdmin)
  @ApiOperation({ summary: 'Replace the domain’s feature flags' })
  @ApiOkResponse({ type: SystemDomainFeaturesDto })
  @ApiErrors({ 404: NOT_FOUND })
  replaceSystemDomainFeatures(
    @Param('id', domainId) id: string,
    @Body() body: SystemDomainFeaturesDto,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainFeaturesDto> {
    return this.domains.replaceFeatures(caller, id, body);
  }

  @Post(':id/features')
  @Authenticated(superAdmin)
  @ApiOperation({
    summary:
      'Turn one feature on (the published body {config: {feature, parameters}}; parameters are not kept, so only none, null or {} pass)',
  })
  @ApiCreatedResponse({ type: SystemDomainFeaturesDto })
  @ApiErrors({ 404: NOT_FOUND })
  addSystemDomainFeature(
    @Param('id', domainId) id: string,
    @Body() body: AddSystemDomainFeatureDto,
    @Caller() caller: AuthContext,
  ): Promise<SystemDomainFeaturesDto> {
    return this.domains.replaceFeatures(caller, id, (current) => withFeature(current, body.config));
  }

  @Post(':id/reindex')
  @HttpCode(202)
  @Authenticated(superAdmin)
  @ApiOperation({
    summary:
      'Ask for the domain’s search index to be rebuilt: recorded as a webhook event (realm system_domain, ' +
      'operation reindex) for the platform’s indexer; answers the request',
  })
  @ApiAcceptedResponse({ type: ReindexRequestDto })
  @ApiErrors({ 404: NOT_FOUND })
  reindexSystemDomain(
    @Param('id', domainId) id: string,
    @Body() body: ReindexSystemDomainDto,
    @Caller() caller: AuthContext,
  ): Promise<ReindexRequestDto> {
    return this.domains.reindex(caller, id, body);
  }

  @logo.upload
  uploadSystemDomainLogo(
    @Param('id', domainId) id: string,
    @UploadedFiles() files: LogoFile[] | undefined,
    @Caller() caller: AuthContext,
  ): Promise<LogoDto> {
    return this.domains.uploadLogo(caller, id, files);
  }

  @logo.remove
  deleteSystemDomainLogo(@Param('id', domainId) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.domains.deleteLogo(caller, id);
  }

  @logo.get
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  async getSystemDomainLogo(
    @Param('id', domainId) id: string,
    @Query('v') version: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    sendPublicImage(res, await this.domains.logo(id), version, ifNoneMatch);
  }
}
