import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { applyCap } from '../../base/common/auth/rights.js';
import { cursorPage } from '../../base/common/http/cursor-page.js';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import type { CursorQueryDto } from '../../base/common/http/pagination.dto.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { TokenOutputDto } from './dto/token.dto.js';
import type { TokenEntity } from '../../base/model/token.entity.js';
import { tokenView } from './token-view.js';
import { TokensRepository } from './tokens.repository.js';

/** Read side of tokens: details and the two cursor-style lists (live tokens only). */
@Injectable()
export class TokenQueriesService {
  constructor(private readonly repo: TokensRepository) {}

  async view(t: TokenEntity): Promise<TokenOutputDto> {
    return (await this.views([t]))[0];
  }

  /**
   * TokenOutput for many tokens with two queries, whatever their number: their domains, and the memberships
   * of their users (which give each user's live domains and administrator flag).
   */
  async views(tokens: TokenEntity[]): Promise<TokenOutputDto[]> {
    if (tokens.length === 0) return [];
    const userIds = [...new Set(tokens.map((t) => t.user_id))];
    const [domains, memberships] = await Promise.all([
      this.repo.domains([...new Set(tokens.map((t) => t.system_domain_id))]),
      this.repo.memberships(userIds),
    ]);
    const superAdmins = new Set<string>();
    if (memberships.length < userIds.length) {
      // a super administrator may hold tokens in a domain they are not a member of
      (await this.repo.superAdminsAmong(userIds)).forEach((id) => superAdmins.add(id));
    }
    memberships.filter((m) => m.is_super_admin).forEach((m) => superAdmins.add(m.user_id));
    return tokens.map((t) => {
      const own = memberships.filter((m) => m.user_id === t.user_id);
      const isSuper = superAdmins.has(t.user_id);
      const isAdmin = own.some((m) => m.system_domain_id === t.system_domain_id && m.is_admin) || isSuper;
      // what the token may do, not what its user may: a token minted for an app is cut to its ceiling
      const rights = applyCap({ isSuperAdmin: isSuper, isAdmin, roles: new Set() }, t.rights_cap);
      return tokenView(
        t,
        { is_admin: rights.isAdmin, is_super_admin: rights.isSuperAdmin },
        domains.find((d) => d.id === t.system_domain_id) as SystemDomainEntity,
        own.filter((m) => !m.deactivated).map((m) => m.system_domain_id),
      );
    });
  }

  listForUser(userId: string, systemDomainId: string, q: CursorQueryDto, path: string) {
    return this.list((qb) => qb.andWhere('t.user_id = :userId', { userId }), systemDomainId, q, path);
  }

  listForApp(appId: string, systemDomainId: string, q: CursorQueryDto, path: string) {
    return this.list((qb) => qb.andWhere('t.app_id = :appId', { appId }), systemDomainId, q, path);
  }

  private list(
    filter: (qb: SelectQueryBuilder<TokenEntity>) => SelectQueryBuilder<TokenEntity>,
    systemDomainId: string,
    q: CursorQueryDto,
    path: string,
  ): Promise<ListEnvelope<TokenOutputDto>> {
    const base = () => filter(this.repo.liveInDomain(systemDomainId));
    return cursorPage(base, 't', q, path, (rows) => this.views(rows));
  }
}
