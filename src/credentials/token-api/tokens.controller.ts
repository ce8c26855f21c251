import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { CursorQueryDto } from '../../base/common/http/pagination.dto.js';
import { TokenDto, TokenListDto, TokenOutputDto } from '../tokens/dto/token.dto.js';
import { TokenLifecycleService } from './token-lifecycle.service.js';
import { TokenQueriesService } from '../tokens/token-queries.service.js';

const uuid = new UuidParamPipe();

@ApiTags('tokens')
@Controller('API/auth/v1/auth')
export class TokensController {
  constructor(
    private readonly lifecycle: TokenLifecycleService,
    private readonly queries: TokenQueriesService,
  ) {}

  @Get('token')
  @Authenticated({ anyScope: true })
  @ApiOperation({
    summary: 'Validate the presented credential and describe it (401 when expired or revoked)',
  })
  @ApiOkResponse({ type: TokenDto })
  validateToken(@Caller() caller: AuthContext, @Req() req: Request): TokenDto {
    return this.lifecycle.describeCurrent(caller, req);
  }

  @Post('token')
  @Authenticated({ whileFrozen: true })
  @ApiOperation({ summary: 'A new token for the caller; the current one stays valid' })
  @ApiCreatedResponse({ type: TokenDto })
  createToken(@Caller() caller: AuthContext): Promise<TokenDto> {
    return this.lifecycle.renew(caller, false);
  }

  @Put('token')
  @Authenticated({ whileFrozen: true })
  @ApiOperation({ summary: 'Refresh: a new token for the caller, and the current one revoked' })
  @ApiOkResponse({ type: TokenDto })
  refreshToken(@Caller() caller: AuthContext): Promise<TokenDto> {
    return this.lifecycle.renew(caller, true);
  }

  @Delete('token')
  @HttpCode(200)
  @Authenticated({ anyScope: true, whileFrozen: true })
  @ApiOperation({ summary: 'Revoke the presented token (the next request with it gets 401)' })
  @ApiOkResponse({ description: 'Empty body' })
  async revokeCurrentToken(@Caller() caller: AuthContext): Promise<void> {
    await this.lifecycle.revoke(caller.tokenId, caller);
  }

  @Get('token/:token_id')
  @Authenticated({ access: { entity: 'token', param: 'token_id' } })
  @ApiOperation({ summary: 'Describe a token: the caller’s own, or any in the domain for an administrator' })
  @ApiOkResponse({ type: TokenOutputDto })
  @ApiErrors(404)
  getToken(@Param('token_id', uuid) tokenId: string, @Caller() caller: AuthContext): Promise<TokenOutputDto> {
    return this.lifecycle.describe(tokenId, caller);
  }

  @Delete('token/:token_id')
  @HttpCode(200)
  @Authenticated({ access: { entity: 'token', param: 'token_id' }, whileFrozen: true })
  @ApiOperation({
    summary:
      'Revoke a token by id: the caller’s own, or any in the domain for an administrator (a super administrator’s only for a super administrator)',
  })
  @ApiOkResponse({ description: 'Empty body' })
  @ApiErrors(404, { 403: 'The token is a super administrator’s and the caller is not one' })
  async revokeToken(@Param('token_id', uuid) tokenId: string, @Caller() caller: AuthContext): Promise<void> {
    await this.lifecycle.revoke(tokenId, caller);
  }

  @Get('tokens')
  @Authenticated()
  @ApiOperation({ summary: 'The caller’s own live tokens (cursor style: per_page, last_id)' })
  @ApiOkResponse({ type: TokenListDto })
  @ApiErrors({ 400: 'per_page or last_id invalid' })
  listOwnTokens(
    @Query() q: CursorQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<TokenListDto> {
    const auth = caller;
    return this.queries.listForUser(auth.userId, auth.systemDomainId, q, req.path);
  }

  @Get(':app_id/tokens')
  @Authenticated({ admin: true, roles: ['can_read_tokens'], access: { entity: 'app', param: 'app_id' } })
  @ApiOperation({ summary: 'Administrators: the live tokens of an application (cursor style)' })
  @ApiOkResponse({ type: TokenListDto })
  @ApiErrors(404, { 400: 'per_page or last_id invalid' })
  listAppTokens(
    @Param('app_id', uuid) appId: string,
    @Query() q: CursorQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<TokenListDto> {
    return this.queries.listForApp(appId, caller.systemDomainId, q, req.path);
  }
}
