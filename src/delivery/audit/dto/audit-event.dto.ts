import { ApiProperty } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { DateTimeField, EnumField, UuidField } from '../../../base/common/validation/fields.js';
import { AUDIT_ACTIONS } from '../audit-actions.js';

export class AuditActorDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) user_id!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) app_id!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Credential kind (LOGIN, PAT, OAUTH, TEMP), or password / admin_cli',
  })
  kind!: string | null;
}

export class AuditEventDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) system_domain_id!: string | null;
  @ApiProperty({ type: AuditActorDto }) actor!: AuditActorDto;
  @ApiProperty({ enum: AUDIT_ACTIONS, enumName: 'AuditAction' }) action!: string;
  @ApiProperty({ type: String, nullable: true }) target_type!: string | null;
  @ApiProperty({ type: String, nullable: true }) target_id!: string | null;
  @ApiProperty({ enum: ['success', 'failure'] }) outcome!: string;
  @ApiProperty({ type: String, nullable: true }) request_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) client_address!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details!: Record<string, unknown>;
}

export class AuditEventListDto extends ListEnvelopeDto(AuditEventDto) {}

export class AuditEventListQueryDto extends PageQueryDto {
  @UuidField({ required: false, description: 'Only records of this acting user' })
  actor_user_id?: string;
  @UuidField({ required: false, description: 'Only records of this acting app' })
  actor_app_id?: string;
  @EnumField(AUDIT_ACTIONS, { required: false, enumName: 'AuditAction' })
  action?: string;
  @DateTimeField({ required: false, description: 'Only records at or after this time' })
  from?: string;
  @DateTimeField({ required: false, description: 'Only records before this time' })
  to?: string;
  @UuidField({
    required: false,
    description: 'Super administrators: only this domain’s records (others always see their own domain)',
  })
  system_domain_id?: string;
}
