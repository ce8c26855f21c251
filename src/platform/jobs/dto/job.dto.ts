import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { EnumField, IntField, StringField, UuidField } from '../../../base/common/validation/fields.js';
import { JOB_STATUSES, JOB_TYPES } from '../../../base/model/job.entity.js';

/** Types a client records itself; KEYFRAMES jobs are started by …/files/{id}/keyframes/ and run by the service. */
export const CLIENT_JOB_TYPES = JOB_TYPES.filter((t) => t !== 'KEYFRAMES');

function Int64(description?: string): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 0, nullable: true, description })(
      target,
      key,
    );
    ValidateIf((_o, v) => v !== undefined && v !== null)(target, key);
    IsInt({ message: 'must be an integer' })(target, key);
    Min(0)(target, key);
    Max(Number.MAX_SAFE_INTEGER)(target, key);
  };
}

/** Body of POST /API/jobs/v1/jobs/. */
export class CreateJobDto {
  @EnumField(CLIENT_JOB_TYPES) type!: string;
  @EnumField(JOB_STATUSES, { required: false, description: 'Default READY' }) status?: string;
  @StringField({ required: false, maxLength: 500 }) title?: string;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 50,
    description: 'What the job is about: assets or files (checked against their ACL), or another type',
  })
  object_type?: string | null;
  @UuidField({ required: false, nullable: true }) object_id?: string | null;
  @Int64() progress_processed?: number | null;
  @Int64() progress_total?: number | null;
  @IntField({ required: false, min: -1000, max: 1000 }) priority?: number;
}

/** Body of PATCH /API/jobs/v1/jobs/{job_id}/: progress and status (a final status stays). */
export class UpdateJobDto {
  @EnumField(JOB_STATUSES, { required: false }) status?: string;
  @StringField({ required: false, maxLength: 500 }) title?: string;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) message?: string | null;
  @Int64() progress_processed?: number | null;
  @Int64() progress_total?: number | null;
}

export class JobListQueryDto extends PageQueryDto {
  @EnumField(JOB_TYPES, { required: false }) type?: string;
  @EnumField(JOB_STATUSES, { required: false }) status?: string;
  @UuidField({ required: false }) object_id?: string;
}

export class JobDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ enum: JOB_TYPES }) type!: string;
  @ApiProperty({ enum: JOB_STATUSES }) status!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ nullable: true, type: String }) object_type!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) object_id!: string | null;
  @ApiProperty({ type: 'integer', format: 'int64' }) progress_processed!: number;
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true }) progress_total!: number | null;
  @ApiProperty({ type: 'integer' }) priority!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Why a job FAILED, in words' }) message!:
    string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) created_by_user!: string | null;
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}
export class JobListDto extends ListEnvelopeDto(JobDto) {}
