import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import { SystemDomainsService } from '../system-domains/system-domains.service.js';
import type { LoginTokenDto, MultiDomainTokenItemDto } from '../tokens/dto/token.dto.js';
import { tokenView } from '../tokens/token-view.js';
import { TokensService } from '../tokens/tokens.service.js';
import { UserEntity } from '../users/user.entity.js';

/**
 * Issues what a person gets when they have signed in, whichever way they did it (password today; temporary
 * token, mail link, SAML, invitation and registration next), so no sign-in flow re-implements it: one login
 * token per domain the user belongs to, and the spec's multi-platform Token form around them.
 */
@Injectable()
export class SignInService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tokens: TokensService,
    private readonly domains: SystemDomainsService,
  ) {}

  /**
   * The multi-platform Token form: a login token per domain (deactivated ones left out), the home domain's
   * also at the top level (the deprecated form), and the MFA fields of each item. `unauthorized` makes the
   * answer when the user has no domain left to sign in to.
   */
  async signIn(user: UserEntity, unauthorized: () => ApiError): Promise<LoginTokenDto> {
    const memberships: SystemDomainEntity[] = await this.ds
      .getRepository(SystemDomainEntity)
      .createQueryBuilder('d')
      .innerJoin('user_system_domains', 'm', 'm.system_domain_id = d.id AND m.user_id = :userId', {
        userId: user.id,
      })
      .where("d.status <> 'DEACTIVATED'")
      .orderBy('m.date_created', 'ASC')
      .getMany();
    if (memberships.length === 0) throw unauthorized();
    const issued = await this.ds.transaction(async (em) => {
      const out = [];
      for (const domain of memberships)
        out.push({ domain, ...(await this.domainToken(em, user.id, domain.id)) });
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
        memberships.map((d) => d.id),
      ),
      token: home.token,
      auth_system_domains: items,
    };
  }

  /** A login token for one domain, under the domain's built-in sign-in app (inside `em`'s transaction). */
  async domainToken(em: EntityManager, userId: string, domainId: string) {
    const appId = await this.domains.builtinAppId(em, domainId);
    const issued = await this.tokens.issue(
      { userId, appId, systemDomainId: domainId, kind: 'LOGIN', expires: this.tokens.loginExpiry() },
      em,
    );
    return { appId, ...issued };
  }
}
