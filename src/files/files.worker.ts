import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock.js';
import { backoffMs, PollingLoop } from '../common/polling-loop.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { leaseClaimSql } from '../database/lease-claim.js';
import { objectKey } from './byte-store.js';
import { ByteStores } from './byte-stores.js';
import { extractKeyframes, UnreadableMediaError } from './ffmpeg.js';
import type { FileTaskEntity } from './file.entity.js';
import { LocalByteStore } from './local-byte-store.js';
import { StorageEntity } from './storage.entity.js';

const BATCH = 4;
/** A claim outlives the slowest task (ffmpeg's two-minute limit, and the copy of its input) by far. */
const LEASE_MS = 10 * 60_000;

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

type Claimed = Pick<
  FileTaskEntity,
  'id' | 'kind' | 'file_id' | 'job_id' | 'storage_id' | 'object_key' | 'multipart_upload_id' | 'attempts'
>;

/**
 * The files worker of this instance (the mail and webhook workers' pattern: leaseClaimSql, PollingLoop):
 * sweeps deleted assets' files into DELETE_BYTES tasks, removes bytes, and runs KEYFRAMES jobs. A task that
 * fails for a passing reason (the storage away) is retried with backoff up to FILES_MAX_ATTEMPTS; a file
 * ffmpeg cannot read ends its job FAILED with ffmpeg's message at once.
 */
@Injectable()
export class FilesWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Files');
  private readonly loop: PollingLoop;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly stores: ByteStores,
  ) {
    this.loop = new PollingLoop(
      'files worker',
      config.files.workerIntervalMs,
      () => this.round(),
      this.logger,
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  nudge(): void {
    this.loop.nudge();
  }

  private async round(): Promise<boolean> {
    if (this.loop.isStopped) return false;
    const now = this.clock.now();
    const [, swept] = (await this.ds.query(SWEEP_FILES_SQL, [now])) as [unknown, number];
    await this.ds.query(SWEEP_KEYFRAMES_SQL);
    const lease = new Date(now.getTime() + LEASE_MS);
    const [claimed] = (await this.ds.query(CLAIM_SQL, [now, lease, BATCH])) as [Claimed[], number];
    await Promise.all(claimed.map((t) => this.attempt(t)));
    return claimed.length === BATCH || swept > 0;
  }

  private async attempt(t: Claimed): Promise<void> {
    try {
      if (t.kind === 'DELETE_BYTES') {
        const storage = await this.ds.manager.findOneBy(StorageEntity, { id: t.storage_id });
        if (storage) await this.stores.of(storage).remove(t.object_key, t.multipart_upload_id);
      } else {
        await this.keyframes(t);
      }
      await this.ds.query(`UPDATE file_tasks SET status = 'DONE', locked_until = NULL WHERE id = $1`, [t.id]);
    } catch (err) {
      const message = (err as Error).message;
      const final = err instanceof UnreadableMediaError || t.attempts >= this.config.files.maxAttempts;
      if (final) {
        await this.ds.query(
          `UPDATE file_tasks SET status = 'FAILED', locked_until = NULL, last_error = $2 WHERE id = $1`,
          [t.id, message],
        );
        if (t.job_id) await this.finishJob(t.job_id, 'FAILED', message);
        this.logger.warn(`${t.kind} task ${t.id} FAILED: ${message}`);
        return;
      }
      const next = new Date(this.clock.now().getTime() + backoffMs(t.attempts, this.config.files));
      await this.ds.query(
        `UPDATE file_tasks SET next_attempt_at = $2, locked_until = NULL, last_error = $3 WHERE id = $1`,
        [t.id, next, message],
      );
      this.logger.warn(`${t.kind} task ${t.id} failed (attempt ${t.attempts}), retrying: ${message}`);
    }
  }

  private async keyframes(t: Claimed): Promise<void> {
    const jobId = t.job_id as string;
    const [ctx] = (await this.ds.query(
      `SELECT f.asset_id, j.system_domain_id FROM files f JOIN jobs j ON j.id = $2 WHERE f.id = $1`,
      [t.file_id, jobId],
    )) as { asset_id: string; system_domain_id: string }[];
    if (!ctx) throw new UnreadableMediaError('the file is gone');
    await this.ds.query(
      `UPDATE jobs SET status = 'STARTED', date_modified = now() WHERE id = $1 AND status = 'READY'`,
      [jobId],
    );
    const source = await this.ds.manager.findOneByOrFail(StorageEntity, { id: t.storage_id });
    const [target] = (await this.ds.query(
      `SELECT * FROM storages WHERE purpose = 'KEYFRAMES' AND is_default AND status = 'ACTIVE'
          AND (system_domain_id IS NULL OR system_domain_id = $1)
        ORDER BY (system_domain_id IS NULL) LIMIT 1`,
      [ctx.system_domain_id],
    )) as StorageEntity[];
    if (!target) throw new Error('no KEYFRAMES storage');
    const images = await this.withLocalCopy(source, t.object_key, (path) =>
      extractKeyframes(path, this.config.files.keyframes),
    );
    const store = this.stores.of(target);
    const rows: { id: string; key: string; i: number; size: number }[] = [];
    for (const [i, image] of images.entries()) {
      const id = randomUUID();
      const key = objectKey.keyframe(t.file_id as string, id);
      await store.put(key, image, 'image/jpeg');
      rows.push({ id, key, i, size: image.length });
    }
    await this.record(jobId, t, ctx.asset_id, target, rows).catch(async (err: unknown) => {
      // not recorded: the images just stored would be nobody's
      for (const r of rows) await store.remove(r.key).catch(() => undefined);
      throw err;
    });
  }

  private async record(
    jobId: string,
    t: Claimed,
    assetId: string,
    target: StorageEntity,
    rows: { id: string; key: string; i: number; size: number }[],
  ): Promise<void> {
    await this.ds.transaction(async (em) => {
      // a retried task replaces what an earlier attempt stored
      const [old] = (await em.query(
        'DELETE FROM keyframes WHERE job_id = $1 RETURNING storage_id, object_key',
        [jobId],
      )) as [{ storage_id: string; object_key: string }[], number];
      for (const o of old)
        await em.query(
          `INSERT INTO file_tasks (kind, storage_id, object_key) VALUES ('DELETE_BYTES', $1, $2)`,
          [o.storage_id, o.object_key],
        );
      for (const r of rows)
        await em.query(
          `INSERT INTO keyframes (id, asset_id, file_id, job_id, storage_id, object_key, position, size)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [r.id, assetId, t.file_id, jobId, target.id, r.key, r.i, r.size],
        );
      await em.query(
        `UPDATE jobs SET status = 'FINISHED', progress_processed = 100, message = $2, date_modified = now()
          WHERE id = $1 AND status IN ('READY', 'STARTED')`,
        [jobId, `${rows.length} keyframe(s)`],
      );
    });
  }

  private async finishJob(jobId: string, status: string, message: string): Promise<void> {
    await this.ds.query(
      `UPDATE jobs SET status = $2, message = $3, date_modified = now() WHERE id = $1 AND status IN ('READY', 'STARTED')`,
      [jobId, status, message],
    );
  }

  /** ffmpeg reads a local path: a FILE storage's own, or a temporary copy streamed from S3. */
  private async withLocalCopy<T>(
    storage: StorageEntity,
    key: string,
    use: (path: string) => Promise<T>,
  ): Promise<T> {
    const store = this.stores.of(storage);
    if (store instanceof LocalByteStore) return use(store.path(key));
    const dir = await mkdtemp(join(tmpdir(), 'portcullis-src-'));
    try {
      const path = join(dir, 'input');
      await pipeline(await store.read(key), createWriteStream(path));
      return await use(path);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
