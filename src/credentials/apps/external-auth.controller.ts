import { applyDecorators, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { fromRequest } from '../../delivery/audit/audit-origin.js';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { SCOPES } from '../../base/common/auth/scopes.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { pageEnvelope } from '../../base/common/http/list-envelope.js';
import { ScopeListDto } from './dto/app.dto.js';
import {
  ApprovedAppInstanceDto,
  ExternalAuthDto,
  ExternalAuthRequestDto,
  ExternalAuthRequestResponseDto,
  ExternalAuthSecretParamDto,
} from './dto/external-auth.dto.js';
import { ExternalAuthService } from './external-auth.service.js';
import { Route } from '../../base/common/http/route.js';

const external = ServiceRoutes<ExternalAuthService>('external');
const instanceId = input.uuidParam('approved_instance_id');

/** The app instances' routes, after the collection of an approval, written out (its whole-path DTO). */
abstract class ExternalAuthCollectRoute extends external.handlers({
  approveAppInstance: external.call(
    'approveInstance',
    Route.post('instance', {
      summary: 'Approve an app instance (its own random id) to act for the caller',
      policy: { scopes: ['user_impersonation'] },
      created: ApprovedAppInstanceDto,
      errors: [409, { 404: 'No such app in the caller’s domain' }],
    }),
    input.caller,
    input.body(ApprovedAppInstanceDto),
  ),
  collectAppInstance: external.call(
    'collectInstance',
    applyDecorators(
      Get('instance/:approved_instance_id'),
      // the collected token is unscoped and acts as the caller: an OAuth token needs user_impersonation for it
      Authenticated({ scopes: ['user_impersonation'] }),
      ApiOperation({
        summary: 'Collect the instance’s token, once, within 10 minutes of the approval',
        description:
          'Only the approving user, with a credential of the domain the approval was made in. The token never ' +
          'carries more than the approval gave, nor more than the collecting credential carries.',
      }),
      ApiOkResponse({ type: ExternalAuthDto }),
      ApiErrors({ 404: 'Unknown, expired, already collected, or approved by someone else' }),
    ),
    input.caller,
    instanceId,
  ),
  deleteAppInstance: external.call(
    'removeInstance',
    Route.delete('instance/:approved_instance_id', {
      summary: 'Withdraw an approval; the instance’s token is revoked',
      policy: {},
      noContent: 'Withdrawn (no body)',
      errors: [{ 404: 'Unknown, or approved by someone else and the caller is not an administrator' }],
    }),
    input.caller,
    instanceId,
  ),
}) {
  protected abstract readonly external: ExternalAuthService;

  @Route.get('external/auth/:secret', {
    summary: 'Collect the token of an approval, once, within 10 minutes',
    public: 'signin',
    ok: ExternalAuthDto,
    errors: [{ 404: 'Unknown, expired or already collected' }],
  })
  collectExternalAuth(
    @Param() params: ExternalAuthSecretParamDto,
    @Req() req: Request,
  ): Promise<ExternalAuthDto> {
    return this.external.collect(params.secret, fromRequest(req));
  }
}

/**
 * The fixed-path routes under /v1/apps/ (registered before /v1/apps/{app_id}/). Nest registers a class's own
 * routes first: the scope list (written out: it answers itself), this table, then the collection and the rest.
 */
@ApiTags('apps')
@ApiErrors(400)
@Controller('API/auth/v1/apps')
export class ExternalAuthController extends external.handlers(
  {
    approveExternalAuth: external.call(
      'approve',
      applyDecorators(
        Post('external/auth'),
        HttpCode(201),
        // the approval mints an unscoped token for the caller: an OAuth token needs user_impersonation for it
        Authenticated({ scopes: ['user_impersonation'] }),
        ApiOperation({
          summary: 'Approve an external program (identified by its secret) to receive a token for an app',
        }),
        ApiCreatedResponse({ type: ExternalAuthRequestResponseDto }),
        ApiErrors(409, { 404: 'No such app in the caller’s domain' }),
      ),
      input.caller,
      input.body(ExternalAuthRequestDto),
    ),
  },
  ExternalAuthCollectRoute,
) {
  constructor(protected readonly external: ExternalAuthService) {
    super();
  }

  @Route.get('oauth_scopes', {
    summary: 'The OAuth scopes the platform supports, with what each allows',
    policy: { anyScope: true },
    ok: ScopeListDto,
  })
  listOauthScopes(@Req() req: Request): ScopeListDto {
    const objects = SCOPES.map(({ name, description }) => ({ name, description }));
    return pageEnvelope(objects, objects.length, 1, Math.max(objects.length, 1), req.path, {});
  }
}
