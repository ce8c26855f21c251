import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager, In } from 'typeorm';
import { leaseClaimSql } from '../../base/database/lease-claim.js';
import { FileEntity, FileTaskEntity, KeyframeEntity } from '../../base/model/file.entity.js';
import { StorageEntity } from '../../base/model/storage.entity.js';

/** SQL condition: file `f` holds no proxy's bytes (a proxy's file is reached through the proxy routes). */
const NOT_A_PROXY = 'NOT EXISTS (SELECT 1 FROM proxies p WHERE p.file_id = f.id)';

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

/** A keyframe image just stored: its id, object key, position, bytes and pixels. */
export interface KeyframeRow {
  id: string;
  key: string;
  i: number;
  size: number;
  width: number | null;
  height: number | null;
}

/** The columns of a file its byte removal needs. */
export type FileBytes = Pick<FileEntity, 'id' | 'storage_id' | 'object_key' | 'multipart_upload_id'>;

/**
 * Files, their upload lease, downloads and keyframes, and the worker's queue: the sweep, claim and
 * bookkeeping, keyframes' storage and records, and the access check over ids. (Storages and formats have
 * their own repositories.)
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
      `UPDATE jobs SET status = 'STARTED', started_at = COALESCE(started_at, now()), date_modified = now()
        WHERE id = $1 AND status = 'READY'`,
      [jobId],
    );
  }

  async finishJob(jobId: string, status: string, message: string): Promise<void> {
    // raw: as startJob, guarded by the status in the same statement
    await this.ds.query(
      `UPDATE jobs SET status = $2, message = $3, completed_at = COALESCE(completed_at, now()), date_modified = now(),
          error_message = CASE WHEN $2 = 'FAILED' THEN $3 ELSE error_message END
        WHERE id = $1 AND status IN ('READY', 'STARTED')`,
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

  /**
   * Replaces the file's keyframes (any earlier job's, or an earlier attempt's of this one) with the job's and
   * finishes the job, in one transaction; the old images are queued for removal, so the files worker removes
   * their bytes only once this has committed.
   */
  async recordKeyframes(
    jobId: string,
    k: { assetId: string; fileId: string; storageId: string; rows: KeyframeRow[] },
  ): Promise<void> {
    await this.ds.transaction(async (em) => {
      // the file's row locked: two jobs of one file record one after the other, the later replacing all
      await em.findOne(FileEntity, { where: { id: k.fileId }, lock: { mode: 'pessimistic_write' } });
      // raw: DELETE … RETURNING the removed images' keys
      const [old] = (await em.query(
        'DELETE FROM keyframes WHERE file_id = $1 RETURNING storage_id, object_key',
        [k.fileId],
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
          `INSERT INTO keyframes (id, asset_id, file_id, job_id, storage_id, object_key, position, size, width, height)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [r.id, k.assetId, k.fileId, jobId, k.storageId, r.key, r.i, r.size, r.width, r.height],
        );
      // raw: as finishJob
      await em.query(
        `UPDATE jobs SET status = 'FINISHED', progress_processed = 100, message = $2, date_modified = now(),
            completed_at = COALESCE(completed_at, now())
          WHERE id = $1 AND status IN ('READY', 'STARTED')`,
        [jobId, `${k.rows.length} keyframe(s)`],
      );
    });
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

  /** Of `ids`, the live files of assets of the domain, with their asset (a proxy's file is not one). */
  async filesInDomain(ids: string[], systemDomainId: string): Promise<{ id: string; asset_id: string }[]> {
    // raw: a join to assets for the tenant test, over ANY($1::uuid[])
    return (await this.ds.query(
      `SELECT f.id, f.asset_id FROM files f JOIN assets a ON a.id = f.asset_id
        WHERE f.id = ANY($1::uuid[]) AND a.system_domain_id = $2 AND f.date_deleted IS NULL AND ${NOT_A_PROXY}`,
      [ids, systemDomainId],
    )) as { id: string; asset_id: string }[];
  }

  /** Of `ids`, the file sets of assets of the domain that are not deleted, with their asset. */
  async fileSetsInDomain(ids: string[], systemDomainId: string): Promise<{ id: string; asset_id: string }[]> {
    // raw: a join to assets for the tenant test, over ANY($1::uuid[])
    return (await this.ds.query(
      `SELECT s.id, s.asset_id FROM file_sets s JOIN assets a ON a.id = s.asset_id
        WHERE s.id = ANY($1::uuid[]) AND a.system_domain_id = $2 AND a.date_deleted IS NULL`,
      [ids, systemDomainId],
    )) as { id: string; asset_id: string }[];
  }

  // ---- files

  async insertFile(values: Partial<FileEntity>): Promise<void> {
    await this.manager.insert(FileEntity, values);
  }

  /**
   * A page of the asset's live files (of one file set or version when given), oldest first. A proxy's file
   * (proxies.file_id) is not one of them: the proxy routes are its door.
   */
  async liveFiles(
    of: { asset_id: string; file_set_id?: string; version_id?: string },
    skip: number,
    take: number,
  ): Promise<[FileEntity[], number]> {
    const qb = this.manager
      .getRepository(FileEntity)
      .createQueryBuilder('f')
      .where('f.asset_id = :assetId AND f.date_deleted IS NULL', { assetId: of.asset_id })
      .andWhere(NOT_A_PROXY);
    if (of.file_set_id) qb.andWhere('f.file_set_id = :setId', { setId: of.file_set_id });
    if (of.version_id) qb.andWhere('f.version_id = :versionId', { versionId: of.version_id });
    return qb
      .orderBy('f.date_created', 'ASC')
      .addOrderBy('f.id', 'ASC')
      .offset(skip)
      .limit(take)
      .getManyAndCount();
  }

  /** The asset's live file (locked FOR UPDATE when asked), or null; a proxy's file is not one (null). */
  liveFile(em: EntityManager, assetId: string, id: string, lock: boolean): Promise<FileEntity | null> {
    return this.oneFile(em, assetId, id, lock, NOT_A_PROXY);
  }

  /** The live file holding a proxy's bytes (locked FOR UPDATE when asked), or null when it is not a proxy's. */
  proxyFile(em: EntityManager, assetId: string, id: string, lock: boolean): Promise<FileEntity | null> {
    return this.oneFile(em, assetId, id, lock, `NOT ${NOT_A_PROXY}`);
  }

  private oneFile(
    em: EntityManager,
    assetId: string,
    id: string,
    lock: boolean,
    proxyCondition: string,
  ): Promise<FileEntity | null> {
    const qb = em
      .getRepository(FileEntity)
      .createQueryBuilder('f')
      .where('f.id = :id AND f.asset_id = :assetId AND f.date_deleted IS NULL', { id, assetId })
      .andWhere(proxyCondition);
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /**
   * Applies changes to a file still in the status and with the bytes it was read with, no chunk being written
   * (its lease free at `now`): whether it did (a racing chunk or PATCH makes it not).
   */
  async updateFileIfUnchanged(
    id: string,
    seen: { status: string; received: string },
    now: Date,
    changes: Partial<FileEntity>,
  ): Promise<boolean> {
    const res = await this.manager
      .createQueryBuilder()
      .update(FileEntity)
      .set(changes)
      .where('id = :id AND status = :status AND received = :received', {
        id,
        status: seen.status,
        received: seen.received,
      })
      .andWhere('(upload_lock_until IS NULL OR upload_lock_until <= :now)', { now })
      .execute();
    return Boolean(res.affected);
  }

  async markFileDeleted(em: EntityManager, id: string, now: Date): Promise<void> {
    await em.update(FileEntity, { id }, { status: 'DELETED', date_deleted: now });
  }

  async setContentType(id: string, contentType: string): Promise<void> {
    await this.manager.update(FileEntity, { id }, { content_type: contentType });
  }

  /** Queues the removal of each file's bytes (and of its unfinished multipart upload), in the caller's transaction. */
  async queueByteDeletion(em: EntityManager, files: FileBytes[]): Promise<void> {
    if (files.length === 0) return;
    await em.insert(
      FileTaskEntity,
      files.map((f) => ({
        kind: 'DELETE_BYTES',
        file_id: f.id,
        storage_id: f.storage_id,
        object_key: f.object_key,
        multipart_upload_id: f.multipart_upload_id ?? null,
      })),
    );
  }

  /** The storage a file's or keyframe's bytes are in (it exists: rows reference it). */
  async storageOf(id: string): Promise<StorageEntity> {
    return this.manager.findOneByOrFail(StorageEntity, { id });
  }

  // ---- the downloads behind signed links (the upload's statements: upload.repository.ts)

  /** A CLOSED live file whose asset is not deleted, or null. */
  async closedFileOfLiveAsset(id: string): Promise<FileEntity | null> {
    return this.manager
      .getRepository(FileEntity)
      .createQueryBuilder('f')
      .innerJoin('assets', 'a', 'a.id = f.asset_id AND a.date_deleted IS NULL')
      .where("f.id = :id AND f.date_deleted IS NULL AND f.status = 'CLOSED'", { id })
      .getOne();
  }

  /** A keyframe whose asset is not deleted, or null. */
  async keyframeOfLiveAsset(id: string): Promise<KeyframeEntity | null> {
    return this.manager
      .getRepository(KeyframeEntity)
      .createQueryBuilder('k')
      .innerJoin('assets', 'a', 'a.id = k.asset_id AND a.date_deleted IS NULL')
      .where('k.id = :id', { id })
      .getOne();
  }

  // ---- keyframes

  /** Queues a KEYFRAMES task, in the caller's transaction. */
  async queueKeyframesTask(
    em: EntityManager,
    t: Pick<FileTaskEntity, 'file_id' | 'job_id' | 'storage_id' | 'object_key'>,
  ): Promise<void> {
    await em.insert(FileTaskEntity, { kind: 'KEYFRAMES', ...t, multipart_upload_id: null });
  }

  /** The version and name of each of the files `ids` (keyframes carry them). */
  async fileLabels(ids: string[]): Promise<Map<string, Pick<FileEntity, 'version_id' | 'original_name'>>> {
    if (ids.length === 0) return new Map();
    const rows = await this.manager.find(FileEntity, {
      select: { id: true, version_id: true, original_name: true },
      where: { id: In(ids) },
    });
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** One of the asset's keyframes, or null. */
  async keyframe(assetId: string, id: string): Promise<KeyframeEntity | null> {
    return this.manager.findOneBy(KeyframeEntity, { id, asset_id: assetId });
  }

  /** A page of the asset's keyframes, oldest job first, then by position. */
  async keyframes(assetId: string, skip: number, take: number): Promise<[KeyframeEntity[], number]> {
    return this.manager.findAndCount(KeyframeEntity, {
      where: { asset_id: assetId },
      order: { date_created: 'ASC', position: 'ASC', id: 'ASC' },
      skip,
      take,
    });
  }
}
