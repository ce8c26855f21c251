import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { fromRequest } from '../../delivery/audit/audit-origin.js';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { Authenticated, Public } from '../../base/common/auth/authenticated.decorator.js';
import { SCOPES } from '../../base/common/auth/scopes.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
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

/** The fixed-path routes under /v1/apps/ (registered before /v1/apps/{app_id}/). */
@ApiTags('apps')
@ApiErrors(400)
@Controller('API/auth/v1/apps')
export class ExternalAuthController {
  constructor(private readonly external: ExternalAuthService) {}

  @Get('oauth_scopes')
  @Authenticated({ anyScope: true })
  @ApiOperation({ summary: 'The OAuth scopes the platform supports, with what each allows' })
  @ApiOkResponse({ type: ScopeListDto })
  listOauthScopes(@Req() req: Request): ScopeListDto {
    const objects = SCOPES.map(({ name, description }) => ({ name, description }));
    return pageEnvelope(objects, objects.length, 1, Math.max(objects.length, 1), req.path, {});
  }

  @Post('external/auth')
  @HttpCode(201)
  // the approval mints an unscoped token for the caller: an OAuth token needs user_impersonation for it
  @Authenticated({ scopes: ['user_impersonation'] })
  @ApiOperation({
    summary: 'Approve an external program (identified by its secret) to receive a token for an app',
  })
  @ApiCreatedResponse({ type: ExternalAuthRequestResponseDto })
  @ApiErrors(409, { 404: 'No such app in the caller’s domain' })
  approveExternalAuth(
    @Body() body: ExternalAuthRequestDto,
    @Caller() caller: AuthContext,
  ): Promise<ExternalAuthRequestResponseDto> {
    return this.external.approve(caller, body);
  }

  @Get('external/auth/:secret')
  @Public('signin')
  @ApiOperation({ summary: 'Collect the token of an approval, once, within 10 minutes' })
  @ApiOkResponse({ type: ExternalAuthDto })
  @ApiErrors({ 404: 'Unknown, expired or already collected' })
  collectExternalAuth(
    @Param() params: ExternalAuthSecretParamDto,
    @Req() req: Request,
  ): Promise<ExternalAuthDto> {
    return this.external.collect(params.secret, fromRequest(req));
  }

  @Post('instance')
  @HttpCode(201)
  @Authenticated({ scopes: ['user_impersonation'] })
  @ApiOperation({ summary: 'Approve an app instance (its own random id) to act for the caller' })
  @ApiCreatedResponse({ type: ApprovedAppInstanceDto })
  @ApiErrors(409, { 404: 'No such app in the caller’s domain' })
  approveAppInstance(
    @Body() body: ApprovedAppInstanceDto,
    @Caller() caller: AuthContext,
  ): Promise<ApprovedAppInstanceDto> {
    return this.external.approveInstance(caller, body);
  }

  @Get('instance/:approved_instance_id')
  // the collected token is unscoped and acts as the caller: an OAuth token needs user_impersonation for it
  @Authenticated({ scopes: ['user_impersonation'] })
  @ApiOperation({
    summary: 'Collect the instance’s token, once, within 10 minutes of the approval',
    description:
      'Only the approving user, with a credential of the domain the approval was made in. The token never ' +
      'carries more than the approval gave, nor more than the collecting credential carries.',
  })
  @ApiOkResponse({ type: ExternalAuthDto })
  @ApiErrors({ 404: 'Unknown, expired, already collected, or approved by someone else' })
  collectAppInstance(
    @Param('approved_instance_id', new UuidParamPipe()) id: string,
    @Caller() caller: AuthContext,
  ): Promise<ExternalAuthDto> {
    return this.external.collectInstance(caller, id);
  }

  @Delete('instance/:approved_instance_id')
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({ summary: 'Withdraw an approval; the instance’s token is revoked' })
  @ApiNoContentResponse({ description: 'Withdrawn (no body)' })
  @ApiErrors({ 404: 'Unknown, or approved by someone else and the caller is not an administrator' })
  deleteAppInstance(
    @Param('approved_instance_id', new UuidParamPipe()) id: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.external.removeInstance(caller, id);
  }
}
