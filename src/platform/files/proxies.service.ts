import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigOf } from '../../base/config/namespace.js';
import { FILES_CONFIG } from './files-config.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { pageEnvelope } from '../../base/common/http/list-envelope.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { invisibleProblem } from '../../base/common/validation/email-rules.js';
import type { JsonObject } from '../../base/model/file.entity.js';
import type { ProxyEntity } from '../../base/model/proxy.entity.js';
import { SERVED_METHODS, type StorageEntity } from '../../base/model/storage.entity.js';
import { objectKey } from './byte-store.js';
import type {
  CreateProxyDto,
  ProxyDownloadUrlDto,
  ProxyDto,
  ProxyFieldsDto,
  ProxyListDto,
  UpdateProxyDto,
} from './dto/proxy.dto.js';
import { FileLinks } from './file-links.js';
import { fileNameProblem } from './file-names.js';
import { FilesErrors } from './files.errors.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';
import { ProxiesErrors } from './proxies.errors.js';
import { ProxiesRepository, type ProxyWithFile } from './proxies.repository.js';
import { StoragesService } from './storages.service.js';

/** The descriptive columns a body sets as they are. */
const PLAIN = [
  'format',
  'codec',
  'audio_bitrate',
  'bit_rate',
  'frame_rate',
  'is_drop_frame',
  'is_public',
  'rotation',
  'start_time_code',
] as const;

/**
 * Proxies of an asset (the route's ACL step checked the asset). A proxy's bytes are a file of the asset, so
 * they take the files' road unchanged: created OPEN with the file's signed resumable `upload_url`, CLOSED
 * through the files' close (every declared byte, a sha256 checksum), downloaded through the files' signed
 * links, and deleted as a file is (soft, bytes removed by the files worker).
 */
@Injectable()
export class ProxiesService {
  constructor(
    private readonly repo: ProxiesRepository,
    private readonly files: FilesService,
    private readonly filesRepo: FilesRepository,
    private readonly storages: StoragesService,
    private readonly links: FileLinks,
    private readonly clock: Clock,
    @Inject(FILES_CONFIG.token) private readonly filesConfig: ConfigOf<typeof FILES_CONFIG>,
  ) {}

  async create(auth: AuthContext, assetId: string, body: CreateProxyDto): Promise<ProxyDto> {
    const maxBytes = this.filesConfig.maxFileBytes;
    const filename = body.filename ?? body.name ?? 'proxy';
    const name = body.name ?? filename;
    labelProblems({ ...body, name, filename });
    if (body.size != null && body.size > maxBytes)
      throw FilesErrors.INVALID({ size: `must not exceed ${maxBytes} bytes` });
    if (body.version_id && !(await this.repo.isVersionOf(assetId, body.version_id)))
      throw FilesErrors.INVALID({ version_id: 'is not a version of this asset' });
    const storage = body.storage_id
      ? await this.storages.visible(auth, body.storage_id)
      : await this.storages.matching(auth, 'PROXIES');
    writable(storage);
    const versionId = body.version_id ?? (await this.repo.currentVersion(assetId));
    const fileId = randomUUID();
    const id = randomUUID();
    await this.repo.insert(
      {
        id: fileId,
        asset_id: assetId,
        version_id: versionId,
        storage_id: storage.id,
        object_key: objectKey.file(fileId),
        original_name: filename,
        directory_path: '',
        type: 'FILE',
        size: body.size == null ? null : String(body.size),
        metadata: {},
        created_by_user: auth.userId,
      },
      { id, asset_id: assetId, file_id: fileId, version_id: versionId, ...fields(body), name, filename },
    );
    return this.get(assetId, id);
  }

  async list(
    assetId: string,
    versionId: string | null,
    q: PageQueryDto,
    path: string,
  ): Promise<ProxyListDto> {
    const [rows, total] = await this.repo.page(assetId, versionId, (q.page - 1) * q.per_page, q.per_page);
    const methods = await this.methods(rows);
    const objects = rows.map((p) => this.view(p, methods));
    return pageEnvelope(objects, total, q.page, q.per_page, path, { ...q }) as ProxyListDto;
  }

  async get(assetId: string, id: string): Promise<ProxyDto> {
    const p = await this.proxy(assetId, id);
    return this.view(p, await this.methods([p]));
  }

  /** PUT and PATCH alike: the fields given; status CLOSED closes the file (400 and nothing changed if short). */
  async update(assetId: string, id: string, body: UpdateProxyDto): Promise<ProxyDto> {
    const p = await this.proxy(assetId, id);
    labelProblems(body);
    if (body.status !== undefined && body.status !== p.file.status) {
      if (body.status !== 'CLOSED')
        throw FilesErrors.INVALID({
          status: `a proxy's status changes only to CLOSED (once its bytes arrived); it is ${p.file.status}`,
        });
      await this.files.closeProxyFile(assetId, p.file_id);
    }
    const changes: Partial<ProxyEntity> = fields(body);
    if (body.name !== undefined) changes.name = body.name;
    if (body.filename !== undefined) changes.filename = body.filename;
    await this.repo.update(p, changes);
    return this.get(assetId, id);
  }

  /** Deletes one proxy, those of one version, or all of the asset: each row, and its file as a file is deleted. */
  async remove(assetId: string, which: { id?: string; versionId?: string }): Promise<void> {
    await this.repo.transaction(async (em) => {
      const rows = await this.repo.lockForRemoval(em, assetId, which);
      if (which.id && rows.length === 0) throw ProxiesErrors.PROXY_NOT_FOUND();
      const now = this.clock.now();
      for (const p of rows) {
        const f = await this.filesRepo.proxyFile(em, assetId, p.file_id, true);
        if (!f) continue; // its file is gone already (the asset's deletion swept it)
        // a chunk being written would put its bytes back after their removal: it finishes first
        if (f.upload_lock_until && f.upload_lock_until > now) throw FilesErrors.BUSY();
        await this.filesRepo.markFileDeleted(em, f.id, now);
        await this.filesRepo.queueByteDeletion(em, [f]);
      }
      await this.repo.deleteRows(
        em,
        rows.map((p) => p.id),
      );
    });
  }

  async downloadUrl(assetId: string, id: string): Promise<ProxyDownloadUrlDto> {
    const p = await this.proxy(assetId, id);
    if (p.file.status !== 'CLOSED' || p.file.date_deleted) throw FilesErrors.NOT_CLOSED();
    const url = this.links.fileDownloadUrl(p.file_id);
    return { url, expires: wireDate(Number(new URL(url).searchParams.get('expires')) * 1000) };
  }

  private async proxy(assetId: string, id: string): Promise<ProxyWithFile> {
    const p = await this.repo.one(assetId, id);
    if (!p) throw ProxiesErrors.PROXY_NOT_FOUND();
    return p;
  }

  private async methods(rows: ProxyWithFile[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.map((p) => p.file.storage_id))];
    return ids.length === 0 ? new Map() : this.filesRepo.storageMethods(ids);
  }

  private view(p: ProxyWithFile, methods: Map<string, string>): ProxyDto {
    const f = p.file;
    const status = f.date_deleted ? 'DELETED' : f.status;
    return {
      id: p.id,
      asset_id: p.asset_id,
      version_id: p.version_id,
      file_id: p.file_id,
      name: p.name,
      filename: p.filename,
      format: p.format,
      codec: p.codec,
      audio_bitrate: p.audio_bitrate,
      bit_rate: p.bit_rate,
      frame_rate: p.frame_rate,
      is_drop_frame: p.is_drop_frame,
      is_public: p.is_public,
      resolution: p.resolution,
      rotation: p.rotation,
      start_time_code: p.start_time_code,
      status,
      size: f.size === null ? null : Number(f.size),
      received: Number(f.received),
      checksum: f.checksum,
      storage_id: f.storage_id,
      storage_method: methods.get(f.storage_id) ?? 'FILE',
      upload_method: 'RESUMABLE',
      upload_url: status === 'OPEN' ? this.links.uploadUrl(f.id) : null,
      url: status === 'CLOSED' ? this.links.fileDownloadUrl(f.id) : null,
      date_created: wireDate(p.date_created),
      date_modified: wireDate(p.date_modified),
    };
  }
}

/** The descriptive fields a body gives (undefined ones left out). */
function fields(body: ProxyFieldsDto): Partial<ProxyEntity> {
  const out: Record<string, unknown> = {};
  for (const k of PLAIN) if (body[k] !== undefined) out[k] = body[k];
  if (body.resolution !== undefined) out.resolution = body.resolution as JsonObject | null;
  return out as Partial<ProxyEntity>;
}

/** A filename is one name, as a file's; a shown name refuses invisible and text-direction characters. */
function labelProblems(body: { name?: string; filename?: string }): void {
  const errors: Record<string, string> = {};
  const nameProblem = body.name === undefined ? null : invisibleProblem(body.name);
  if (nameProblem) errors.name = nameProblem;
  const fileProblem = body.filename === undefined ? null : fileNameProblem(body.filename);
  if (fileProblem) errors.filename = fileProblem;
  if (Object.keys(errors).length > 0) throw FilesErrors.INVALID(errors);
}

function writable(s: StorageEntity): void {
  if (!(SERVED_METHODS as readonly string[]).includes(s.method))
    throw FilesErrors.STORAGE_NOT_WRITABLE(`its method ${s.method} is not one this service moves bytes with`);
  if (s.status !== 'ACTIVE') throw FilesErrors.STORAGE_NOT_WRITABLE(`it is ${s.status}`);
}
