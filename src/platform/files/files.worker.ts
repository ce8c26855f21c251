import type { ConfigOf } from '../../base/config/namespace.js';
import { FILES_CONFIG } from './files-config.js';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../base/common/clock.js';
import { backoffMs, PollingWorker } from '../../base/common/polling-loop.js';
import { objectKey } from './byte-store.js';
import { ByteStores } from './byte-stores.js';
import { extractKeyframes, UnreadableMediaError } from './ffmpeg.js';
import { type ClaimedTask as Claimed, FilesRepository, type KeyframeRow } from './files.repository.js';
import { jpegSize } from './jpeg-stream.js';
import { StorageEntity } from '../../base/model/storage.entity.js';

const BATCH = 4;
/** A claim outlives the slowest task (ffmpeg's two-minute limit, its input streamed as it reads) by far. */
const LEASE_MS = 10 * 60_000;

/**
 * The files worker of this instance (the mail and webhook workers' pattern: leaseClaimSql, PollingLoop):
 * sweeps deleted assets' files into DELETE_BYTES tasks, removes bytes, and runs KEYFRAMES jobs. A task that
 * fails for a passing reason (the storage away) is retried with backoff up to FILES_MAX_ATTEMPTS; a file
 * ffmpeg cannot read ends its job FAILED with ffmpeg's message at once.
 */
@Injectable()
export class FilesWorker extends PollingWorker {
  constructor(
    private readonly repo: FilesRepository,
    @Inject(FILES_CONFIG.token) private readonly filesConfig: ConfigOf<typeof FILES_CONFIG>,
    private readonly clock: Clock,
    private readonly stores: ByteStores,
  ) {
    super('files worker', filesConfig.workerIntervalMs, new Logger('Files'));
  }

  override onApplicationBootstrap(): void {
    const { ffmpeg } = this.filesConfig;
    if (ffmpeg.packaged) {
      this.logger.warn(
        `keyframes run the npm package's ffmpeg (a 2018 build), a development fallback that NODE_ENV=production refuses: install a maintained ffmpeg (Debian: apt-get install ffmpeg) or set FFMPEG_PATH`,
      );
    }
    if (ffmpeg.prlimit === null) {
      this.logger.warn(
        'prlimit (util-linux) not found: ffmpeg runs without its CPU, memory and file-size limits (NODE_ENV=production refuses to start so)',
      );
    }
    if (ffmpeg.sandbox === null && !ffmpeg.sandboxDeclined) {
      this.logger.warn(
        'bubblewrap (bwrap) not found: ffmpeg runs without its sandbox, with the service user’s file rights (Debian: apt-get install bubblewrap; docs/files-and-upload.md)',
      );
    }
    super.onApplicationBootstrap();
  }

  protected async round(): Promise<boolean> {
    if (this.loop.isStopped) return false;
    const now = this.clock.now();
    const swept = await this.repo.sweepDeletedAssets(now);
    const lease = new Date(now.getTime() + LEASE_MS);
    const claimed = await this.repo.claimTasks(now, lease, BATCH);
    await Promise.all(claimed.map((t) => this.attempt(t)));
    return claimed.length === BATCH || swept > 0;
  }

  private async attempt(t: Claimed): Promise<void> {
    try {
      if (t.kind === 'DELETE_BYTES') {
        const storage = await this.repo.manager.findOneBy(StorageEntity, { id: t.storage_id });
        if (storage) await this.stores.of(storage).remove(t.object_key, t.multipart_upload_id);
      } else {
        await this.keyframes(t);
      }
      await this.repo.taskDone(t.id);
    } catch (err) {
      const message = (err as Error).message;
      const final = err instanceof UnreadableMediaError || t.attempts >= this.filesConfig.maxAttempts;
      if (final) {
        await this.repo.taskFailed(t.id, message);
        if (t.job_id) await this.finishJob(t.job_id, 'FAILED', message);
        this.logger.warn(`${t.kind} task ${t.id} FAILED: ${message}`);
        return;
      }
      const next = new Date(this.clock.now().getTime() + backoffMs(t.attempts, this.filesConfig));
      await this.repo.taskRetry(t.id, next, message);
      this.logger.warn(`${t.kind} task ${t.id} failed (attempt ${t.attempts}), retrying: ${message}`);
    }
  }

  private async keyframes(t: Claimed): Promise<void> {
    const jobId = t.job_id as string;
    const ctx = await this.repo.taskContext(t.file_id as string, jobId);
    if (!ctx) throw new UnreadableMediaError('the file is gone');
    await this.repo.startJob(jobId);
    const source = await this.repo.manager.findOneByOrFail(StorageEntity, { id: t.storage_id });
    const target = await this.repo.keyframesStorage(ctx.system_domain_id);
    if (!target) throw new Error('no KEYFRAMES storage');
    // ffmpeg reads the stored bytes on its stdin, streamed from the storage (never a path: ffmpeg opens no file)
    const input = { stream: await this.stores.of(source).read(t.object_key), size: Number(ctx.size ?? 0) };
    const images = await extractKeyframes(this.filesConfig.ffmpeg, input, this.filesConfig.keyframes);
    const store = this.stores.of(target);
    const rows: KeyframeRow[] = [];
    for (const [i, image] of images.entries()) {
      const id = randomUUID();
      const key = objectKey.keyframe(t.file_id as string, id);
      await store.put(key, image, 'image/jpeg');
      rows.push({ id, key, i, size: image.length, ...(jpegSize(image) ?? { width: null, height: null }) });
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
    rows: KeyframeRow[],
  ): Promise<void> {
    await this.repo.recordKeyframes(jobId, {
      assetId,
      fileId: t.file_id as string,
      storageId: target.id,
      rows,
    });
  }

  private async finishJob(jobId: string, status: string, message: string): Promise<void> {
    await this.repo.finishJob(jobId, status, message);
  }
}
