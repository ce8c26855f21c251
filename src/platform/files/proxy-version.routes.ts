import { applyDecorators, Delete, HttpCode, Param, Query, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { ProxyListDto } from './dto/proxy.dto.js';
import { DELETE, param, READ } from './file-set.routes.js';
import type { ProxiesService } from './proxies.service.js';
import { Route } from '../../base/common/http/route.js';

const asset = new UuidParamPipe('Asset');
const version = new UuidParamPipe('Version');

/** A DELETE route (204) of proxies, with the asset's delete permission as files have. */
export const removal = (path: string, summary: string): MethodDecorator =>
  applyDecorators(
    Delete(path),
    HttpCode(204),
    Authenticated(DELETE),
    ApiOperation({ summary }),
    ApiNoContentResponse({ description: 'Deleted' }),
    ApiErrors({ 409: 'A chunk is being written' }),
  );

/**
 * The per-version proxy routes of `ProxiesController`, which extends this class (Nest registers a
 * controller's own routes first and inherited ones after). `versions/all/` comes before `versions/{id}/`.
 */
export abstract class ProxyVersionRoutes {
  protected abstract readonly proxies: ProxiesService;

  @removal('versions/all/proxies', 'Delete every proxy of the asset, of all its versions')
  deleteAllProxies(@Param(param, asset) assetId: string): Promise<void> {
    return this.proxies.remove(assetId, {});
  }

  @Route.get('versions/:version_id/proxies', {
    summary: 'Proxies of one version of the asset (empty for a version it does not have)',
    policy: READ,
    ok: ProxyListDto,
  })
  listVersionProxies(
    @Param(param, asset) assetId: string,
    @Param('version_id', version) versionId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<ProxyListDto> {
    return this.proxies.list(assetId, versionId, q, req.path);
  }

  @removal('versions/:version_id/proxies', 'Delete the proxies of one version of the asset')
  deleteVersionProxies(
    @Param(param, asset) assetId: string,
    @Param('version_id', version) versionId: string,
  ): Promise<void> {
    return this.proxies.remove(assetId, { versionId });
  }
}
