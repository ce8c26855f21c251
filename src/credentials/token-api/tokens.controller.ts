import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { caller, ServiceRoutes, uuidParam } from '../../base/common/http/service-routes.js';
import { CursorQueryDto } from '../../base/common/http/pagination.dto.js';
import { TokenDto, TokenListDto, TokenOutputDto } from '../tokens/dto/token.dto.js';
import { TokenLifecycleService } from './token-lifecycle.service.js';
import { TokenQueriesService } from '../tokens/token-queries.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const lifecycle = ServiceRoutes<TokenLifecycleService>('lifecycle');
const tokenId = uuidParam('token_id');

/** The token lists, written out (they hand the service parts of the caller), after the table. */
abstract class TokenListRoutes {
  protected abstract readonly queries: TokenQueriesService;

  @Route.get('tokens', {
    summary: 'The caller’s own live tokens (cursor style: per_page, last_id)',
    policy: {},
    ok: TokenListDto,
    errors: [{ 400: 'per_page or last_id invalid' }],
  })
  listOwnTokens(
    @Query() q: CursorQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<TokenListDto> {
    const auth = caller;
    return this.queries.listForUser(auth.userId, auth.systemDomainId, q, req.path);
  }

  @Route.get(':app_id/tokens', {
    summary: 'Administrators: the live tokens of an application (cursor style)',
    policy: { admin: true, roles: ['can_read_tokens'], access: { entity: 'app', param: 'app_id' } },
    ok: TokenListDto,
    errors: [404, { 400: 'per_page or last_id invalid' }],
  })
  listAppTokens(
    @Param('app_id', uuid) appId: string,
    @Query() q: CursorQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<TokenListDto> {
    return this.queries.listForApp(appId, caller.systemDomainId, q, req.path);
  }
}

@ApiTags('tokens')
@Controller('API/auth/v1/auth')
export class TokensController extends lifecycle.handlers(
  {
    getToken: lifecycle.call(
      'describe',
      Route.get('token/:token_id', {
        summary: 'Describe a token: the caller’s own, or any in the domain for an administrator',
        policy: { access: { entity: 'token', param: 'token_id' } },
        ok: TokenOutputDto,
        errors: [404],
      }),
      tokenId,
      caller,
    ),
    revokeToken: lifecycle.call(
      'revoke',
      Route.delete('token/:token_id', {
        summary:
          'Revoke a token by id: the caller’s own, or any in the domain for an administrator (a super administrator’s only for a super administrator)',
        policy: { access: { entity: 'token', param: 'token_id' }, whileFrozen: true },
        ok: { description: 'Empty body' },
        errors: [404, { 403: 'The token is a super administrator’s and the caller is not one' }],
      }),
      tokenId,
      caller,
    ),
  },
  TokenListRoutes,
) {
  constructor(
    protected readonly lifecycle: TokenLifecycleService,
    protected readonly queries: TokenQueriesService,
  ) {
    super();
  }

  @Route.get('token', {
    summary: 'Validate the presented credential and describe it (401 when expired or revoked)',
    policy: { anyScope: true },
    ok: TokenDto,
  })
  validateToken(@Caller() caller: AuthContext, @Req() req: Request): TokenDto {
    return this.lifecycle.describeCurrent(caller, req);
  }

  @Route.post('token', {
    summary: 'A new token for the caller; the current one stays valid',
    policy: { whileFrozen: true },
    created: TokenDto,
  })
  createToken(@Caller() caller: AuthContext): Promise<TokenDto> {
    return this.lifecycle.renew(caller, false);
  }

  @Route.put('token', {
    summary: 'Refresh: a new token for the caller, and the current one revoked',
    policy: { whileFrozen: true },
    ok: TokenDto,
  })
  refreshToken(@Caller() caller: AuthContext): Promise<TokenDto> {
    return this.lifecycle.renew(caller, true);
  }

  @Route.delete('token', {
    summary: 'Revoke the presented token (the next request with it gets 401)',
    policy: { anyScope: true, whileFrozen: true },
    ok: { description: 'Empty body' },
  })
  async revokeCurrentToken(@Caller() caller: AuthContext): Promise<void> {
    await this.lifecycle.revoke(caller.tokenId, caller);
  }
}
