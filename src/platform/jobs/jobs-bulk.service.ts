import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { AccessService } from '../../base/common/auth/access.service.js';
import type { JobEntity } from '../../base/model/job.entity.js';
import type {
  BulkJobChangesDto,
  JobIdsDto,
  JobPriorityDto,
  JobsDto,
  JobStateDto,
} from './dto/job-bulk.dto.js';
import { JOB_ACCESS } from './job-access.js';
import { stateChange } from './job-rules.js';
import { JobsErrors } from './jobs.errors.js';
import { JobsRepository } from './jobs.repository.js';
import { assertRemovable, JobsService } from './jobs.service.js';

/**
 * The routes over several jobs (`/v1/jobs/` PATCH and DELETE, `priority/`, `state/`): every job named must be
 * one the caller may write (else 404, nothing done), and each request is one transaction with the jobs
 * locked, so a refusal of any one job (400, 403, 409) leaves every job as it was.
 */
@Injectable()
export class JobsBulkService {
  constructor(
    private readonly repo: JobsRepository,
    private readonly access: AccessService,
    private readonly jobs: JobsService,
  ) {}

  async update(auth: AuthContext, body: BulkJobChangesDto): Promise<JobsDto> {
    const ids = body.objects.map((o) => o.id);
    if (new Set(ids).size !== ids.length) throw JobsErrors.INVALID({ objects: 'names a job more than once' });
    const changes = body.objects.map(({ id, ...fields }) => ({ id, fields }));
    return this.locked(
      auth,
      ids,
      async (em, byId) => {
        for (const c of changes) await this.jobs.change(em, byId.get(c.id)!, c.fields, 'patch');
      },
      async (current) => {
        for (const c of changes) await this.jobs.precheck(auth, current.get(c.id)!, c.fields, 'patch');
      },
    );
  }

  async remove(auth: AuthContext, body: JobIdsDto): Promise<void> {
    await this.locked(auth, body.job_ids, async (em, byId) => {
      for (const job of byId.values()) assertRemovable(job);
      await this.repo.remove(em, [...byId.keys()]);
    });
  }

  async setPriority(auth: AuthContext, body: JobPriorityDto): Promise<JobsDto> {
    return this.locked(auth, body.job_ids, (em, byId) =>
      this.repo.setPriority(em, [...byId.keys()], body.priority),
    );
  }

  async setState(auth: AuthContext, body: JobStateDto): Promise<JobsDto> {
    const state = body.state ?? body.status;
    if (!state) throw JobsErrors.INVALID({ state: 'is required' });
    if (body.state && body.status && body.state !== body.status)
      throw JobsErrors.INVALID({ status: 'differs from state: send one of them' });
    return this.locked(auth, body.job_ids, async (em, byId) => {
      // every job is judged before any is written
      const moves = [...byId.values()].map((job) => ({ id: job.id, status: stateChange(job, state) }));
      for (const m of moves) if (m.status) await this.repo.update(em, m.id, { status: m.status });
    });
  }

  /**
   * The jobs named (each once), checked writable, then (`before`: the checks that read outside the
   * transaction) as they are, then locked in one transaction for `work`; answers them as they are after it,
   * in the order named.
   */
  private async locked(
    auth: AuthContext,
    named: string[],
    work: (em: EntityManager, byId: Map<string, JobEntity>) => Promise<void>,
    before?: (byId: Map<string, JobEntity>) => Promise<void>,
  ): Promise<JobsDto> {
    const ids = [...new Set(named)];
    await this.access.require(auth, JOB_ACCESS.write, ids);
    if (before) await before(byIdOrNotFound(ids, await this.repo.manyInDomain(auth.systemDomainId, ids)));
    return this.repo.transaction(async (em) => {
      const byId = byIdOrNotFound(ids, await this.repo.lockManyInDomain(em, auth.systemDomainId, ids));
      await work(em, byId);
      const after = await this.repo.lockManyInDomain(em, auth.systemDomainId, ids);
      const ordered = ids.flatMap((id) => after.filter((r) => r.id === id));
      return { objects: await this.jobs.views(em, ordered) };
    });
  }
}

/** The rows by id, each id named found (else the job went meanwhile: 404). */
function byIdOrNotFound(ids: string[], rows: JobEntity[]): Map<string, JobEntity> {
  if (rows.length !== ids.length) throw JobsErrors.NOT_FOUND();
  return new Map(ids.map((id) => [id, rows.find((r) => r.id === id)!]));
}
