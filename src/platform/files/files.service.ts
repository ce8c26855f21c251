import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { pageEnvelope } from '../../base/common/http/list-envelope.js';
import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import { objectKey } from './byte-store.js';
import { ByteStores } from './byte-stores.js';
import type {
  ComposeUrlAnswerDto,
  ComposeUrlDto,
  CreateFileDto,
  DownloadUrlDto,
  FileDto,
  FileListDto,
  FilePageQueryDto,
  UpdateFileDto,
} from './dto/file.dto.js';
import { directoryProblem, fileNameProblem, fromRoot } from './file-names.js';
import type { FileEntity, JsonObject } from '../../base/model/file.entity.js';
import { FileLinks } from './file-links.js';
import { checksumOf } from './checksum.js';
import { FilesErrors } from './files.errors.js';
import { FormatsService } from './formats.service.js';
import { SERVED_METHODS, type StorageEntity } from '../../base/model/storage.entity.js';
import { StoragesService } from './storages.service.js';
import { FilesRepository } from './files.repository.js';
import { UploadDigests } from './upload-digests.js';

/**
 * Files of an asset (the route's ACL step checked the asset): created OPEN with a signed resumable
 * `upload_url`, CLOSED once every declared byte arrived (a checksum is recorded then), deleted with their
 * bytes removed in the background (a DELETE_BYTES task of the files worker).
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly storages: StoragesService,
    private readonly formats: FormatsService,
    private readonly stores: ByteStores,
    private readonly links: FileLinks,
    private readonly clock: Clock,
    private readonly repo: FilesRepository,
    private readonly digests: UploadDigests,
  ) {}

  async create(auth: AuthContext, assetId: string, body: CreateFileDto, maxBytes: number): Promise<FileDto> {
    const nameProblem = fileNameProblem(body.original_name);
    if (nameProblem) throw FilesErrors.INVALID({ original_name: nameProblem });
    const directory = fromRoot(body.directory_path);
    const dirProblem = directoryProblem(directory);
    if (dirProblem) throw FilesErrors.INVALID({ directory_path: dirProblem });
    if (body.size != null && body.size > maxBytes)
      throw FilesErrors.INVALID({ size: `must not exceed ${maxBytes} bytes` });
    const em = this.repo.manager;
    if (body.format_id) await this.formats.format(em, assetId, body.format_id);
    const set = body.file_set_id ? await this.formats.fileSet(em, assetId, body.file_set_id) : null;
    const storageId = body.storage_id ?? set?.storage_id ?? null;
    const storage = storageId
      ? await this.storages.visible(auth, storageId)
      : await this.storages.matching(auth, 'FILES');
    writable(storage);
    const id = randomUUID();
    await this.repo.insertFile({
      id,
      asset_id: assetId,
      version_id: await this.formats.currentVersion(em, assetId),
      format_id: body.format_id ?? set?.format_id ?? null,
      file_set_id: set?.id ?? null,
      storage_id: storage.id,
      object_key: objectKey.file(id),
      original_name: body.original_name,
      directory_path: directory,
      type: body.type,
      size: body.size == null ? null : String(body.size),
      metadata: (body.metadata ?? {}) as JsonObject,
      created_by_user: auth.userId,
      file_date_created: body.file_date_created ? new Date(body.file_date_created) : null,
      file_date_modified: body.file_date_modified ? new Date(body.file_date_modified) : null,
    });
    return this.get(assetId, id);
  }

  /** A page of live files of an asset (of one file set or version when given). */
  async list(of: FileFilter, q: FilePageQueryDto, path: string): Promise<FileListDto> {
    const [rows, total] = await this.repo.liveFiles(of, (q.page - 1) * q.per_page, q.per_page);
    const methods = await this.methods(rows);
    return pageEnvelope(
      rows.map((f) => this.view(f, methods.get(f.storage_id) ?? 'FILE', q.generate_signed_url)),
      total,
      q.page,
      q.per_page,
      path,
      { ...q },
    ) as FileListDto;
  }

  /** The files of a file set named by its id alone (the route's ACL step checked its asset). */
  async listOfFileSet(
    auth: AuthContext,
    setId: string,
    q: FilePageQueryDto,
    path: string,
  ): Promise<FileListDto> {
    const [set] = await this.repo.fileSetsInDomain([setId], auth.systemDomainId);
    if (!set) throw FilesErrors.FILE_SET_NOT_FOUND();
    return this.list({ asset_id: set.asset_id, file_set_id: set.id }, q, path);
  }

  /** The files of one of the asset's file sets (a set of another asset is a 404). */
  async listOfAssetFileSet(
    assetId: string,
    setId: string,
    q: FilePageQueryDto,
    path: string,
  ): Promise<FileListDto> {
    await this.formats.fileSet(this.repo.manager, assetId, setId);
    return this.list({ asset_id: assetId, file_set_id: setId }, q, path);
  }

  async get(assetId: string, id: string, signed = false): Promise<FileDto> {
    const f = await this.file(this.repo.manager, assetId, id);
    return this.view(f, (await this.methods([f])).get(f.storage_id) ?? 'FILE', signed);
  }

  update(assetId: string, id: string, body: UpdateFileDto): Promise<FileDto> {
    return this.change(assetId, id, body, false);
  }

  /** Closes the file holding a proxy's bytes (ProxiesService: a proxy's file is not one of `files/`). */
  async closeProxyFile(assetId: string, fileId: string): Promise<void> {
    await this.change(assetId, fileId, { status: 'CLOSED' }, true);
  }

  private async change(assetId: string, id: string, body: UpdateFileDto, proxy: boolean): Promise<FileDto> {
    const f = await this.file(this.repo.manager, assetId, id, false, proxy);
    const changes: Partial<FileEntity> = {};
    if (body.metadata !== undefined) changes.metadata = body.metadata as JsonObject;
    if (body.progress_processed !== undefined) changes.progress_processed = body.progress_processed;
    if (body.status === 'CLOSED' && f.status !== 'CLOSED') {
      if (f.status !== 'OPEN') throw FilesErrors.NOT_OPEN(f.status);
      await this.close(f, changes);
    } else if (body.status === 'OPEN' && f.status !== 'OPEN') {
      throw FilesErrors.INVALID({ status: `a ${f.status} file cannot be opened again` });
    }
    if (Object.keys(changes).length > 0) {
      // CLOSED only from OPEN with no chunk being written: a racing chunk or PATCH finds it changed
      const done = await this.repo.updateFileIfUnchanged(id, f, this.clock.now(), changes);
      if (!done) throw FilesErrors.BUSY();
      if (changes.status === 'CLOSED') this.digests.forget(id);
    }
    const after = await this.file(this.repo.manager, assetId, id, false, proxy);
    return this.view(after, (await this.methods([after])).get(after.storage_id) ?? 'FILE');
  }

  /** Soft: the row stays DELETED (404 to reads); its bytes are removed by the files worker. */
  async remove(assetId: string, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      const f = await this.file(em, assetId, id, true);
      // a chunk being written would put its bytes back after their removal: it finishes first
      if (f.upload_lock_until && f.upload_lock_until > this.clock.now()) throw FilesErrors.BUSY();
      await this.repo.markFileDeleted(em, id, this.clock.now());
      await this.repo.queueByteDeletion(em, [f]);
    });
  }

  async composeUrl(assetId: string, id: string, body: ComposeUrlDto): Promise<ComposeUrlAnswerDto> {
    const f = await this.file(this.repo.manager, assetId, id);
    if (f.status !== 'OPEN') throw FilesErrors.NOT_OPEN(f.status);
    if (body.content_type) await this.repo.setContentType(id, body.content_type);
    const url = this.links.uploadUrl(id);
    return { compose_url: url, delete_url: null, key: f.object_key, url };
  }

  async downloadUrl(assetId: string, id: string): Promise<DownloadUrlDto> {
    const f = await this.file(this.repo.manager, assetId, id);
    if (f.status !== 'CLOSED') throw FilesErrors.NOT_CLOSED();
    const url = this.links.fileDownloadUrl(id);
    const expires = Number(new URL(url).searchParams.get('expires')) * 1000;
    return { url, expires: wireDate(expires) };
  }

  /** The asset's live file (a proxy's file only with `proxy`: it is not one of `files/`), else 404. */
  async file(
    em: EntityManager,
    assetId: string,
    id: string,
    lock = false,
    proxy = false,
  ): Promise<FileEntity> {
    const f = proxy
      ? await this.repo.proxyFile(em, assetId, id, lock)
      : await this.repo.liveFile(em, assetId, id, lock);
    if (!f) throw FilesErrors.FILE_NOT_FOUND();
    return f;
  }

  /**
   * OPEN → CLOSED: every declared byte received (else 400, the file stays OPEN) and a checksum recorded: the
   * one this instance computed while the chunks arrived (UploadDigests), else read back from the storage.
   */
  private async close(f: FileEntity, changes: Partial<FileEntity>): Promise<void> {
    const received = Number(f.received);
    const size = f.size === null ? received : Number(f.size);
    if (received !== size || f.multipart_upload_id !== null) throw FilesErrors.SIZE_MISMATCH(received, size);
    changes.checksum =
      size === 0
        ? checksumOf.empty()
        : (this.digests.checksum(f.id, size) ??
          (await this.stores.of(await this.repo.storageOf(f.storage_id)).sha256(f.object_key)));
    changes.status = 'CLOSED';
    changes.size = String(size);
  }

  private async methods(files: FileEntity[]): Promise<Map<string, string>> {
    const ids = [...new Set(files.map((f) => f.storage_id))];
    if (ids.length === 0) return new Map();
    return this.repo.storageMethods(ids);
  }

  private view(f: FileEntity, method: string, signed = false): FileDto {
    return {
      id: f.id,
      asset_id: f.asset_id,
      version_id: f.version_id,
      format_id: f.format_id,
      file_set_id: f.file_set_id,
      storage_id: f.storage_id,
      original_name: f.original_name,
      directory_path: f.directory_path,
      type: f.type,
      status: f.status,
      size: f.size === null ? null : Number(f.size),
      received: Number(f.received),
      progress_processed: f.progress_processed,
      checksum: f.checksum,
      content_type: f.content_type,
      metadata: f.metadata,
      storage_method: method,
      upload_url: f.status === 'OPEN' ? this.links.uploadUrl(f.id) : null,
      url: signed && f.status === 'CLOSED' ? this.links.fileDownloadUrl(f.id) : null,
      upload_method: 'RESUMABLE',
      upload_filename: f.original_name,
      file_date_created: wireDateOrNull(f.file_date_created),
      file_date_modified: wireDateOrNull(f.file_date_modified),
      date_created: wireDate(f.date_created),
      date_modified: wireDate(f.date_modified),
    };
  }
}

/** Which live files a list holds: an asset's, and of it one file set's or one version's. */
export type FileFilter = { asset_id: string; file_set_id?: string; version_id?: string };

function writable(s: StorageEntity): void {
  if (!(SERVED_METHODS as readonly string[]).includes(s.method))
    throw FilesErrors.STORAGE_NOT_WRITABLE(`its method ${s.method} is not one this service moves bytes with`);
  if (s.status !== 'ACTIVE') throw FilesErrors.STORAGE_NOT_WRITABLE(`it is ${s.status}`);
}
