import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { AccessService } from '../../base/common/auth/access.service.js';
import { pageList } from '../../base/common/http/page-list.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import type { CreateJobDto, JobDto, JobListDto, JobListQueryDto, UpdateJobDto } from './dto/job.dto.js';
import { FINAL_JOB_STATUSES, type JobEntity } from '../../base/model/job.entity.js';
import { JobsErrors } from './jobs.errors.js';
import { JobsRepository } from './jobs.repository.js';

const SORTABLE = ['date_created', 'date_modified', 'type', 'status', 'priority'] as const;
/** The entity a job's object_type names, checked with its write permission when a job is created. */
const OBJECT_ACCESS: Record<string, string> = { assets: 'asset.write', files: 'file.write' };

/**
 * Jobs of a domain: clients record their own work (a TRANSFER while they upload) and follow the service's
 * (KEYFRAMES, run by the files worker). A job in a final status (FINISHED, FAILED, …) never changes status.
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly repo: JobsRepository,
    private readonly access: AccessService,
  ) {}

  async create(auth: AuthContext, body: CreateJobDto): Promise<JobDto> {
    if ((body.object_id ?? null) !== null && !body.object_type)
      throw JobsErrors.INVALID({ object_type: 'is required with object_id' });
    const entity = body.object_type ? OBJECT_ACCESS[body.object_type] : undefined;
    if (entity && body.object_id) await this.access.require(auth, entity, [body.object_id]);
    const job = await this.insert(this.repo.manager, auth, {
      type: body.type,
      status: body.status ?? 'READY',
      title: body.title ?? '',
      object_type: body.object_type ?? null,
      object_id: body.object_id ?? null,
      progress_processed: String(body.progress_processed ?? 0),
      progress_total: body.progress_total == null ? null : String(body.progress_total),
      priority: body.priority ?? 0,
    });
    return jobView(job);
  }

  /** A job of the caller's domain (also the files worker's KEYFRAMES jobs, in the request's transaction). */
  async insert(em: EntityManager, auth: AuthContext, fields: Partial<JobEntity>): Promise<JobEntity> {
    return this.repo.insert(em, {
      ...fields,
      system_domain_id: auth.systemDomainId,
      created_by_user: auth.userId,
    });
  }

  async get(auth: AuthContext, id: string): Promise<JobDto> {
    const job = await this.repo.inDomain(auth.systemDomainId, id);
    if (!job) throw JobsErrors.NOT_FOUND();
    return jobView(job);
  }

  async list(auth: AuthContext, q: JobListQueryDto, path: string): Promise<JobListDto> {
    return (await pageList({
      qb: this.repo.readableQuery(auth, { type: q.type, status: q.status, object_id: q.object_id }),
      alias: 'j',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: 'date_created', order: 'DESC' }],
      path,
      query: { type: q.type, status: q.status, object_id: q.object_id },
      view: (rows) => rows.map(jobView),
    })) as unknown as JobListDto;
  }

  async update(auth: AuthContext, id: string, body: UpdateJobDto): Promise<JobDto> {
    return this.repo.transaction(async (em) => {
      const job = await this.repo.lockInDomain(em, auth.systemDomainId, id);
      if (!job) throw JobsErrors.NOT_FOUND();
      if (job.type === 'KEYFRAMES' && (body.status !== undefined || body.progress_processed !== undefined))
        throw JobsErrors.SERVICE_JOB();
      if (body.status !== undefined && body.status !== job.status && FINAL_JOB_STATUSES.includes(job.status))
        throw JobsErrors.FINAL(job.status);
      const changes: Partial<JobEntity> = {};
      if (body.status !== undefined) changes.status = body.status;
      if (body.title !== undefined) changes.title = body.title;
      if (body.message !== undefined) changes.message = body.message;
      if (body.progress_processed != null) changes.progress_processed = String(body.progress_processed);
      if (body.progress_total !== undefined)
        changes.progress_total = body.progress_total === null ? null : String(body.progress_total);
      if (Object.keys(changes).length > 0) await this.repo.update(em, id, changes);
      return jobView(await this.repo.jobOrFail(em, id));
    });
  }
}

export function jobView(j: JobEntity): JobDto {
  return {
    id: j.id,
    type: j.type,
    status: j.status,
    title: j.title,
    object_type: j.object_type,
    object_id: j.object_id,
    progress_processed: Number(j.progress_processed),
    progress_total: j.progress_total === null ? null : Number(j.progress_total),
    priority: j.priority,
    message: j.message,
    created_by_user: j.created_by_user,
    system_domain_id: j.system_domain_id,
    date_created: wireDate(j.date_created),
    date_modified: wireDate(j.date_modified),
  };
}
