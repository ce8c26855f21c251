import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { pageList, type PageList } from '../../base/common/http/page-list.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { AuditEventEntity } from '../../base/model/audit-event.entity.js';
import { AuditErrors } from './audit.errors.js';
import type { AuditEventDto, AuditEventListQueryDto } from './dto/audit-event.dto.js';

const SORTABLE = ['date_created', 'action', 'outcome'] as const;

/** Reads the trail: a domain administrator their domain's records, a super administrator anyone's. */
@Injectable()
export class AuditQueryService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(auth: AuthContext, q: AuditEventListQueryDto, path: string): Promise<PageList<AuditEventDto>> {
    const qb = this.ds.getRepository(AuditEventEntity).createQueryBuilder('a');
    if (q.system_domain_id && q.system_domain_id !== auth.systemDomainId && !auth.isSuperAdmin) {
      throw AuditErrors.OTHER_DOMAIN();
    }
    const domain = auth.isSuperAdmin ? (q.system_domain_id ?? null) : auth.systemDomainId;
    if (domain) qb.andWhere('a.system_domain_id = :domain', { domain });
    if (q.actor_user_id) qb.andWhere('a.actor_user_id = :actorUser', { actorUser: q.actor_user_id });
    if (q.actor_app_id) qb.andWhere('a.actor_app_id = :actorApp', { actorApp: q.actor_app_id });
    if (q.action) qb.andWhere('a.action = :action', { action: q.action });
    if (q.from) qb.andWhere('a.date_created >= :from', { from: new Date(q.from) });
    if (q.to) qb.andWhere('a.date_created < :to', { to: new Date(q.to) });
    return pageList({
      qb,
      alias: 'a',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: 'date_created', order: 'DESC' }],
      path,
      query: {
        actor_user_id: q.actor_user_id,
        actor_app_id: q.actor_app_id,
        action: q.action,
        from: q.from,
        to: q.to,
        system_domain_id: q.system_domain_id,
      },
      view: (rows) => rows.map(auditEventView),
    });
  }
}

function auditEventView(a: AuditEventEntity): AuditEventDto {
  return {
    id: a.id,
    date_created: wireDate(a.date_created),
    system_domain_id: a.system_domain_id,
    actor: { user_id: a.actor_user_id, app_id: a.actor_app_id, kind: a.actor_kind },
    action: a.action,
    target_type: a.target_type,
    target_id: a.target_id,
    outcome: a.outcome,
    request_id: a.request_id,
    client_address: a.client_address,
    details: a.details,
  };
}
