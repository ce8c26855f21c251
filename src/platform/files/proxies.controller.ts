import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  CreateProxyDto,
  ProxyDownloadUrlDto,
  ProxyDto,
  ProxyListDto,
  UpdateProxyDto,
} from './dto/proxy.dto.js';
import { param, READ, WRITE } from './file-set.routes.js';
import { ProxiesService } from './proxies.service.js';
import { ProxyVersionRoutes, removal } from './proxy-version.routes.js';
import { Route } from '../../base/common/http/route.js';

const asset = new UuidParamPipe('Asset');
const proxy = new UuidParamPipe('Proxy');
const UPDATE =
  'Change a proxy’s fields; status CLOSED ends its upload (every declared byte, a sha256 checksum; else 400 and nothing changes)';

const edit = PutAndPatch({
  path: 'proxies/:proxy_id',
  policy: WRITE,
  ok: ProxyDto,
  errors: [{ 409: 'A chunk is being written' }],
  put: `${UPDATE}. The same as PATCH; read-only fields are ignored`,
  patch: UPDATE,
});

/**
 * Proxies of an asset. Their bytes are a file of the asset: the same signed resumable upload (`upload_url`)
 * and signed downloads (`download_url/`). The asset's ACL governs them as it governs files.
 */
@ApiTags('files')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such proxy under it' })
@Controller('API/files/v1/assets/:asset_id')
export class ProxiesController extends ProxyVersionRoutes {
  constructor(protected readonly proxies: ProxiesService) {
    super();
  }

  @Route.post('proxies', {
    summary:
      'Create a proxy (OPEN) in the asset’s PROXIES storage; the answer carries its signed resumable upload_url',
    policy: WRITE,
    created: ProxyDto,
  })
  createProxy(
    @Param(param, asset) assetId: string,
    @Body() body: CreateProxyDto,
    @Caller() caller: AuthContext,
  ): Promise<ProxyDto> {
    return this.proxies.create(caller, assetId, body);
  }

  @Route.get('proxies', { summary: 'Proxies of the asset', policy: READ, ok: ProxyListDto })
  listProxies(
    @Param(param, asset) assetId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<ProxyListDto> {
    return this.proxies.list(assetId, null, q, req.path);
  }

  @Route.get('proxies/:proxy_id', { summary: 'One proxy', policy: READ, ok: ProxyDto })
  getProxy(@Param(param, asset) assetId: string, @Param('proxy_id', proxy) id: string): Promise<ProxyDto> {
    return this.proxies.get(assetId, id);
  }

  @edit.both('replaceProxy')
  updateProxy(
    @Param(param, asset) assetId: string,
    @Param('proxy_id', proxy) id: string,
    @Body() body: UpdateProxyDto,
  ): Promise<ProxyDto> {
    return this.proxies.update(assetId, id, body);
  }

  @removal('proxies/:proxy_id', 'Delete a proxy; its bytes are removed from the storage in the background')
  deleteProxy(@Param(param, asset) assetId: string, @Param('proxy_id', proxy) id: string): Promise<void> {
    return this.proxies.remove(assetId, { id });
  }

  @Route.get('proxies/:proxy_id/download_url', {
    summary: 'A signed, short-lived download URL of a CLOSED proxy (answers Range requests)',
    policy: READ,
    ok: ProxyDownloadUrlDto,
  })
  proxyDownloadUrl(
    @Param(param, asset) assetId: string,
    @Param('proxy_id', proxy) id: string,
  ): Promise<ProxyDownloadUrlDto> {
    return this.proxies.downloadUrl(assetId, id);
  }
}
