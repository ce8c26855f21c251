import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  BulkJobChangesDto,
  JobIdsDto,
  JobPriorityDto,
  JobsDto,
  JobStateDto,
  MAX_BULK_JOBS,
} from './dto/job-bulk.dto.js';
import { JobsBulkService } from './jobs-bulk.service.js';
import { Route } from '../../base/common/http/route.js';

const ALL = `1 to ${MAX_BULK_JOBS} jobs, each one the caller may write (else 404); all are changed in one transaction, or none`;
const NOT_WRITABLE = { 404: 'A job named is not one the caller may write' };
const bulk = ServiceRoutes<JobsBulkService>('bulk');

/** The routes over several jobs; registered before JobsController, so `priority/` is not taken for an id. */
@ApiTags('jobs')
@ApiErrors(400, NOT_WRITABLE)
@Controller('API/jobs/v1/jobs')
export class JobsBulkController extends bulk.handlers({
  updateJobs: bulk.call(
    'update',
    Route.patch({
      summary: `Change several jobs (\`objects\`: each an id and the fields to change): ${ALL}`,
      policy: { roles: ['can_write_assets'] },
      ok: JobsDto,
      errors: [{ 403: 'A job the service runs (KEYFRAMES): its status and progress' }],
    }),
    input.caller,
    input.body(BulkJobChangesDto),
  ),
  deleteJobs: bulk.call(
    'remove',
    Route.delete({
      summary: `Delete several jobs (\`job_ids\`): ${ALL}`,
      policy: { roles: ['can_write_assets'] },
      noContent: 'Deleted',
      errors: [{ 409: 'A job the service runs has not ended' }],
    }),
    input.caller,
    input.body(JobIdsDto),
  ),
  setJobsPriority: bulk.call(
    'setPriority',
    Route.put('priority', {
      summary: `Set the priority of several jobs (\`job_ids\`, \`priority\` -1000 to 1000): ${ALL}`,
      policy: { roles: ['can_write_assets'] },
      ok: JobsDto,
    }),
    input.caller,
    input.body(JobPriorityDto),
  ),
  setJobsState: bulk.call(
    'setState',
    Route.put('state', {
      summary: `Put several jobs in a state (\`job_ids\`, \`state\` or \`status\`): ABORT_PENDING (from READY, WAITING, STARTED, PAUSED), PAUSED (from READY, WAITING, STARTED), READY (from PAUSED, WAITING); any other move is a 400 naming the job; ${ALL}`,
      policy: { roles: ['can_write_assets'] },
      ok: JobsDto,
      errors: [{ 403: 'A job the service runs (KEYFRAMES)' }],
    }),
    input.caller,
    input.body(JobStateDto),
  ),
}) {
  constructor(protected readonly bulk: JobsBulkService) {
    super();
  }
}
