import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { type AuthenticatedOptions } from '../../base/common/auth/authenticated.decorator.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { CreateJobDto, JobDto, JobListDto, JobListQueryDto, UpdateJobDto } from './dto/job.dto.js';
import { JOB_ACCESS } from './job-access.js';
import { JobsService } from './jobs.service.js';
import { Route } from '../../base/common/http/route.js';

const param = 'job_id';
const write: AuthenticatedOptions = {
  roles: ['can_write_assets'],
  access: { entity: JOB_ACCESS.write, param },
};
const RULES =
  'a job in a final status keeps it (400); the status and progress of a job the service runs (KEYFRAMES) are not the client’s (403); CUSTOM needs custom_type; parent_id is a job the caller may read, never the job or one below it (400)';

const edit = PutAndPatch({
  path: ':job_id',
  policy: write,
  ok: JobDto,
  errors: [404, { 403: 'A job the service runs (KEYFRAMES): its status and progress' }],
  put: `Replace a job's writable fields (an omitted field takes its default; type and status stay when omitted): ${RULES}`,
  patch: `Change the fields named: ${RULES}`,
});
const jobs = ServiceRoutes<JobsService>('jobs');
const id = input.uuidParam(param, 'Job');

@ApiTags('jobs')
@ApiErrors(400)
@Controller('API/jobs/v1/jobs')
export class JobsController extends jobs.handlers({
  listJobs: jobs.call(
    'list',
    Route.get({
      summary:
        'Jobs the caller may see (their own, and those about assets and files they may read); a filter on a type no job has is an empty page',
      policy: { roles: ['can_read_assets'] },
      ok: JobListDto,
    }),
    input.caller,
    input.query(JobListQueryDto),
    input.path,
  ),
  createJob: jobs.call(
    'create',
    Route.post({
      summary: 'Record a job (TRANSFER while uploading, …); an asset or file it names needs write',
      policy: { roles: ['can_write_assets'] },
      created: JobDto,
      errors: [403, { 404: 'The object it names is not the caller’s to write' }],
    }),
    input.caller,
    input.body(CreateJobDto),
  ),
  getJob: jobs.call(
    'get',
    Route.get(':job_id', {
      summary: 'One job',
      policy: { roles: ['can_read_assets'], access: { entity: JOB_ACCESS.read, param } },
      ok: JobDto,
      errors: [404],
    }),
    input.caller,
    id,
  ),
  replaceJob: jobs.handle(
    edit.put,
    (s, c, i, b) => s.update(c, i, b, 'put'),
    input.caller,
    id,
    input.body(UpdateJobDto),
  ),
  updateJob: jobs.handle(
    edit.patch,
    (s, c, i, b) => s.update(c, i, b, 'patch'),
    input.caller,
    id,
    input.body(UpdateJobDto),
  ),
  deleteJob: jobs.call(
    'remove',
    Route.delete(':job_id', {
      summary: 'Delete a job (its children lose their parent); a service job that has not ended: 409',
      policy: write,
      noContent: 'Deleted',
      errors: [404, 409],
    }),
    input.caller,
    id,
  ),
}) {
  constructor(protected readonly jobs: JobsService) {
    super();
  }
}
