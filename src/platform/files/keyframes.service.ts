import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { pageEnvelope } from '../../base/common/http/list-envelope.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { JobsService } from '../jobs/jobs.service.js';
import type { KeyframeListDto, KeyframesStartedDto } from './dto/file.dto.js';
import { FileLinks } from './file-links.js';
import { FilesErrors } from './files.errors.js';
import { FilesService } from './files.service.js';
import { FilesWorker } from './files.worker.js';
import { FilesRepository } from './files.repository.js';

/**
 * Keyframes: a request starts a KEYFRAMES job and queues its task in one transaction; the files worker of
 * some instance extracts the images with ffmpeg and stores them in the KEYFRAMES storage (files.worker.ts).
 */
@Injectable()
export class KeyframesService {
  constructor(
    private readonly repo: FilesRepository,
    private readonly files: FilesService,
    private readonly jobs: JobsService,
    private readonly links: FileLinks,
    private readonly worker: FilesWorker,
  ) {}

  /** The job's id; null (204) when there is nothing to extract from: a directory, a link, an empty file. */
  async start(auth: AuthContext, assetId: string, fileId: string): Promise<KeyframesStartedDto | null> {
    const jobId = await this.repo.transaction(async (em) => {
      const f = await this.files.file(em, assetId, fileId, true);
      if (f.status !== 'CLOSED') throw FilesErrors.NOT_CLOSED();
      if (f.type !== 'FILE' || Number(f.size) === 0) return null;
      const job = await this.jobs.insert(em, auth, {
        type: 'KEYFRAMES',
        status: 'READY',
        title: `Keyframes of ${f.original_name}`,
        object_type: 'files',
        object_id: f.id,
        progress_processed: '0',
        progress_total: '100',
      });
      await this.repo.queueKeyframesTask(em, {
        file_id: f.id,
        job_id: job.id,
        storage_id: f.storage_id,
        object_key: f.object_key,
      });
      return job.id;
    });
    if (jobId === null) return null;
    this.worker.nudge();
    return { job_id: jobId };
  }

  async list(assetId: string, q: PageQueryDto, path: string): Promise<KeyframeListDto> {
    const [rows, total] = await this.repo.keyframes(assetId, (q.page - 1) * q.per_page, q.per_page);
    return pageEnvelope(
      rows.map((k) => ({
        id: k.id,
        asset_id: k.asset_id,
        file_id: k.file_id,
        job_id: k.job_id,
        position: k.position,
        size: Number(k.size),
        url: this.links.keyframeUrl(k.id),
        date_created: wireDate(k.date_created),
      })),
      total,
      q.page,
      q.per_page,
      path,
      { ...q },
    ) as KeyframeListDto;
  }
}
