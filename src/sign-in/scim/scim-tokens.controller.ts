import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { type ListEnvelope, pageOfAll } from '../../base/common/http/list-envelope.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  CreateScimTokenDto,
  ScimTokenCreatedDto,
  type ScimTokenDto,
  ScimTokenListDto,
} from './dto/scim-token.dto.js';
import { ScimTokensService } from './scim-tokens.service.js';
import { Route } from '../../base/common/http/route.js';

/** A domain's provisioning tokens for its identity provider's SCIM client (docs/scim.md). */
@ApiTags('system_domains')
@Controller('API/auth/v1/system_domains/current/scim/tokens')
export class ScimTokensController {
  constructor(private readonly tokens: ScimTokensService) {}

  @Route.post({
    summary:
      'Creates a SCIM provisioning token for the caller’s domain (shown once); it acts for the calling administrator while they are one',
    policy: { admin: true },
    created: ScimTokenCreatedDto,
    errors: [400],
  })
  createScimToken(
    @Caller() auth: AuthContext,
    @Body() body: CreateScimTokenDto,
  ): Promise<ScimTokenCreatedDto> {
    return this.tokens.create(auth, body.expires_in);
  }

  @Route.get({
    summary: 'The domain’s live SCIM provisioning tokens (never their secret)',
    policy: { admin: true },
    ok: ScimTokenListDto,
    errors: [400],
  })
  async listScimTokens(
    @Caller() auth: AuthContext,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<ListEnvelope<ScimTokenDto>> {
    return pageOfAll(await this.tokens.list(auth), q, req.path);
  }

  @Route.delete(':id', {
    summary: 'Revokes a SCIM provisioning token at once',
    policy: { admin: true },
    noContent: 'Revoked',
    errors: [400, 404],
  })
  revokeScimToken(
    @Caller() auth: AuthContext,
    @Param('id', new UuidParamPipe('Provisioning token')) id: string,
  ) {
    return this.tokens.revoke(auth, id);
  }
}
