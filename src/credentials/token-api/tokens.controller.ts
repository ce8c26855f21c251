import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { CursorQueryDto } from '../../base/common/http/pagination.dto.js';
import { TokenDto, TokenListDto, TokenOutputDto } from '../tokens/dto/token.dto.js';
import { TokenLifecycleService } from './token-lifecycle.service.js';
import { TokenQueriesService } from '../tokens/token-queries.service.js';
import { Route } from '../../base/common/http/route.js';

const lifecycle = ServiceRoutes<TokenLifecycleService>('lifecycle');
const queries = ServiceRoutes<TokenQueriesService>('queries');
const tokenId = input.uuidParam('token_id');
/** The request itself, whose credential the current token's description reads. */
const request: RouteInput<Request> = { ...input.requestId, pick: (req: Request) => req };

@ApiTags('tokens')
@Controller('API/auth/v1/auth')
export class TokensController extends lifecycle.handlers(
  {
    validateToken: lifecycle.call(
      'describeCurrent',
      Route.get('token', {
        summary: 'Validate the presented credential and describe it (401 when expired or revoked)',
        policy: { anyScope: true },
        ok: TokenDto,
      }),
      input.caller,
      request,
    ),
    createToken: lifecycle.handle(
      Route.post('token', {
        summary: 'A new token for the caller; the current one stays valid',
        policy: { whileFrozen: true },
        created: TokenDto,
      }),
      (s, c) => s.renew(c, false),
      input.caller,
    ),
    refreshToken: lifecycle.handle(
      Route.put('token', {
        summary: 'Refresh: a new token for the caller, and the current one revoked',
        policy: { whileFrozen: true },
        ok: TokenDto,
      }),
      (s, c) => s.renew(c, true),
      input.caller,
    ),
    revokeCurrentToken: lifecycle.handle(
      Route.delete('token', {
        summary: 'Revoke the presented token (the next request with it gets 401)',
        policy: { anyScope: true, whileFrozen: true },
        ok: { description: 'Empty body' },
      }),
      (s, c) => s.revoke(c.tokenId, c),
      input.caller,
    ),
    getToken: lifecycle.call(
      'describe',
      Route.get('token/:token_id', {
        summary: 'Describe a token: the caller’s own, or any in the domain for an administrator',
        policy: { access: { entity: 'token', param: 'token_id' } },
        ok: TokenOutputDto,
        errors: [404],
      }),
      tokenId,
      input.caller,
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
      input.caller,
    ),
  },
  queries.handlers({
    listOwnTokens: queries.handle(
      Route.get('tokens', {
        summary: 'The caller’s own live tokens (cursor style: per_page, last_id)',
        policy: {},
        ok: TokenListDto,
        errors: [{ 400: 'per_page or last_id invalid' }],
      }),
      (s, c, q, p) => s.listForUser(c.userId, c.systemDomainId, q, p),
      input.caller,
      input.query(CursorQueryDto),
      input.path,
    ),
    listAppTokens: queries.handle(
      Route.get(':app_id/tokens', {
        summary: 'Administrators: the live tokens of an application (cursor style)',
        policy: { admin: true, roles: ['can_read_tokens'], access: { entity: 'app', param: 'app_id' } },
        ok: TokenListDto,
        errors: [404, { 400: 'per_page or last_id invalid' }],
      }),
      (s, i, c, q, p) => s.listForApp(i, c.systemDomainId, q, p),
      input.uuidParam('app_id'),
      input.caller,
      input.query(CursorQueryDto),
      input.path,
    ),
  }),
) {
  constructor(
    protected readonly lifecycle: TokenLifecycleService,
    protected readonly queries: TokenQueriesService,
  ) {
    super();
  }
}
