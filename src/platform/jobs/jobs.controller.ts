import { Body, Controller, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { CreateJobDto, JobDto, JobListDto, JobListQueryDto, UpdateJobDto } from './dto/job.dto.js';
import { JOB_ACCESS } from './job-access.js';
import { JobsService } from './jobs.service.js';

const uuid = new UuidParamPipe('Job');
const param = 'job_id';

@ApiTags('jobs')
@ApiErrors(400)
@Controller('API/jobs/v1/jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  @Authenticated({ roles: ['can_read_assets'] })
  @ApiOperation({
    summary: 'Jobs the caller may see (their own, and those about assets and files they may read)',
  })
  @ApiOkResponse({ type: JobListDto })
  listJobs(
    @Query() q: JobListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<JobListDto> {
    return this.jobs.list(caller, q, req.path);
  }

  @Post()
  @Authenticated({ roles: ['can_write_assets'] })
  @ApiOperation({
    summary: 'Record a job (TRANSFER while uploading, …); an asset or file it names needs write',
  })
  @ApiCreatedResponse({ type: JobDto })
  @ApiErrors(403, { 404: 'The object it names is not the caller’s to write' })
  createJob(@Body() body: CreateJobDto, @Caller() caller: AuthContext): Promise<JobDto> {
    return this.jobs.create(caller, body);
  }

  @Get(':job_id')
  @Authenticated({ roles: ['can_read_assets'], access: { entity: JOB_ACCESS.read, param } })
  @ApiOperation({ summary: 'One job' })
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(404)
  getJob(@Param(param, uuid) id: string, @Caller() caller: AuthContext): Promise<JobDto> {
    return this.jobs.get(caller, id);
  }

  @Patch(':job_id')
  @Authenticated({ roles: ['can_write_assets'], access: { entity: JOB_ACCESS.write, param } })
  @ApiOperation({
    summary:
      'Progress and status (STARTED → FINISHED or FAILED); a job in a final status cannot change it (400)',
  })
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(404, { 403: 'A job the service runs (KEYFRAMES)' })
  updateJob(
    @Param(param, uuid) id: string,
    @Body() body: UpdateJobDto,
    @Caller() caller: AuthContext,
  ): Promise<JobDto> {
    return this.jobs.update(caller, id, body);
  }
}
