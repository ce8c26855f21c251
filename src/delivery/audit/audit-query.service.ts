import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { pageList, type PageList } from '../../base/common/http/page-list.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import type { AuditEventEntity } from '../../base/model/audit-event.entity.js';
import { AuditRepository } from './audit.repository.js';
import { AuditErrors } from './audit.errors.js';
import type { AuditEventDto, AuditEventListQueryDto } from './dto/audit-event.dto.js';

const SORTABLE = ['date_created', 'action', 'outcome'] as const;

/** Reads the trail: a domain administrator their domain's records, a super administrator anyone's. */
@Injectable()
export class AuditQueryService {
  constructor(private readonly repo: AuditRepository) {}

  list(auth: AuthContext, q: AuditEventListQueryDto, path: string): Promise<PageList<AuditEventDto>> {
    if (q.system_domain_id && q.system_domain_id !== auth.systemDomainId && !auth.isSuperAdmin) {
      throw AuditErrors.OTHER_DOMAIN();
    }
    const domain = auth.isSuperAdmin ? (q.system_domain_id ?? null) : auth.systemDomainId;
    const qb = this.repo.search({
      domain,
      actorUserId: q.actor_user_id,
      actorAppId: q.actor_app_id,
      action: q.action,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
    });
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
