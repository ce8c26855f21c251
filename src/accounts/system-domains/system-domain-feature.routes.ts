import { Headers, Param, Query, Res, UploadedFiles } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { isUuid } from '../../base/common/validation/uuid.js';
import { ImageRoutes, sendPublicImage } from '../../base/common/http/image-routes.js';
import {
  LogoDto,
  ReindexRequestDto,
  ReindexSystemDomainDto,
  SystemDomainFeaturesDto,
  AddSystemDomainFeatureDto,
} from './dto/system-domain.dto.js';
import { LOGO_MAX_BYTES } from './logo.js';
import { LogoUploadInterceptor } from './logo-upload.js';
import { withFeature } from './domain-features.js';
import type { LogoFile, SystemDomainAdminService } from './system-domain-admin.service.js';
import { SystemDomainsErrors } from './system-domains.errors.js';
import { Route } from '../../base/common/http/route.js';

class DomainIdPipe {
  transform(value: string): string {
    if (!isUuid(value)) throw SystemDomainsErrors.NOT_FOUND();
    return value;
  }
}
/** A path id that is not a UUID names no domain: the same 404 as an unknown one. */
export const domainId = new DomainIdPipe();

export const superAdmin = { superAdmin: true } as const;
/** The domain itself: super administrators any, everyone else only the domain of their token (else 404). */
export const access = { entity: 'system_domain', param: 'id' } as const;
export const domainAdmin = { admin: true, access } as const;
export const NOT_FOUND = 'System domain does not exist';

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

const domains = ServiceRoutes<SystemDomainAdminService>('domains');
const id = input.param('id', domainId);

/** The logo itself, written out (the image's own answer, its cache headers), the last of the domains' routes. */
abstract class SystemDomainLogoGet {
  protected abstract readonly domains: SystemDomainAdminService;

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

/** The logo's upload, written out (the uploaded files), before its removal and the logo itself. */
abstract class SystemDomainLogoRoutes extends domains.handlers(
  { deleteSystemDomainLogo: domains.call('deleteLogo', logo.remove, input.caller, id) },
  SystemDomainLogoGet,
) {
  @logo.upload
  uploadSystemDomainLogo(
    @Param('id', domainId) id: string,
    @UploadedFiles() files: LogoFile[] | undefined,
    @Caller() caller: AuthContext,
  ): Promise<LogoDto> {
    return this.domains.uploadLogo(caller, id, files);
  }
}

/**
 * The feature, reindex and logo routes of `SystemDomainsController` (through `SystemDomainByIdRoutes`),
 * classes it extends: Nest registers a controller's own routes first and inherited ones after (a class's own
 * written routes before its table's), so the route order and the route-policy keys (`<Controller>.<method>`)
 * stay as they were.
 */
export const SystemDomainFeatureRoutes = domains.handlers(
  {
    getSystemDomainFeatures: domains.call(
      'features',
      Route.get(':id/features', {
        summary: 'The domain’s feature flags',
        policy: domainAdmin,
        ok: SystemDomainFeaturesDto,
        errors: [{ 404: NOT_FOUND }],
      }),
      id,
    ),
    replaceSystemDomainFeatures: domains.call(
      'replaceFeatures',
      Route.put(':id/features', {
        summary: 'Replace the domain’s feature flags',
        policy: superAdmin,
        ok: SystemDomainFeaturesDto,
        errors: [{ 404: NOT_FOUND }],
      }),
      input.caller,
      id,
      input.body(SystemDomainFeaturesDto),
    ),
    addSystemDomainFeature: domains.handle(
      Route.post(':id/features', {
        summary:
          'Turn one feature on (the published body {config: {feature, parameters}}): the name in any case, kept lower case; its parameters kept (at most 4 KiB as JSON, 5 deep)',
        policy: superAdmin,
        created: SystemDomainFeaturesDto,
        errors: [{ 404: NOT_FOUND }],
      }),
      (s, c, i, b) => s.replaceFeatures(c, i, (current) => withFeature(current, b.config)),
      input.caller,
      id,
      input.body(AddSystemDomainFeatureDto),
    ),
    reindexSystemDomain: domains.call(
      'reindex',
      Route.post(':id/reindex', {
        summary:
          'Ask for the domain’s search index to be rebuilt: recorded as a webhook event (realm system_domain, ' +
          'operation reindex) for the platform’s indexer; answers the request',
        policy: superAdmin,
        accepted: ReindexRequestDto,
        errors: [{ 404: NOT_FOUND }],
      }),
      input.caller,
      id,
      input.body(ReindexSystemDomainDto),
    ),
  },
  SystemDomainLogoRoutes,
);
