import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { pageEnvelope } from '../../base/common/http/list-envelope.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import type {
  CreateFileSetDto,
  CreateFormatDto,
  FileSetDto,
  FileSetListDto,
  FormatDto,
  FormatListDto,
  UpdateFileSetDto,
  UpdateFormatDto,
} from './dto/file.dto.js';
import type { FileSetEntity, FormatEntity, JsonObject } from '../../base/model/file.entity.js';
import { FilesErrors } from './files.errors.js';
import { fileSetLabelProblems } from './file-names.js';
import { StoragesService } from './storages.service.js';
import { FormatsRepository } from './formats.repository.js';

/**
 * Formats and file sets of an asset. The route's ACL step has checked the asset (read, write or delete, per
 * route); here every row is looked up under that asset, so an id of another asset's row is a 404.
 */
@Injectable()
export class FormatsService {
  constructor(
    private readonly repo: FormatsRepository,
    private readonly storages: StoragesService,
  ) {}

  async createFormat(auth: AuthContext, assetId: string, body: CreateFormatDto): Promise<FormatDto> {
    const version = await this.currentVersion(this.repo.manager, assetId);
    const id = await this.repo.insertFormat({
      asset_id: assetId,
      version_id: version,
      name: body.name,
      user_id: body.user_id ?? auth.userId,
      metadata: (body.metadata ?? []) as JsonObject[],
      storage_methods: body.storage_methods ?? [],
    });
    return this.getFormat(assetId, id);
  }

  async listFormats(assetId: string, q: PageQueryDto, path: string): Promise<FormatListDto> {
    const [rows, total] = await this.repo.formats(assetId, (q.page - 1) * q.per_page, q.per_page);
    return pageEnvelope(rows.map(formatView), total, q.page, q.per_page, path, { ...q }) as FormatListDto;
  }

  async getFormat(assetId: string, id: string): Promise<FormatDto> {
    return formatView(await this.format(this.repo.manager, assetId, id));
  }

  async updateFormat(assetId: string, id: string, body: UpdateFormatDto): Promise<FormatDto> {
    await this.format(this.repo.manager, assetId, id);
    const changes: Partial<FormatEntity> = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.metadata !== undefined) changes.metadata = body.metadata as JsonObject[];
    if (body.storage_methods !== undefined) changes.storage_methods = body.storage_methods;
    if (Object.keys(changes).length > 0) await this.repo.updateFormat(id, changes);
    return this.getFormat(assetId, id);
  }

  /** Only a format no live file uses: its files go first. */
  async deleteFormat(assetId: string, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      await this.format(em, assetId, id);
      const used = await this.repo.liveFilesOfFormat(em, id);
      if (used > 0) throw FilesErrors.INVALID({ format_id: 'the format still has files; delete them first' });
      await this.repo.deleteFormat(em, id);
    });
  }

  async format(em: EntityManager, assetId: string, id: string): Promise<FormatEntity> {
    const f = await this.repo.format(em, assetId, id);
    if (!f) throw FilesErrors.FORMAT_NOT_FOUND();
    return f;
  }

  async createFileSet(auth: AuthContext, assetId: string, body: CreateFileSetDto): Promise<FileSetDto> {
    checkLabels(body);
    if (body.format_id) await this.format(this.repo.manager, assetId, body.format_id);
    if (body.storage_id) await this.storages.visible(auth, body.storage_id);
    const id = await this.repo.insertFileSet({
      asset_id: assetId,
      version_id: await this.currentVersion(this.repo.manager, assetId),
      format_id: body.format_id ?? null,
      storage_id: body.storage_id ?? null,
      base_dir: body.base_dir ?? '',
      name: body.name,
      component_ids: body.component_ids ?? [],
    });
    return this.getFileSet(assetId, id);
  }

  async listFileSets(assetId: string, q: PageQueryDto, path: string): Promise<FileSetListDto> {
    const [rows, total] = await this.repo.fileSets(assetId, (q.page - 1) * q.per_page, q.per_page);
    const counts = await this.fileCounts(rows.map((r) => r.id));
    return pageEnvelope(
      rows.map((r) => fileSetView(r, counts.get(r.id) ?? 0)),
      total,
      q.page,
      q.per_page,
      path,
      { ...q },
    ) as FileSetListDto;
  }

  async getFileSet(assetId: string, id: string): Promise<FileSetDto> {
    const row = await this.fileSet(this.repo.manager, assetId, id);
    return fileSetView(row, (await this.fileCounts([id])).get(id) ?? 0);
  }

  async updateFileSet(assetId: string, id: string, body: UpdateFileSetDto): Promise<FileSetDto> {
    checkLabels(body);
    await this.fileSet(this.repo.manager, assetId, id);
    const changes: Partial<FileSetEntity> = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.base_dir !== undefined) changes.base_dir = body.base_dir;
    if (body.component_ids !== undefined) changes.component_ids = body.component_ids;
    if (Object.keys(changes).length > 0) await this.repo.updateFileSet(id, changes);
    return this.getFileSet(assetId, id);
  }

  async deleteFileSet(assetId: string, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      await this.fileSet(em, assetId, id);
      if ((await this.fileCounts([id], em)).get(id))
        throw FilesErrors.INVALID({ file_set_id: 'the file set still has files; delete them first' });
      await this.repo.deleteFileSet(em, id);
    });
  }

  async fileSet(em: EntityManager, assetId: string, id: string): Promise<FileSetEntity> {
    const s = await this.repo.fileSet(em, assetId, id);
    if (!s) throw FilesErrors.FILE_SET_NOT_FOUND();
    return s;
  }

  async currentVersion(em: EntityManager, assetId: string): Promise<string | null> {
    return this.repo.currentVersion(em, assetId);
  }

  private async fileCounts(
    ids: string[],
    em: EntityManager = this.repo.manager,
  ): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    return this.repo.fileCounts(em, ids);
  }
}

function formatView(f: FormatEntity): FormatDto {
  return {
    id: f.id,
    asset_id: f.asset_id,
    version_id: f.version_id,
    name: f.name,
    user_id: f.user_id,
    metadata: f.metadata,
    storage_methods: f.storage_methods,
    components: [],
    status: f.status,
    date_created: wireDate(f.date_created),
    date_modified: wireDate(f.date_modified),
  };
}

function fileSetView(s: FileSetEntity, count: number): FileSetDto {
  return {
    id: s.id,
    asset_id: s.asset_id,
    format_id: s.format_id,
    storage_id: s.storage_id,
    version_id: s.version_id,
    name: s.name,
    base_dir: s.base_dir,
    component_ids: s.component_ids,
    file_count: count,
    status: s.status,
    date_created: wireDate(s.date_created),
    date_modified: wireDate(s.date_modified),
  };
}

function checkLabels(body: { name?: string; base_dir?: string }): void {
  const errors = fileSetLabelProblems(body);
  if (Object.keys(errors).length > 0) throw FilesErrors.INVALID(errors);
}
