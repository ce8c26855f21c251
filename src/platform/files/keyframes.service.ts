import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { pageEnvelope } from '../../base/common/http/list-envelope.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { JobsService } from '../jobs/jobs.service.js';
import type { KeyframeDto, KeyframeListDto, KeyframesStartedDto } from './dto/file.dto.js';
import type { FileEntity, KeyframeEntity } from '../../base/model/file.entity.js';
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
    const files = await this.repo.fileLabels([...new Set(rows.map((k) => k.file_id))]);
    const storages = [...new Set(rows.map((k) => k.storage_id))];
    const methods = storages.length ? await this.repo.storageMethods(storages) : new Map<string, string>();
    return pageEnvelope(
      rows.map((k) => this.view(k, files.get(k.file_id), methods.get(k.storage_id) ?? 'FILE')),
      total,
      q.page,
      q.per_page,
      path,
      { ...q },
    ) as KeyframeListDto;
  }

  /** One of the asset's keyframes (another asset's is a 404). */
  async get(assetId: string, id: string): Promise<KeyframeDto> {
    const k = await this.repo.keyframe(assetId, id);
    if (!k) throw FilesErrors.KEYFRAME_NOT_FOUND();
    const files = await this.repo.fileLabels([k.file_id]);
    const methods = await this.repo.storageMethods([k.storage_id]);
    return this.view(k, files.get(k.file_id), methods.get(k.storage_id) ?? 'FILE');
  }

  /** KeyframeSchema's fields: an extracted image is a CLOSED KEYFRAME taken `position` seconds in. */
  private view(
    k: KeyframeEntity,
    file: Pick<FileEntity, 'version_id' | 'original_name'> | undefined,
    method: string,
  ): KeyframeDto {
    const filename = keyframeName(file?.original_name ?? 'keyframe', k.position);
    return {
      id: k.id,
      asset_id: k.asset_id,
      version_id: file?.version_id ?? null,
      file_id: k.file_id,
      job_id: k.job_id,
      type: 'KEYFRAME',
      filename,
      name: filename,
      format: 'jpg',
      position: k.position,
      size: Number(k.size),
      resolution: { width: k.width, height: k.height },
      time_code: { seconds: k.position, frames: 0 },
      status: 'CLOSED',
      storage_id: k.storage_id,
      storage_method: method,
      is_custom_keyframe: false,
      is_public: false,
      rotation: 0,
      url: this.links.keyframeUrl(k.id),
      date_created: wireDate(k.date_created),
      date_modified: wireDate(k.date_created),
    };
  }
}

/** "clip.mp4", 3 → "clip_0003.jpg": the file's name without its extension, the position, JPEG's. */
export function keyframeName(original: string, position: number): string {
  const dot = original.lastIndexOf('.');
  const stem = dot > 0 ? original.slice(0, dot) : original;
  return `${stem}_${String(position).padStart(4, '0')}.jpg`;
}
