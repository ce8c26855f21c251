import type { ConfigOf } from '../../base/config/namespace.js';
import { FILES_CONFIG } from './files-config.js';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { pageList } from '../../base/common/http/page-list.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import type {
  CreateStorageDto,
  StorageDto,
  StorageListDto,
  StorageListQueryDto,
  UpdateStorageDto,
} from './dto/storage.dto.js';
import { FilesErrors } from './files.errors.js';
import { refusedBucket } from './bucket-rule.js';
import type { JsonObject } from '../../base/model/file.entity.js';
import { StorageEntity } from '../../base/model/storage.entity.js';
import { StoragesRepository } from './storages.repository.js';

const BUILTIN_PURPOSES = ['FILES', 'PROXIES', 'KEYFRAMES'] as const;
const SORTABLE = ['name', 'method', 'purpose', 'status', 'date_created'] as const;
const FACETS = ['method', 'purpose', 'status'] as const;

/** What a client may put in settings, per method: nothing that picks a path, an endpoint or a secret. */
function cleanSettings(method: string, settings: Record<string, unknown> | undefined): JsonObject {
  if (!settings) return {};
  if (method === 'FILE') {
    if (Object.keys(settings).length > 0)
      throw FilesErrors.INVALID({
        settings: 'a FILE storage takes no settings: the service picks its directory',
      });
    return {};
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(settings)) {
    if (k !== 'bucket' && k !== 'prefix')
      throw FilesErrors.INVALID({
        settings: `unknown setting "${k}" (an S3 storage takes bucket and prefix)`,
      });
    if (typeof v !== 'string' || v.length > 200 || !/^[A-Za-z0-9._\-/]*$/.test(v) || v.includes('..'))
      throw FilesErrors.INVALID({ settings: `${k} must be a plain name (letters, digits, . _ - /)` });
    out[k] = v;
  }
  return out;
}

/**
 * Storages: the built-in ones (FILES, PROXIES, KEYFRAMES, created at first start with the method of
 * FILES_STORAGE) serve every domain; a domain's administrators add and edit their own. A caller sees the
 * built-in storages and their domain's.
 */
@Injectable()
export class StoragesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Storages');

  constructor(
    private readonly repo: StoragesRepository,
    @Inject(FILES_CONFIG.token) private readonly filesConfig: ConfigOf<typeof FILES_CONFIG>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const method = this.filesConfig.method;
    const settings =
      method === 'S3' ? { bucket: this.filesConfig.s3.bucket, prefix: this.filesConfig.s3.prefix } : {};
    for (const purpose of BUILTIN_PURPOSES) {
      // one per purpose whatever the number of instances starting at once (the partial unique index)
      const name = `${purpose.charAt(0)}${purpose.slice(1).toLowerCase()}`;
      const created = await this.repo.ensureBuiltinStorage(name, method, purpose, settings);
      if (created) this.logger.log(`created the built-in ${purpose} storage (${method})`);
    }
  }

  async list(auth: AuthContext, q: StorageListQueryDto, path: string): Promise<StorageListDto> {
    const qb = this.repo.visibleQuery(auth.systemDomainId, q.purpose);
    const defaults = await this.defaultIds(auth);
    return (await pageList({
      qb,
      alias: 's',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: 'date_created', order: 'ASC' }],
      path,
      query: { purpose: q.purpose },
      facets: FACETS,
      view: (rows) => rows.map((s) => view(s, defaults)),
    })) as unknown as StorageListDto;
  }

  async get(auth: AuthContext, id: string): Promise<StorageDto> {
    return view(await this.visible(auth, id), await this.defaultIds(auth));
  }

  /** The storage files of `purpose` go to: the domain's default, else the built-in one. */
  async matching(
    auth: AuthContext,
    purpose: string,
    em: EntityManager = this.repo.manager,
  ): Promise<StorageEntity> {
    const row = await this.repo.defaultOf(em, purpose, auth.systemDomainId);
    if (!row) throw FilesErrors.NO_MATCHING_STORAGE(purpose);
    return row;
  }

  async matchingView(auth: AuthContext, purpose: string): Promise<StorageDto> {
    return view(await this.matching(auth, purpose), await this.defaultIds(auth));
  }

  /** A storage the caller's domain may use (built-in or its own); 404 otherwise. */
  async visible(
    auth: AuthContext,
    id: string,
    em: EntityManager = this.repo.manager,
  ): Promise<StorageEntity> {
    const s = await this.repo.byId(em, id);
    if (!s || (s.system_domain_id !== null && s.system_domain_id !== auth.systemDomainId))
      throw FilesErrors.STORAGE_NOT_FOUND();
    return s;
  }

  async create(auth: AuthContext, body: CreateStorageDto): Promise<StorageDto> {
    const settings = this.allowedSettings(auth, body.method, body.settings);
    const id = await this.repo.transaction(async (em) => {
      if (body.default) await this.repo.clearDefault(em, auth.systemDomainId, body.purpose);
      return this.repo.insert(em, {
        system_domain_id: auth.systemDomainId,
        name: body.name,
        method: body.method,
        purpose: body.purpose,
        status: body.status ?? 'ACTIVE',
        status_message: body.status_message ?? null,
        settings,
        is_default: body.default ?? false,
      });
    });
    return this.get(auth, id);
  }

  async update(auth: AuthContext, id: string, body: UpdateStorageDto): Promise<StorageDto> {
    await this.repo.transaction(async (em) => {
      const s = await this.visible(auth, id, em);
      if (s.system_domain_id === null && !auth.isSuperAdmin) throw FilesErrors.BUILTIN_STORAGE();
      if (s.system_domain_id === null && body.default === false)
        throw FilesErrors.INVALID({ default: 'a built-in storage stays the default of its purpose' });
      const changes: Partial<StorageEntity> = {};
      if (body.name !== undefined) changes.name = body.name;
      if (body.status !== undefined) changes.status = body.status;
      if (body.status_message !== undefined) changes.status_message = body.status_message;
      if (body.settings !== undefined) changes.settings = this.allowedSettings(auth, s.method, body.settings);
      if (body.default !== undefined && s.system_domain_id !== null) {
        if (body.default) await this.repo.clearDefault(em, auth.systemDomainId, s.purpose);
        changes.is_default = body.default;
      }
      if (Object.keys(changes).length > 0) await this.repo.update(em, id, changes);
    });
    return this.get(auth, id);
  }

  /** The settings, cleaned, once the bucket they name is one the caller may name (403 otherwise). */
  private allowedSettings(
    auth: AuthContext,
    method: string,
    settings: Record<string, unknown> | undefined,
  ): JsonObject {
    const clean = cleanSettings(method, settings);
    const refused = refusedBucket(clean, this.filesConfig.allowedBuckets, auth.isSuperAdmin);
    if (refused !== null) throw FilesErrors.BUCKET_NOT_ALLOWED(refused);
    return clean;
  }

  /** The storage each purpose resolves to for this caller (what `default` says). */
  private async defaultIds(auth: AuthContext): Promise<Set<string>> {
    return new Set(await this.repo.defaultStorageIds(auth.systemDomainId));
  }
}

function view(s: StorageEntity, defaults: Set<string>): StorageDto {
  return {
    id: s.id,
    name: s.name,
    method: s.method,
    purpose: s.purpose,
    status: s.status,
    scanner_status: s.scanner_status,
    status_message: s.status_message,
    settings: s.settings,
    default: defaults.has(s.id),
    builtin: s.system_domain_id === null,
    date_created: wireDate(s.date_created),
    date_modified: wireDate(s.date_modified),
  };
}
