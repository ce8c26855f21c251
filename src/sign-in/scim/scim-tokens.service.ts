import { Inject, Injectable } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import { ApiError } from '../../base/common/errors/api-error.js';
import { SystemDomainsService } from '../../accounts/system-domains/system-domains.service.js';
import { CredentialMintService } from '../../credentials/mint/credential-mint.service.js';
import { TokensService } from '../../credentials/tokens/tokens.service.js';
import { fromAuth } from '../../delivery/audit/audit-origin.js';
import { SCIM_TOKEN_TTL, type ScimTokenCreatedDto, type ScimTokenDto } from './dto/scim-token.dto.js';
import { ScimRepository } from './scim.repository.js';
import { SCIM_BASE } from './scim-routes.js';

/**
 * A domain's provisioning tokens: minted by CredentialMintService.scim (a tokens row of kind SCIM, its
 * digest only, filed under the domain's built-in app and acting for the administrator who asked), listed
 * without their secret, revoked at once.
 */
@Injectable()
export class ScimTokensService {
  constructor(
    private readonly repo: ScimRepository,
    private readonly mint: CredentialMintService,
    private readonly domains: SystemDomainsService,
    private readonly tokens: TokensService,
    @Inject(SCIM_BASE) private readonly base: string,
  ) {}

  async create(auth: AuthContext, expiresIn?: number): Promise<ScimTokenCreatedDto> {
    const appId = await this.repo.transaction((em) => this.domains.builtinAppId(em, auth.systemDomainId));
    const { token, record } = await this.mint.scim(auth, appId, expiresIn ?? SCIM_TOKEN_TTL.default);
    return {
      id: record.id,
      token,
      base_url: this.base,
      date_created: wireDate(record.date_created),
      expires: wireDate(record.expires),
    };
  }

  async list(auth: AuthContext): Promise<ScimTokenDto[]> {
    return (await this.repo.tokens(auth.systemDomainId)).map((t) => ({
      id: t.id,
      created_by: t.user_id,
      date_created: wireDate(t.date_created),
      expires: wireDate(t.expires),
      last_used: wireDateOrNull(t.last_used_at),
    }));
  }

  async revoke(auth: AuthContext, id: string): Promise<void> {
    if (!(await this.repo.tokenExists(auth.systemDomainId, id)))
      throw ApiError.notFound('Provisioning token');
    await this.tokens.revoke(id, { requestId: auth.requestId, origin: fromAuth(auth) });
  }
}
