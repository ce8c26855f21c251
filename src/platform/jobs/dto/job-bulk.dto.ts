import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID, ValidateNested } from 'class-validator';
import { EnumField, IntField, UuidField } from '../../../base/common/validation/fields.js';
import { JobDto, UpdateJobDto } from './job.dto.js';

/** At most this many jobs in one bulk request. */
export const MAX_BULK_JOBS = 100;
/** The states a client may put jobs in through PUT …/jobs/state/. */
export const CLIENT_JOB_STATES = ['ABORT_PENDING', 'PAUSED', 'READY'] as const;

function JobIds(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: [String],
      format: 'uuid',
      minItems: 1,
      maxItems: MAX_BULK_JOBS,
      description: `1 to ${MAX_BULK_JOBS} ids of jobs the caller may change`,
    }),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_BULK_JOBS),
    IsUUID('all', { each: true, message: 'each id must be a UUID' }),
  );
}

/** One job of a bulk PATCH: its id and the fields to change. */
export class BulkJobChangeDto extends UpdateJobDto {
  @UuidField() id!: string;
}

/** Body of PATCH /API/jobs/v1/jobs/: every change is applied, or none. */
export class BulkJobChangesDto {
  @ApiProperty({ type: [BulkJobChangeDto], minItems: 1, maxItems: MAX_BULK_JOBS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_JOBS)
  @ValidateNested({ each: true })
  @Type(() => BulkJobChangeDto)
  objects!: BulkJobChangeDto[];
}

/** Body of DELETE /API/jobs/v1/jobs/. */
export class JobIdsDto {
  @JobIds() job_ids!: string[];
}

/** Body of PUT /API/jobs/v1/jobs/priority/. */
export class JobPriorityDto extends JobIdsDto {
  @IntField({ min: -1000, max: 1000 }) priority!: number;
}

/** Body of PUT /API/jobs/v1/jobs/state/: `state` (or `status`, its other name). */
export class JobStateDto extends JobIdsDto {
  @EnumField(CLIENT_JOB_STATES, { required: false, description: 'The state to put every job in' })
  state?: string;
  @EnumField(CLIENT_JOB_STATES, { required: false, description: 'The same as state' })
  status?: string;
}

export class JobsDto {
  @ApiProperty({ type: [JobDto] }) objects!: JobDto[];
}
