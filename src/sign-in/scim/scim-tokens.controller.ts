import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageOfAll } from '../../base/common/http/list-envelope.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { CreateScimTokenDto, ScimTokenCreatedDto, ScimTokenListDto } from './dto/scim-token.dto.js';
import { ScimTokensService } from './scim-tokens.service.js';
import { Route } from '../../base/common/http/route.js';

const tokens = ServiceRoutes<ScimTokensService>('tokens');

/** A domain's provisioning tokens for its identity provider's SCIM client (docs/scim.md). */
@ApiTags('system_domains')
@Controller('API/auth/v1/system_domains/current/scim/tokens')
export class ScimTokensController extends tokens.handlers({
  createScimToken: tokens.handle(
    Route.post({
      summary:
        'Creates a SCIM provisioning token for the caller’s domain (shown once); it acts for the calling administrator while they are one',
      policy: { admin: true },
      created: ScimTokenCreatedDto,
      errors: [400],
    }),
    (s, c, b) => s.create(c, b.expires_in),
    input.caller,
    input.body(CreateScimTokenDto),
  ),
  listScimTokens: tokens.handle(
    Route.get({
      summary: 'The domain’s live SCIM provisioning tokens (never their secret)',
      policy: { admin: true },
      ok: ScimTokenListDto,
      errors: [400],
    }),
    async (s, c, q, p) => pageOfAll(await s.list(c), q, p),
    input.caller,
    input.query(PageQueryDto),
    input.path,
  ),
  revokeScimToken: tokens.call(
    'revoke',
    Route.delete(':id', {
      summary: 'Revokes a SCIM provisioning token at once',
      policy: { admin: true },
      noContent: 'Revoked',
      errors: [400, 404],
    }),
    input.caller,
    input.uuidParam('id', 'Provisioning token'),
  ),
}) {
  constructor(protected readonly tokens: ScimTokensService) {
    super();
  }
}
