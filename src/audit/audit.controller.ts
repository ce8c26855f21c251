import { Controller, Get, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { ErrorsDto } from '../common/errors/errors.dto.js';
import { AuditQueryService } from './audit-query.service.js';
import { AuditEventListDto, AuditEventListQueryDto } from './dto/audit-event.dto.js';

/** The audit trail, read only: there is no route that changes or deletes a record. */
@ApiTags('audit')
@ApiBadRequestResponse({ type: ErrorsDto })
@Controller('API/audit/v1/events')
export class AuditController {
  constructor(private readonly audit: AuditQueryService) {}

  @Get()
  @Authenticated({ admin: true, kinds: ['LOGIN', 'PAT'] })
  @ApiOperation({
    summary:
      'Audit records of the caller’s domain (super administrators: every domain, or system_domain_id); page ' +
      'style; filters actor_user_id, actor_app_id, action, from, to; sort on date_created, action, outcome',
  })
  @ApiOkResponse({ type: AuditEventListDto })
  @ApiForbiddenResponse({ type: ErrorsDto })
  listAuditEvents(
    @Query() q: AuditEventListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<AuditEventListDto> {
    return this.audit.list(caller, q, req.path);
  }
}
