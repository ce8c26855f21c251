import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { cursorEnvelope, type ListEnvelope } from '../common/http/list-envelope.js';
import type { CursorQueryDto } from '../common/http/pagination.dto.js';
import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import { UserEntity } from '../users/user.entity.js';
import type { TokenOutputDto } from './dto/token.dto.js';
import { TokenEntity } from './token.entity.js';
import { tokenView } from './token-view.js';
import { TokensService } from './tokens.service.js';

/** Read side of tokens: details and the two cursor-style lists (live tokens only). */
@Injectable()
export class TokenQueriesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tokens: TokensService,
  ) {}

  async view(t: TokenEntity): Promise<TokenOutputDto> {
    const [user, domain, domains, isAdmin] = await Promise.all([
      this.ds.getRepository(UserEntity).findOneByOrFail({ id: t.user_id }),
      this.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: t.system_domain_id }),
      this.tokens.userDomainIds(t.user_id),
      this.tokens.isDomainAdmin(t.user_id, t.system_domain_id),
    ]);
    return tokenView(t, { is_admin: isAdmin, is_super_admin: user.is_super_admin }, domain, domains);
  }

  listForUser(userId: string, systemDomainId: string, q: CursorQueryDto, path: string) {
    return this.list((qb) => qb.andWhere('t.user_id = :userId', { userId }), systemDomainId, q, path);
  }

  listForApp(appId: string, systemDomainId: string, q: CursorQueryDto, path: string) {
    return this.list((qb) => qb.andWhere('t.app_id = :appId', { appId }), systemDomainId, q, path);
  }

  private async list(
    filter: (qb: SelectQueryBuilder<TokenEntity>) => SelectQueryBuilder<TokenEntity>,
    systemDomainId: string,
    q: CursorQueryDto,
    path: string,
  ): Promise<ListEnvelope<TokenOutputDto>> {
    const base = () =>
      filter(
        this.ds
          .getRepository(TokenEntity)
          .createQueryBuilder('t')
          .where('t.system_domain_id = :systemDomainId', { systemDomainId })
          .andWhere('t.revoked_at IS NULL AND t.expires > now()'),
      );
    const page = base()
      .orderBy('t.id', 'ASC')
      .take(q.per_page + 1);
    if (q.last_id) page.andWhere('t.id > :lastId', { lastId: q.last_id });
    const [rows, total, before] = await Promise.all([
      page.getMany(),
      base().getCount(),
      q.last_id ? base().andWhere('t.id <= :lastId', { lastId: q.last_id }).getCount() : Promise.resolve(0),
    ]);
    const views = await Promise.all(rows.map((t) => this.view(t)));
    return cursorEnvelope(views, total, before, q.per_page, path, {
      per_page: q.per_page,
      last_id: q.last_id,
    });
  }
}
