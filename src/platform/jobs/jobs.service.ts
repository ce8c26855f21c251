import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { AccessService } from '../../base/common/auth/access.service.js';
import { Clock } from '../../base/common/clock.js';
import { pageList } from '../../base/common/http/page-list.js';
import type { CreateJobDto, JobDto, JobListDto, JobListQueryDto, UpdateJobDto } from './dto/job.dto.js';
import { FINAL_JOB_STATUSES, type JobEntity } from '../../base/model/job.entity.js';
import { newJob, plannedChanges, SERVICE_JOB_TYPES, type WriteMode } from './job-rules.js';
import { jobView } from './job-view.js';
import { JobsErrors } from './jobs.errors.js';
import { JobsRepository } from './jobs.repository.js';

const SORTABLE = ['date_created', 'date_modified', 'type', 'status', 'priority'] as const;
/** The entity a job's object_type names, checked with its write permission when a job is about it. */
const OBJECT_ACCESS: Record<string, string> = { assets: 'asset.write', files: 'file.write' };

/**
 * Jobs of a domain: clients record their own work (a TRANSFER while they upload) and follow the service's
 * (KEYFRAMES, run by the files worker). A job in a final status (FINISHED, FAILED, …) never changes status.
 * The field rules are job-rules.ts; the bulk routes are JobsBulkService, over the same `change` and `remove`.
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly repo: JobsRepository,
    private readonly access: AccessService,
    private readonly clock: Clock,
  ) {}

  async create(auth: AuthContext, body: CreateJobDto): Promise<JobDto> {
    const fields = newJob(body, this.clock.now());
    await this.checkObject(auth, fields.object_type ?? null, fields.object_id ?? null);
    if (fields.parent_id) await this.checkParentReadable(auth, fields.parent_id);
    const job = await this.insert(this.repo.manager, auth, fields);
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
    return (await this.views(this.repo.manager, [job]))[0];
  }

  async list(auth: AuthContext, q: JobListQueryDto, path: string): Promise<JobListDto> {
    const filters = {
      type: q.type,
      status: q.status,
      object_id: q.object_id,
      parent_id: q.parent_id,
      custom_type: q.custom_type,
    };
    return (await pageList({
      qb: this.repo.readableQuery(auth, filters),
      alias: 'j',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: 'date_created', order: 'DESC' }],
      path,
      query: filters,
      view: (rows) => this.views(this.repo.manager, rows),
    })) as unknown as JobListDto;
  }

  /** PATCH (the fields named) or PUT (every writable field) of one job, the job locked in the transaction. */
  async update(
    auth: AuthContext,
    id: string,
    body: UpdateJobDto,
    mode: WriteMode = 'patch',
  ): Promise<JobDto> {
    const current = await this.repo.inDomain(auth.systemDomainId, id);
    if (!current) throw JobsErrors.NOT_FOUND();
    await this.precheck(auth, current, body, mode);
    return this.repo.transaction(async (em) => {
      const job = await this.repo.lockInDomain(em, auth.systemDomainId, id);
      if (!job) throw JobsErrors.NOT_FOUND();
      await this.change(em, job, body, mode);
      return (await this.views(em, [await this.repo.jobOrFail(em, id)]))[0];
    });
  }

  /**
   * The checks of a change that read outside its transaction, run before it opens (one database session
   * serves a transaction at a time): the field rules, the ACL of the object the job is moved to, the parent
   * readable by the caller.
   */
  async precheck(auth: AuthContext, job: JobEntity, body: UpdateJobDto, mode: WriteMode): Promise<void> {
    const changes = plannedChanges(job, body, mode, this.clock.now());
    if ('object_type' in changes || 'object_id' in changes) {
      const after = { ...job, ...changes };
      await this.checkObject(auth, after.object_type, after.object_id);
    }
    if (changes.parent_id) await this.checkParentReadable(auth, changes.parent_id);
  }

  /**
   * Applies one change to a job locked in `em` (precheck has run): the field rules again, over the row as
   * locked, and no cycle through the parent. Nothing is written when a rule refuses.
   */
  async change(em: EntityManager, job: JobEntity, body: UpdateJobDto, mode: WriteMode): Promise<void> {
    const changes = plannedChanges(job, body, mode, this.clock.now());
    if (changes.parent_id) {
      await this.repo.lockTree(em, job.system_domain_id);
      if (await this.repo.isAncestorOf(em, job.id, changes.parent_id))
        throw JobsErrors.INVALID({ parent_id: 'is a child of this job: a job cannot be its own ancestor' });
    }
    if (Object.keys(changes).length > 0) await this.repo.update(em, job.id, changes);
  }

  /** DELETE of one job; its children lose their parent. A service job that has not ended stays (409). */
  async remove(auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      const job = await this.repo.lockInDomain(em, auth.systemDomainId, id);
      if (!job) throw JobsErrors.NOT_FOUND();
      assertRemovable(job);
      await this.repo.remove(em, [id]);
    });
  }

  /** The answers for these jobs, each with has_children. */
  async views(em: EntityManager, jobs: JobEntity[]): Promise<JobDto[]> {
    if (jobs.length === 0) return [];
    const parents = new Set(
      await this.repo.withChildren(
        em,
        jobs.map((j) => j.id),
      ),
    );
    return jobs.map((j) => jobView(j, parents.has(j.id)));
  }

  private async checkObject(auth: AuthContext, type: string | null, id: string | null): Promise<void> {
    const entity = type ? OBJECT_ACCESS[type] : undefined;
    if (entity && id) await this.access.require(auth, entity, [id]);
  }

  /** A parent is a job of the domain the caller may read; any other id is refused alike. */
  private async checkParentReadable(auth: AuthContext, parentId: string): Promise<void> {
    const found = await this.repo.allowedIds(auth, [parentId], 'read');
    if (found.length === 0) throw JobsErrors.INVALID({ parent_id: 'is not a job the caller may read' });
  }
}

/** The service's own jobs are deleted only once they ended (the worker still writes to them). */
export function assertRemovable(job: JobEntity): void {
  if (SERVICE_JOB_TYPES.includes(job.type) && !FINAL_JOB_STATUSES.includes(job.status))
    throw JobsErrors.RUNNING(job.id);
}

export { jobView };
