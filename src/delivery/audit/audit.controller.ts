import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { AuditQueryService } from './audit-query.service.js';
import { AuditEventListDto, AuditEventListQueryDto } from './dto/audit-event.dto.js';
import { Route } from '../../base/common/http/route.js';

const audit = ServiceRoutes<AuditQueryService>('audit');

/** The audit trail, read only: there is no route that changes or deletes a record. */
@ApiTags('audit')
@ApiErrors(400)
@Controller('API/audit/v1/events')
export class AuditController extends audit.handlers({
  listAuditEvents: audit.call(
    'list',
    Route.get({
      summary:
        'Audit records of the caller’s domain (super administrators: every domain, or system_domain_id); page ' +
        'style; filters actor_user_id, actor_app_id, action, from, to; sort on date_created, action, outcome',
      policy: { admin: true, kinds: ['LOGIN', 'PAT'] },
      ok: AuditEventListDto,
      errors: [403],
    }),
    input.caller,
    input.query(AuditEventListQueryDto),
    input.path,
  ),
}) {
  constructor(protected readonly audit: AuditQueryService) {
    super();
  }
}
