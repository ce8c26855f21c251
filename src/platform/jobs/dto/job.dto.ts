import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsObject, Max, Min, ValidateIf } from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import {
  DateTimeField,
  EnumField,
  IntField,
  ObjectField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import type { JsonObject } from '../../../base/model/file.entity.js';
import { JOB_STATUSES, JOB_TYPES } from '../../../base/model/job.entity.js';

/** Types a client records itself; KEYFRAMES jobs are started by …/files/{id}/keyframes/ and run by the service. */
export const CLIENT_JOB_TYPES = JOB_TYPES.filter((t) => t !== 'KEYFRAMES');
/** At most this many related objects on a job. */
export const MAX_RELATED_OBJECTS = 100;

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

function RelatedObjects(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'object', additionalProperties: true },
      maxItems: MAX_RELATED_OBJECTS,
      description: 'Objects the job concerns besides object_type/object_id (kept as sent)',
    }),
    ValidateIf((_o, v) => v !== undefined),
    IsArray({ message: 'must be an array of objects' }),
    ArrayMaxSize(MAX_RELATED_OBJECTS),
    IsObject({ each: true, message: 'each item must be an object' }),
  );
}

/** The fields a client writes on a job: POST, PUT and PATCH alike (the rules are JobsService's). */
export class JobFieldsDto {
  @StringField({ required: false, maxLength: 500 }) title?: string;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 200,
    description: 'What a CUSTOM job is: required when type is CUSTOM, refused otherwise',
  })
  custom_type?: string | null;
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
  @StringField({ required: false, nullable: true, maxLength: 2000 }) message?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 10000 }) error_message?: string | null;
  @ObjectField({ required: false, description: 'Free key/value pairs, kept as sent' }) metadata?: JsonObject;
  @ObjectField({ required: false }) job_context?: JsonObject;
  @ObjectField({ required: false }) action_context?: JsonObject;
  @RelatedObjects() related_objects?: JsonObject[];
  @UuidField({
    required: false,
    nullable: true,
    description: 'A job of the same domain the caller may read (never the job itself or one of its children)',
  })
  parent_id?: string | null;
  @DateTimeField({ required: false, nullable: true, description: 'Set when the job becomes STARTED' })
  started_at?: string | null;
  @DateTimeField({ required: false, nullable: true, description: 'Set when the job ends' })
  completed_at?: string | null;
}

/** Body of POST /API/jobs/v1/jobs/. */
export class CreateJobDto extends JobFieldsDto {
  @EnumField(CLIENT_JOB_TYPES) type!: string;
  @EnumField(JOB_STATUSES, { required: false, description: 'Default READY' }) status?: string;
  @IntField({ required: false, min: -1000, max: 1000 }) priority?: number;
}

/**
 * Body of PUT and PATCH /API/jobs/v1/jobs/{job_id}/. PATCH changes what it names; PUT replaces every writable
 * field (an omitted one takes its default, type and status excepted, which stay). A final status stays.
 */
export class UpdateJobDto extends JobFieldsDto {
  @EnumField(CLIENT_JOB_TYPES, { required: false }) type?: string;
  @EnumField(JOB_STATUSES, { required: false }) status?: string;
}

export class JobListQueryDto extends PageQueryDto {
  @EnumField(JOB_TYPES, { required: false }) type?: string;
  @EnumField(JOB_STATUSES, { required: false }) status?: string;
  @UuidField({ required: false }) object_id?: string;
  @UuidField({ required: false, description: 'The children of this job' }) parent_id?: string;
  @StringField({ required: false, maxLength: 200 }) custom_type?: string;
}

export class JobDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ enum: JOB_TYPES }) type!: string;
  @ApiProperty({ nullable: true, type: String }) custom_type!: string | null;
  @ApiProperty({ enum: JOB_STATUSES }) status!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ nullable: true, type: String }) object_type!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) object_id!: string | null;
  @ApiProperty({ type: 'integer', format: 'int64' }) progress_processed!: number;
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true }) progress_total!: number | null;
  @ApiProperty({
    type: 'integer',
    readOnly: true,
    description: 'Percent done: progress_processed of progress_total (100 once FINISHED), 0 when unknown',
  })
  progress!: number;
  @ApiProperty({ type: 'integer', readOnly: true, description: 'Changed through PUT …/jobs/priority/' })
  priority!: number;
  @ApiProperty({ nullable: true, type: String }) message!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why a job FAILED' }) error_message!:
    string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: JsonObject;
  @ApiProperty({ type: 'object', additionalProperties: true }) job_context!: JsonObject;
  @ApiProperty({ type: 'object', additionalProperties: true }) action_context!: JsonObject;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  related_objects!: JsonObject[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) parent_id!: string | null;
  @ApiProperty({ readOnly: true, description: 'Other jobs name this one as their parent' })
  has_children!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) started_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) completed_at!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, readOnly: true }) created_by!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The same as created_by' })
  created_by_user!: string | null;
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}
export class JobListDto extends ListEnvelopeDto(JobDto) {}
