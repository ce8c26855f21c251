import { Injectable } from '@nestjs/common';
import { In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { JobEntity } from '../../base/model/job.entity.js';
import { jobAllowedSql } from './job-access.js';
import { insertRow } from '../../base/database/insert-row.js';

/**
 * The jobs' door to the database. Methods that take part in a change take the change's EntityManager
 * (`transaction(work)` opens it; the files worker hands its own); reads outside one use `manager`.
 */
@Injectable()
export class JobsRepository extends FeatureRepository {
  /** Inserts a job and answers it as stored (defaults and dates filled in). */
  async insert(em: EntityManager, fields: Partial<JobEntity>): Promise<JobEntity> {
    const job = await insertRow(em, JobEntity, fields);
    return em.findOneByOrFail(JobEntity, { id: job.id });
  }

  /** A job of the domain, or null. */
  inDomain(systemDomainId: string, id: string): Promise<JobEntity | null> {
    return this.manager.findOneBy(JobEntity, { id, system_domain_id: systemDomainId });
  }

  /** A job of the domain with its row held for the transaction, or null. */
  lockInDomain(em: EntityManager, systemDomainId: string, id: string): Promise<JobEntity | null> {
    return em.findOne(JobEntity, {
      where: { id, system_domain_id: systemDomainId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Jobs of the domain (not locked: the checks before a change's transaction). */
  manyInDomain(systemDomainId: string, ids: string[]): Promise<JobEntity[]> {
    return this.manager.findBy(JobEntity, { id: In(ids), system_domain_id: systemDomainId });
  }

  /** Jobs of the domain with their rows held for the transaction (in id order, so two bulk requests queue). */
  lockManyInDomain(em: EntityManager, systemDomainId: string, ids: string[]): Promise<JobEntity[]> {
    return em.find(JobEntity, {
      where: { id: In(ids), system_domain_id: systemDomainId },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async update(em: EntityManager, id: string, changes: Partial<JobEntity>): Promise<void> {
    await em.update(JobEntity, { id }, changes);
  }

  async setPriority(em: EntityManager, ids: string[], priority: number): Promise<void> {
    await em.update(JobEntity, { id: In(ids) }, { priority });
  }

  /** Deletes the jobs; their children's parent_id is cleared by the foreign key. */
  async remove(em: EntityManager, ids: string[]): Promise<void> {
    await em.delete(JobEntity, { id: In(ids) });
  }

  /** Of these jobs, those other jobs name as their parent. */
  async withChildren(em: EntityManager, ids: string[]): Promise<string[]> {
    const rows = await em
      .createQueryBuilder(JobEntity, 'c')
      .select('DISTINCT c.parent_id', 'id')
      .where('c.parent_id IN (:...ids)', { ids })
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }

  /**
   * Holds the domain's job tree for the transaction: two changes of parent_id that would close a cycle
   * together (A under B, B under A) run one after the other, so the second sees the first.
   */
  async lockTree(em: EntityManager, systemDomainId: string): Promise<void> {
    // raw: a transaction-scoped advisory lock (pg_advisory_xact_lock), no table involved
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`jobs-tree:${systemDomainId}`]);
  }

  /** Whether `ancestorId` is `jobId` or one of the parents above it (a parent chain is at most 1000 deep). */
  async isAncestorOf(em: EntityManager, ancestorId: string, jobId: string): Promise<boolean> {
    // raw: a recursive walk up the parent chain, which the query builder does not express
    const rows = (await em.query(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM jobs WHERE id = $1
         UNION ALL SELECT j.id, j.parent_id, up.depth + 1 FROM jobs j JOIN up ON j.id = up.parent_id
          WHERE up.depth < 1000)
       SELECT 1 FROM up WHERE id = $2 LIMIT 1`,
      [jobId, ancestorId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** The job (it exists: the caller just changed it). */
  jobOrFail(em: EntityManager, id: string): Promise<JobEntity> {
    return em.findOneByOrFail(JobEntity, { id });
  }

  /** The jobs of the caller's domain the caller may read, with the list's filters, for pageList. */
  readableQuery(
    auth: AuthContext,
    filters: { type?: string; status?: string; object_id?: string; parent_id?: string; custom_type?: string },
  ): SelectQueryBuilder<JobEntity> {
    const qb = this.ds
      .getRepository(JobEntity)
      .createQueryBuilder('j')
      .where('j.system_domain_id = :d', { d: auth.systemDomainId })
      .andWhere(jobAllowedSql(auth, 'j', 'read', ':u'), { u: auth.userId });
    if (filters.type) qb.andWhere('j.type = :type', { type: filters.type });
    if (filters.status) qb.andWhere('j.status = :status', { status: filters.status });
    if (filters.object_id) qb.andWhere('j.object_id = :oid', { oid: filters.object_id });
    if (filters.parent_id) qb.andWhere('j.parent_id = :pid', { pid: filters.parent_id });
    if (filters.custom_type) qb.andWhere('j.custom_type = :ct', { ct: filters.custom_type });
    return qb;
  }

  /** Which of these jobs of the caller's domain the caller may read or write. */
  async allowedIds(
    auth: AuthContext,
    ids: string[],
    permission: 'read' | 'write',
  ): Promise<{ id: string }[]> {
    // raw: the access condition is shared SQL (jobAllowedSql, also in the job list), over ANY($1::uuid[])
    return (await this.ds.query(
      `SELECT j.id FROM jobs j WHERE j.id = ANY($1::uuid[]) AND j.system_domain_id = $2
          AND ${jobAllowedSql(auth, 'j', permission, '$3')}`,
      [ids, auth.systemDomainId, auth.userId],
    )) as { id: string }[];
  }
}
