import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { cursorPage } from '../../base/common/http/cursor-page.js';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import type { CursorQueryDto } from '../../base/common/http/pagination.dto.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { KeyEncryption } from '../../base/keys/key-encryption.js';
import type {
  ConvertedIdentityProviderDto,
  CreateIdentityProviderDto,
  IdentityProviderDto,
  UpdateIdentityProviderDto,
} from './dto/identity-provider.dto.js';
import {
  IDP_TYPES,
  IdentityProviderEntity,
  type IdpType,
} from '../../base/model/identity-provider.entity.js';
import { IdpErrors } from './identity-providers.errors.js';
import { IdentityProvidersRepository } from './identity-providers.repository.js';
import { validateSettings, type IdpSettings } from './idp-settings.js';
import { idpView } from './idp-view.js';
import { HostileXmlError, metadataToSettings } from './saml-xml.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { auditedChange } from '../federation/authenticator-change.js';

export const SP_KEY_PURPOSE = 'saml-sp-key-encryption';

/** Identity providers of the caller's domain (domain administrators); their email domains: DomainBindingsService. */
@Injectable()
export class IdentityProvidersService {
  private readonly sealer: KeyEncryption;

  constructor(
    private readonly repo: IdentityProvidersRepository,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly audit: AuditService,
  ) {
    this.sealer = KeyEncryption.fromConfig(config, SP_KEY_PURPOSE);
  }

  list(auth: AuthContext, q: CursorQueryDto, path: string): Promise<ListEnvelope<IdentityProviderDto>> {
    const base = () => this.repo.domainIdpsQuery(auth.systemDomainId);
    return cursorPage(base, 'i', q, path, (rows) => this.views(rows));
  }

  async get(auth: AuthContext, id: string): Promise<IdentityProviderDto> {
    return (await this.views([await this.find(auth, id)]))[0];
  }

  /** JSON body, or the IdP's metadata XML (a string, from the XML body reader). */
  async create(auth: AuthContext, body: unknown): Promise<IdentityProviderDto> {
    const input = typeof body === 'string' ? this.convert(body) : this.shape(body, null);
    const { type, settings, verbose_logging, enabled } = input as CreateIdentityProviderDto;
    const clean = this.settings(type, settings);
    const idp = this.repo.newIdp({
      public_id: randomUUID(),
      system_domain_id: auth.systemDomainId,
      type,
      settings: clean,
      verbose_logging: verbose_logging ?? false,
      enabled: enabled ?? true,
      sp_private_key_sealed: null,
      sp_certificate: null,
    });
    await this.ensureSpKey(idp);
    await this.saved(auth, idp, 'create');
    return this.get(auth, idp.id);
  }

  /** PUT and PATCH: any subset; settings are merged over the stored ones and judged again as a whole. */
  async update(auth: AuthContext, id: string, body: UpdateIdentityProviderDto): Promise<IdentityProviderDto> {
    const idp = await this.find(auth, id);
    const patch = this.shape(body, idp) as UpdateIdentityProviderDto;
    const type = patch.type ?? idp.type;
    const merged = patch.settings ? { ...idp.settings, ...patch.settings } : idp.settings;
    idp.settings = this.settings(type, merged);
    idp.type = type;
    if (patch.verbose_logging !== undefined) idp.verbose_logging = patch.verbose_logging;
    if (patch.enabled !== undefined) idp.enabled = patch.enabled;
    idp.sp_private_key_sealed = await this.repo.sealedKey(id);
    await this.ensureSpKey(idp);
    await this.saved(auth, idp, 'update');
    return this.get(auth, id);
  }

  async remove(auth: AuthContext, id: string): Promise<void> {
    const idp = await this.find(auth, id);
    await auditedChange(this.repo, this.audit, auth, 'identity_provider', 'delete', async (em) => {
      await this.repo.deleteIdp(em, idp.id);
      return idp;
    });
  }

  /** Saves the IdP and its audit record in one transaction (settings changed: no values in the record). */
  private async saved(
    auth: AuthContext,
    idp: IdentityProviderEntity,
    operation: 'create' | 'update',
  ): Promise<void> {
    await auditedChange(this.repo, this.audit, auth, 'identity_provider', operation, async (em) => {
      await this.repo.saveIdp(em, idp);
      return idp;
    });
  }

  /** An EntityDescriptor → the body to create a GENERIC IdP from. */
  convert(xml: string): ConvertedIdentityProviderDto {
    try {
      const settings = metadataToSettings(xml);
      return { type: 'GENERIC', settings };
    } catch (e) {
      if (e instanceof HostileXmlError) throw IdpErrors.INVALID_XML(e.message);
      throw e;
    }
  }

  private async find(auth: AuthContext, id: string): Promise<IdentityProviderEntity> {
    const idp = await this.repo.domainIdp(id, auth.systemDomainId);
    if (!idp) throw IdpErrors.NOT_FOUND();
    return idp;
  }

  private async views(rows: IdentityProviderEntity[]): Promise<IdentityProviderDto[]> {
    const bound = rows.length ? await this.repo.bindingsOf(rows.map((r) => r.id)) : [];
    return rows.map((r) =>
      idpView(
        this.config,
        r,
        bound.filter((b) => b.identity_provider_id === r.id),
      ),
    );
  }

  /** The body's own fields (JSON only; the DTO validated the create body's types when it came as JSON). */
  private shape(body: unknown, current: IdentityProviderEntity | null): Partial<CreateIdentityProviderDto> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw IdpErrors.INVALID({ body: 'must be a JSON object or an EntityDescriptor (application/xml)' });
    }
    const b = body as Record<string, unknown>;
    const errors: Record<string, string> = {};
    if (current === null && b.type === undefined) errors.type = 'is required';
    if (b.type !== undefined && !IDP_TYPES.includes(b.type as IdpType)) {
      errors.type = `must be one of ${IDP_TYPES.join(', ')}`;
    }
    if (current === null && b.settings === undefined) errors.settings = 'is required';
    for (const f of ['verbose_logging', 'enabled'])
      if (b[f] !== undefined && typeof b[f] !== 'boolean') errors[f] = 'must be true or false';
    if (Object.keys(errors).length) throw IdpErrors.INVALID(errors);
    return {
      type: b.type as IdpType | undefined,
      settings: b.settings as Record<string, unknown> | undefined,
      verbose_logging: b.verbose_logging as boolean | undefined,
      enabled: b.enabled as boolean | undefined,
    };
  }

  private settings(type: IdpType, raw: unknown): IdpSettings {
    const r = validateSettings(type, raw);
    if ('errors' in r) throw IdpErrors.INVALID(r.errors);
    return r.settings;
  }

  /** An SP key pair (RSA 2048, self-signed certificate) once AuthnRequests are signed or NameIDs encrypted. */
  private async ensureSpKey(idp: IdentityProviderEntity): Promise<void> {
    const needs = idp.settings.authn_requests_signed === true || idp.settings.name_id_encrypted === true;
    if (!needs || idp.sp_private_key_sealed) return;
    const host = new URL(this.config.http.publicBaseUrl).hostname;
    // loaded on first use: node-forge behind it is a few MB that most deployments never need
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: host }], {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000),
    });
    idp.sp_private_key_sealed = this.sealer.encrypt(pems.private);
    idp.sp_certificate = pems.cert.trim();
  }

  /** The SP private key of an IdP, unsealed (for signing AuthnRequests and decrypting assertions only). */
  unseal(sealed: string): string {
    return this.sealer.decrypt(sealed);
  }
}
