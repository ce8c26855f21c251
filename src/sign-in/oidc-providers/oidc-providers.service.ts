import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import type { ConfigOf } from '../../base/config/namespace.js';
import { KeyEncryption } from '../../base/keys/key-encryption.js';
import { OidcProviderEntity } from '../../base/model/federation.entity.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { AuthenticatorAdmin } from '../federation/authenticator-admin.js';
import { FEDERATION_CONFIG } from '../federation/federation-config.js';
import { literalHostProblem } from '../federation/network-guard.js';
import type {
  CreateOidcProviderDto,
  OidcProviderDto,
  UpdateOidcProviderDto,
} from './dto/oidc-provider.dto.js';
import { OidcProvidersRepository } from './oidc-providers.repository.js';
import { OidcProviderErrors } from './oidc-providers.errors.js';

const SECRET_PURPOSE = 'oidc-provider-client-secret';
const SORTABLE = ['name', 'issuer', 'date_created', 'date_modified'] as const;
const DEFAULT_SCOPES = ['openid', 'email', 'profile'];
const CLAIM = /^[A-Za-z0-9_:./-]{1,200}$/;

export interface OidcProviderSettings {
  claims: { email: string; first_name: string; last_name: string; groups: string };
  jit_provisioning: boolean;
}

const DEFAULT_CLAIMS: OidcProviderSettings['claims'] = {
  email: 'email',
  first_name: 'given_name',
  last_name: 'family_name',
  groups: 'groups',
};

/**
 * A domain's external OpenID providers (docs/federated-login.md): domain administrators create, read, change
 * and delete them in their own domain. The client secret is sealed at rest and never shown; each change is on
 * the audit trail (which fans out to webhooks) without its values.
 */
@Injectable()
export class OidcProvidersService extends AuthenticatorAdmin<OidcProviderEntity, OidcProviderDto> {
  protected readonly kind = 'oidc_provider';
  protected readonly sortable = SORTABLE;
  private readonly sealer: KeyEncryption;

  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    @Inject(FEDERATION_CONFIG.token) private readonly federation: ConfigOf<typeof FEDERATION_CONFIG>,
    protected readonly repo: OidcProvidersRepository,
    protected readonly audit: AuditService,
  ) {
    super();
    this.sealer = KeyEncryption.fromConfig(config, SECRET_PURPOSE);
  }

  async create(auth: AuthContext, body: CreateOidcProviderDto): Promise<OidcProviderDto> {
    const row = new OidcProviderEntity();
    row.public_id = randomUUID();
    row.system_domain_id = auth.systemDomainId;
    row.enabled = body.enabled ?? true;
    row.settings = {};
    return this.saved(auth, this.apply(row, body), 'create');
  }

  /** PATCH: any subset; settings are merged over the stored ones and judged again. */
  async update(auth: AuthContext, id: string, body: UpdateOidcProviderDto): Promise<OidcProviderDto> {
    const row = await this.find(auth, id);
    if (body.enabled !== undefined) row.enabled = body.enabled;
    return this.saved(auth, this.apply(row, body), 'update');
  }

  /** The provider's redirect URI (what its administrator registers at the provider). */
  redirectUri(publicId: string): string {
    return `${this.config.http.publicBaseUrl.replace(/\/$/, '')}/API/auth/v1/auth/oauth/callback/${publicId}/`;
  }

  unsealSecret(sealed: string): string {
    return this.sealer.decrypt(sealed);
  }

  /** The stored settings with today's defaults. */
  settingsOf(row: Pick<OidcProviderEntity, 'settings'>): OidcProviderSettings {
    const r = this.judgeSettings(row.settings);
    if ('errors' in r) throw OidcProviderErrors.INVALID(r.errors);
    return r.settings;
  }

  /** The body's fields over the row, judged (400 with every problem). */
  private apply(row: OidcProviderEntity, b: Partial<CreateOidcProviderDto>): OidcProviderEntity {
    const errors: Record<string, string> = {};
    if (b.name !== undefined) row.name = b.name.trim();
    if (b.issuer !== undefined) {
      const problem = this.issuerProblem(b.issuer.trim());
      if (problem) errors.issuer = problem;
      row.issuer = b.issuer.trim().replace(/\/+$/, '');
    }
    if (b.client_id !== undefined) row.client_id = b.client_id.trim();
    if (b.client_secret !== undefined) {
      if (!b.client_secret) errors.client_secret = 'must not be empty';
      row.client_secret_sealed = this.sealer.encrypt(b.client_secret);
    }
    if (b.scopes !== undefined || !row.scopes) {
      const scopes = [...new Set(['openid', ...(b.scopes ?? DEFAULT_SCOPES)].map((s) => s.trim()))];
      if (scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(s)))
        errors.scopes = 'each scope must be a scope token (RFC 6749 §3.3)';
      row.scopes = scopes;
    }
    if (b.settings !== undefined) {
      const r = this.judgeSettings({ ...row.settings, ...b.settings });
      if ('errors' in r) Object.assign(errors, r.errors);
      else row.settings = { ...r.settings };
    } else if (!Object.keys(row.settings).length) row.settings = { ...this.settingsOf(row) };
    if (Object.keys(errors).length) throw OidcProviderErrors.INVALID(errors);
    return row;
  }

  private issuerProblem(issuer: string): string | null {
    let u: URL;
    try {
      u = new URL(issuer);
    } catch {
      return 'must be an absolute https URL';
    }
    const http = u.protocol === 'http:' && this.federation.allowHttpIssuers;
    if (u.protocol !== 'https:' && !http) return 'must be an https URL';
    if (u.username || u.password || u.search || u.hash)
      return 'must be the issuer only (no credentials, query or fragment)';
    return literalHostProblem(u.hostname, this.federation.allowPrivate);
  }

  private judgeSettings(
    raw: Record<string, unknown>,
  ): { settings: OidcProviderSettings } | { errors: Record<string, string> } {
    const errors: Record<string, string> = {};
    for (const k of Object.keys(raw))
      if (k !== 'claims' && k !== 'jit_provisioning') errors[`settings.${k}`] = 'is not a provider setting';
    const claims = { ...DEFAULT_CLAIMS };
    if (raw.claims !== undefined && raw.claims !== null) {
      if (typeof raw.claims !== 'object' || Array.isArray(raw.claims))
        errors['settings.claims'] = 'must be an object';
      else
        for (const [k, v] of Object.entries(raw.claims as Record<string, unknown>)) {
          if (!(k in claims)) errors[`settings.claims.${k}`] = 'is not a mapped claim';
          else if (typeof v !== 'string' || !CLAIM.test(v))
            errors[`settings.claims.${k}`] = 'must be a claim name';
          else claims[k as keyof typeof claims] = v;
        }
    }
    const jit = raw.jit_provisioning ?? false;
    if (typeof jit !== 'boolean') errors['settings.jit_provisioning'] = 'must be true or false';
    return Object.keys(errors).length ? { errors } : { settings: { claims, jit_provisioning: jit === true } };
  }

  protected notFound() {
    return OidcProviderErrors.NOT_FOUND();
  }

  protected view(r: OidcProviderEntity, domains: string[]): OidcProviderDto {
    return {
      id: r.id,
      public_id: r.public_id,
      system_domain_id: r.system_domain_id,
      name: r.name,
      issuer: r.issuer,
      client_id: r.client_id,
      client_secret_set: Boolean(r.client_secret_sealed),
      scopes: r.scopes,
      settings: this.settingsOf(r),
      enabled: r.enabled,
      redirect_uri: this.redirectUri(r.public_id),
      domains,
      date_created: wireDate(r.date_created),
      date_modified: wireDate(r.date_modified),
    };
  }
}
