import { Inject, Injectable } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import type { ConfigOf } from '../../base/config/namespace.js';
import { KeyEncryption } from '../../base/keys/key-encryption.js';
import { DirectoryEntity, type DirectoryType } from '../../base/model/federation.entity.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { AuthenticatorAdmin } from '../federation/authenticator-admin.js';
import { FEDERATION_CONFIG } from '../federation/federation-config.js';
import { DirectoriesRepository } from './directories.repository.js';
import { DirectoryErrors } from './directories.errors.js';
import { type DirectorySettings, validateDirectorySettings } from './directory-settings.js';
import type {
  CreateDirectoryDto,
  DirectoryDto,
  DirectoryTestResultDto,
  UpdateDirectoryDto,
} from './dto/directory.dto.js';
import {
  type DirectoryConnection,
  bindService,
  DirectoryUnavailable,
  findPeople,
  withDirectory,
} from './ldap-directory.js';

/** The sealing purpose of directories' service account passwords (a key of its own, KeyEncryption). */
const PASSWORD_PURPOSE = 'directory-bind-password';
const SORTABLE = ['name', 'type', 'date_created', 'date_modified'] as const;

/**
 * A domain's company directories (docs/federated-login.md): domain administrators create, read, change,
 * delete and test them in their own domain. The service account's password is sealed at rest and never shown;
 * each change is on the audit trail (which fans out to webhooks) without its values.
 */
@Injectable()
export class DirectoriesService extends AuthenticatorAdmin<DirectoryEntity, DirectoryDto> {
  protected readonly kind = 'directory';
  protected readonly sortable = SORTABLE;
  private readonly sealer: KeyEncryption;

  constructor(
    @Inject(APP_CONFIG) config: BaseConfig,
    @Inject(FEDERATION_CONFIG.token) private readonly federation: ConfigOf<typeof FEDERATION_CONFIG>,
    protected readonly repo: DirectoriesRepository,
    protected readonly audit: AuditService,
  ) {
    super();
    this.sealer = KeyEncryption.fromConfig(config, PASSWORD_PURPOSE);
  }

  async create(auth: AuthContext, body: CreateDirectoryDto): Promise<DirectoryDto> {
    const row = new DirectoryEntity();
    row.system_domain_id = auth.systemDomainId;
    row.name = body.name.trim();
    row.type = body.type;
    row.enabled = body.enabled ?? true;
    row.settings = { ...this.settings(body.type, body.settings) };
    row.bind_password_sealed = this.sealedFrom(body.settings, null);
    return this.saved(auth, row, 'create');
  }

  /** PATCH: any subset; settings are merged over the stored ones and judged again as a whole. */
  async update(auth: AuthContext, id: string, body: UpdateDirectoryDto): Promise<DirectoryDto> {
    const row = await this.find(auth, id);
    const type = body.type ?? row.type;
    if (body.name !== undefined) row.name = body.name.trim();
    if (body.enabled !== undefined) row.enabled = body.enabled;
    row.type = type;
    row.settings = { ...this.settings(type, { ...row.settings, ...(body.settings ?? {}) }) };
    row.bind_password_sealed = this.sealedFrom(body.settings ?? {}, await this.repo.sealedPassword(id));
    return this.saved(auth, row, 'update');
  }

  /**
   * One connection, the service account's bind and (with an email) one search, reported step by step: what an
   * administrator needs to get the settings right. Nobody's password is tried.
   */
  async test(auth: AuthContext, id: string, email: string | undefined): Promise<DirectoryTestResultDto> {
    const row = await this.find(auth, id);
    const started = Date.now();
    let stage: DirectoryTestResultDto['stage'] = 'connect';
    const report = (
      ok: boolean,
      message: string | null,
      found: Awaited<ReturnType<typeof findPeople>> = [],
    ) => {
      const people = found === 'ambiguous' ? [] : found;
      const p = people[0];
      return {
        ok,
        stage,
        message,
        entries: found === 'ambiguous' ? 2 : people.length,
        entry: p
          ? {
              dn: p.dn,
              email: p.email,
              first_name: p.firstName,
              last_name: p.lastName,
              groups: p.groups,
              disabled: p.disabled,
            }
          : null,
        elapsed_ms: Date.now() - started,
      };
    };
    try {
      const connection = this.connectionOf(row);
      return await withDirectory(connection, async (client) => {
        stage = 'bind';
        await bindService(client, connection);
        if (!email) {
          stage = 'done';
          return report(true, null);
        }
        stage = 'search';
        const found = await findPeople(client, connection.settings, email);
        stage = 'done';
        if (found === 'ambiguous') return report(false, 'The filter finds more than one entry', found);
        return report(found.length === 1, found.length ? null : 'The filter finds no entry', found);
      });
    } catch (e) {
      if (e instanceof DirectoryUnavailable) return report(false, e.message);
      throw e;
    }
  }

  /**
   * How to reach a directory: its settings and its service account's password, unsealed (`row` as the
   * repository reads it, with its sealed password).
   */
  connectionOf(row: DirectoryEntity): DirectoryConnection {
    return {
      settings: this.settingsOf(row),
      bindPassword: row.bind_password_sealed ? this.sealer.decrypt(row.bind_password_sealed) : null,
      allowPrivate: this.federation.allowPrivate,
    };
  }

  /** The stored settings, read again with today's defaults and rules (they were valid when saved). */
  settingsOf(row: DirectoryEntity): DirectorySettings {
    const r = validateDirectorySettings(row.type, row.settings, true);
    if ('errors' in r) throw DirectoryErrors.INVALID(r.errors);
    return r.settings;
  }

  private settings(type: DirectoryType, raw: unknown): DirectorySettings {
    const r = validateDirectorySettings(type, raw, this.federation.allowPrivate);
    if ('errors' in r) throw DirectoryErrors.INVALID(r.errors);
    return r.settings;
  }

  /** The sealed password after a change: a new one sealed, null removed, absent kept. */
  private sealedFrom(settings: Record<string, unknown>, current: string | null): string | null {
    const p = settings.bind_password;
    if (p === undefined) return current;
    if (p === null || p === '') return null;
    if (typeof p !== 'string' || p.length > 1024)
      throw DirectoryErrors.INVALID({ 'settings.bind_password': 'must be text of at most 1024 characters' });
    return this.sealer.encrypt(p);
  }

  protected notFound() {
    return DirectoryErrors.NOT_FOUND();
  }

  protected view(r: DirectoryEntity, domains: string[]): DirectoryDto {
    return {
      id: r.id,
      system_domain_id: r.system_domain_id,
      name: r.name,
      type: r.type,
      enabled: r.enabled,
      settings: { ...this.settingsOf(r), bind_password_set: Boolean(r.bind_password_sealed) },
      domains,
      date_created: wireDate(r.date_created),
      date_modified: wireDate(r.date_modified),
    };
  }
}
