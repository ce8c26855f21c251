import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import { SystemDomainsService } from '../system-domains/system-domains.service.js';
import type { LoginTokenDto, MultiDomainTokenItemDto } from '../tokens/dto/token.dto.js';
import { tokenView } from '../tokens/token-view.js';
import { TokensService } from '../tokens/tokens.service.js';
import { UserEntity } from '../users/user.entity.js';
import { CredentialsService } from './credentials.service.js';

const BAD_CREDENTIALS = 'Invalid email or password';

@Injectable()
export class LoginService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tokens: TokensService,
    private readonly domains: SystemDomainsService,
    private readonly credentials: CredentialsService,
  ) {}

  /**
   * Password sign-in. An unknown email, a wrong password and an inactive user get the same answer after the
   * same work (see CredentialsService). On success: one login token per domain the user
   * belongs to (deactivated domains left out), the home domain's also at the top level (deprecated form).
   */
  async simpleLogin(email: string, password: string): Promise<LoginTokenDto> {
    const user = await this.credentials.verify(email, password);
    if (!user) throw ApiError.unauthorized(BAD_CREDENTIALS);
    const memberships: SystemDomainEntity[] = await this.ds
      .getRepository(SystemDomainEntity)
      .createQueryBuilder('d')
      .innerJoin('user_system_domains', 'm', 'm.system_domain_id = d.id AND m.user_id = :userId', {
        userId: user.id,
      })
      .where("d.status <> 'DEACTIVATED'")
      .orderBy('m.date_created', 'ASC')
      .getMany();
    if (memberships.length === 0) throw ApiError.unauthorized(BAD_CREDENTIALS);
    const expires = this.tokens.loginExpiry();
    const domainIds = memberships.map((d) => d.id);
    const issued = await this.ds.transaction(async (em) => {
      const out = [];
      for (const domain of memberships) {
        const appId = await this.domains.builtinAppId(em, domain.id);
        const t = await this.tokens.issue(
          { userId: user.id, appId, systemDomainId: domain.id, kind: 'LOGIN', expires },
          em,
        );
        out.push({ domain, ...t });
      }
      await em.getRepository(UserEntity).update({ id: user.id }, { last_login: new Date() });
      return out;
    });
    const items: MultiDomainTokenItemDto[] = issued.map(({ domain, token }) => ({
      system_domain_id: domain.id,
      system_domain_name: domain.name,
      logo_url: null,
      platform_url: domain.base_url,
      url: domain.base_url,
      mfa_required: false,
      mfa_required_configured: false,
      mfa_methods: [],
      mfa_methods_configured: [],
      token,
    }));
    const home = issued.find((i) => i.domain.id === user.system_domain_id) ?? issued[0];
    return {
      ...tokenView(
        home.record,
        {
          is_admin: await this.tokens.isDomainAdmin(user.id, home.domain.id),
          is_super_admin: user.is_super_admin,
        },
        home.domain,
        domainIds,
      ),
      token: home.token,
      auth_system_domains: items,
    };
  }
}
