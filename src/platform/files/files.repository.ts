import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager } from 'typeorm';
import { leaseClaimSql } from '../../base/database/lease-claim.js';
import type { FileTaskEntity } from '../../base/model/file.entity.js';
import { StorageEntity } from '../../base/model/storage.entity.js';

/** Claims due file tasks (leaseClaimSql: FOR UPDATE SKIP LOCKED plus a lease). */
const CLAIM_SQL = leaseClaimSql({
  table: 'file_tasks',
  alias: 't',
  returning:
    't.id, t.kind, t.file_id, t.job_id, t.storage_id, t.object_key, t.multipart_upload_id, t.attempts',
});

/**
 * Files of assets deleted since the last round: marked DELETED and their bytes queued for removal in one
 * statement, so each is queued once whatever the number of instances (a moved row no longer matches, and
 * SKIP LOCKED keeps two rounds apart). A file with a chunk being written waits for the next round.
 */
const SWEEP_FILES_SQL = `
  WITH gone AS (
    UPDATE files f SET status = 'DELETED', date_deleted = $1
      FROM (SELECT f2.id FROM files f2 JOIN assets a ON a.id = f2.asset_id
             WHERE a.date_deleted IS NOT NULL AND f2.date_deleted IS NULL
               AND (f2.upload_lock_until IS NULL OR f2.upload_lock_until <= $1)
             LIMIT 100 FOR UPDATE OF f2 SKIP LOCKED) c
     WHERE f.id = c.id
    RETURNING f.id, f.storage_id, f.object_key, f.multipart_upload_id)
  INSERT INTO file_tasks (kind, file_id, storage_id, object_key, multipart_upload_id)
  SELECT 'DELETE_BYTES', id, storage_id, object_key, multipart_upload_id FROM gone`;

/** Keyframes of deleted assets: the rows go, their images are queued for removal. */
const SWEEP_KEYFRAMES_SQL = `
  WITH gone AS (
    DELETE FROM keyframes k
     USING (SELECT k2.id FROM keyframes k2 JOIN assets a ON a.id = k2.asset_id
             WHERE a.date_deleted IS NOT NULL LIMIT 100 FOR UPDATE OF k2 SKIP LOCKED) c
     WHERE k.id = c.id
    RETURNING k.storage_id, k.object_key)
  INSERT INTO file_tasks (kind, storage_id, object_key)
  SELECT 'DELETE_BYTES', storage_id, object_key FROM gone`;

/** A claimed file task. */
export type ClaimedTask = Pick<
  FileTaskEntity,
  'id' | 'kind' | 'file_id' | 'job_id' | 'storage_id' | 'object_key' | 'multipart_upload_id' | 'attempts'
>;

/**
 * The raw statements of files: the worker's sweep, claim and bookkeeping, keyframes, the built-in storages,
 * the per-caller default storages, counts and the access check over ids. The services keep the query
 * builder for the rest.
 */
@Injectable()
export class FilesRepository extends FeatureRepository {
  /** Files and keyframes of deleted assets: marked and queued for byte removal. Whether files were swept. */
  async sweepDeletedAssets(now: Date): Promise<number> {
    // raw: UPDATE … FROM a SKIP LOCKED batch inside a CTE feeding an INSERT, one statement
    const [, swept] = (await this.ds.query(SWEEP_FILES_SQL, [now])) as [unknown, number];
    // raw: DELETE … USING a SKIP LOCKED batch inside a CTE feeding an INSERT, one statement
    await this.ds.query(SWEEP_KEYFRAMES_SQL);
    return swept;
  }

  async claimTasks(now: Date, lease: Date, limit: number): Promise<ClaimedTask[]> {
    // raw: FOR UPDATE SKIP LOCKED with a lease, UPDATE … FROM … RETURNING (leaseClaimSql)
    const [claimed] = (await this.ds.query(CLAIM_SQL, [now, lease, limit])) as [ClaimedTask[], number];
    return claimed;
  }

  async taskDone(id: string): Promise<void> {
    // raw: kept beside the claim's statements on the same queue (a plain UPDATE by id)
    await this.ds.query(`UPDATE file_tasks SET status = 'DONE', locked_until = NULL WHERE id = $1`, [id]);
  }

  async taskFailed(id: string, error: string): Promise<void> {
    // raw: as taskDone
    await this.ds.query(
      `UPDATE file_tasks SET status = 'FAILED', locked_until = NULL, last_error = $2 WHERE id = $1`,
      [id, error],
    );
  }

  async taskRetry(id: string, next: Date, error: string): Promise<void> {
    // raw: as taskDone
    await this.ds.query(
      `UPDATE file_tasks SET next_attempt_at = $2, locked_until = NULL, last_error = $3 WHERE id = $1`,
      [id, next, error],
    );
  }

  /** The file's asset and the job's domain, or undefined when the file is gone. */
  async taskContext(
    fileId: string,
    jobId: string,
  ): Promise<{ asset_id: string; size: string | null; system_domain_id: string } | undefined> {
    // raw: a join on a parameter (j.id = $2), columns of two tables
    const [ctx] = (await this.ds.query(
      `SELECT f.asset_id, f.size, j.system_domain_id FROM files f JOIN jobs j ON j.id = $2 WHERE f.id = $1`,
      [fileId, jobId],
    )) as { asset_id: string; size: string | null; system_domain_id: string }[];
    return ctx;
  }

  async startJob(jobId: string): Promise<void> {
    // raw: the jobs table of src/jobs, its date_modified from the database's now() (as every job write)
    await this.ds.query(
      `UPDATE jobs SET status = 'STARTED', date_modified = now() WHERE id = $1 AND status = 'READY'`,
      [jobId],
    );
  }

  async finishJob(jobId: string, status: string, message: string): Promise<void> {
    // raw: as startJob, guarded by the status in the same statement
    await this.ds.query(
      `UPDATE jobs SET status = $2, message = $3, date_modified = now() WHERE id = $1 AND status IN ('READY', 'STARTED')`,
      [jobId, status, message],
    );
  }

  /** The KEYFRAMES storage for a domain: its own default, else the built-in one. */
  async keyframesStorage(systemDomainId: string): Promise<StorageEntity | undefined> {
    // raw: ORDER BY a boolean expression ((system_domain_id IS NULL)) picks the domain's own first
    const [target] = (await this.ds.query(
      `SELECT * FROM storages WHERE purpose = 'KEYFRAMES' AND is_default AND status = 'ACTIVE'
          AND (system_domain_id IS NULL OR system_domain_id = $1)
        ORDER BY (system_domain_id IS NULL) LIMIT 1`,
      [systemDomainId],
    )) as StorageEntity[];
    return target;
  }

  /** Replaces a job's keyframes (the old images queued for removal) and finishes the job, in one transaction. */
  async recordKeyframes(
    jobId: string,
    k: {
      assetId: string;
      fileId: string;
      storageId: string;
      rows: { id: string; key: string; i: number; size: number }[];
    },
  ): Promise<void> {
    await this.ds.transaction(async (em) => {
      // a retried task replaces what an earlier attempt stored
      // raw: DELETE … RETURNING the removed images' keys
      const [old] = (await em.query(
        'DELETE FROM keyframes WHERE job_id = $1 RETURNING storage_id, object_key',
        [jobId],
      )) as [{ storage_id: string; object_key: string }[], number];
      for (const o of old)
        // raw: the queue's rows are written by SQL only, as the sweep writes them
        await em.query(
          `INSERT INTO file_tasks (kind, storage_id, object_key) VALUES ('DELETE_BYTES', $1, $2)`,
          [o.storage_id, o.object_key],
        );
      for (const r of k.rows)
        // raw: explicit ids and positions, as the bytes were stored under them
        await em.query(
          `INSERT INTO keyframes (id, asset_id, file_id, job_id, storage_id, object_key, position, size)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [r.id, k.assetId, k.fileId, jobId, k.storageId, r.key, r.i, r.size],
        );
      // raw: as finishJob
      await em.query(
        `UPDATE jobs SET status = 'FINISHED', progress_processed = 100, message = $2, date_modified = now()
          WHERE id = $1 AND status IN ('READY', 'STARTED')`,
        [jobId, `${k.rows.length} keyframe(s)`],
      );
    });
  }

  /** Creates the built-in storage of a purpose unless one exists: whether it was created. */
  async ensureBuiltinStorage(
    name: string,
    method: string,
    purpose: string,
    settings: object,
  ): Promise<boolean> {
    // raw: INSERT … ON CONFLICT on a partial unique index (one per purpose, whatever the instances starting)
    const [, created] = (await this.ds.query(
      `INSERT INTO storages (name, method, purpose, settings, is_default, status, scanner_status)
       VALUES ($1, $2, $3, $4, true, 'ACTIVE', 'INACTIVE')
       ON CONFLICT (purpose) WHERE system_domain_id IS NULL AND is_default DO NOTHING`,
      [name, method, purpose, JSON.stringify(settings)],
    )) as [unknown, number];
    return Boolean(created);
  }

  /** The storage each purpose resolves to for a domain: its own default, else the built-in one. */
  async defaultStorageIds(systemDomainId: string): Promise<string[]> {
    // raw: SELECT DISTINCT ON (purpose) … ORDER BY purpose, (system_domain_id IS NULL)
    const rows: { id: string }[] = await this.ds.query(
      `SELECT DISTINCT ON (purpose) id FROM storages
        WHERE is_default AND status = 'ACTIVE' AND (system_domain_id IS NULL OR system_domain_id = $1)
        ORDER BY purpose, (system_domain_id IS NULL)`,
      [systemDomainId],
    );
    return rows.map((r) => r.id);
  }

  /** The method (FILE, S3) of each storage. */
  async storageMethods(ids: string[]): Promise<Map<string, string>> {
    const rows = await this.ds
      .getRepository(StorageEntity)
      .createQueryBuilder('s')
      .select(['s.id', 's.method'])
      .where('s.id IN (:...ids)', { ids })
      .getMany();
    return new Map(rows.map((r) => [r.id, r.method]));
  }

  /** Live files per file set. */
  async fileCounts(em: EntityManager, setIds: string[]): Promise<Map<string, number>> {
    // raw: count(*) GROUP BY over ANY($1::uuid[]), no entity materialised
    const rows: { id: string; n: string }[] = await em.query(
      `SELECT file_set_id AS id, count(*) AS n FROM files
        WHERE file_set_id = ANY($1::uuid[]) AND date_deleted IS NULL GROUP BY file_set_id`,
      [setIds],
    );
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  }

  /** Of `ids`, the live files of assets of the domain, with their asset. */
  async filesInDomain(ids: string[], systemDomainId: string): Promise<{ id: string; asset_id: string }[]> {
    // raw: a join to assets for the tenant test, over ANY($1::uuid[])
    return (await this.ds.query(
      `SELECT f.id, f.asset_id FROM files f JOIN assets a ON a.id = f.asset_id
        WHERE f.id = ANY($1::uuid[]) AND a.system_domain_id = $2 AND f.date_deleted IS NULL`,
      [ids, systemDomainId],
    )) as { id: string; asset_id: string }[];
  }
}
