import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { InvalidationBus } from '../../base/common/cache/invalidation-bus.js';
import { APPS_TOPIC } from '../../base/common/cache/topics.js';
import { Clock } from '../../base/common/clock.js';
import { type PageList, pageList } from '../../base/common/http/page-list.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type {
  CreateSystemDomainDto,
  ReindexRequestDto,
  ReindexSystemDomainDto,
  SystemDomainBasicDto,
  SystemDomainDto,
  SystemDomainFeaturesDto,
  SystemDomainListDto,
  SystemDomainListQueryDto,
  SystemDomainProfileDto,
  UpdateSystemDomainDto,
} from './dto/system-domain.dto.js';
import type { SystemDomainLogoEntity } from '../../base/model/logo.entity.js';
import { LOGO_FIELDS, logoUrl, sha256Hex, sniffImage } from './logo.js';
import { systemDomainBasicView, systemDomainView } from './system-domain-view.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { SystemDomainsErrors } from './system-domains.errors.js';
import { SystemDomainsRepository } from './system-domains.repository.js';
import { SystemDomainsService } from './system-domains.service.js';
import { type DomainFeatures, replacedFeatures } from './domain-features.js';
import { AuditService } from '../../delivery/audit/audit.service.js';

const SORTABLE = [
  'name',
  'base_url',
  'status',
  'type',
  'billing_tier',
  'date_created',
  'date_modified',
] as const;
const FACETS = ['status', 'type', 'billing_tier'] as const;
/** What webhooks hear about domains (realm `system_domain`). */
export const SYSTEM_DOMAIN_EVENT_TYPE = 'system_domains';
const REALM = 'system_domain';

function featuresOf(d: SystemDomainEntity): DomainFeatures {
  return {
    features: d.features ?? [],
    parameters: (d.feature_parameters ?? {}) as Record<string, Record<string, unknown>>,
  };
}

export interface LogoFile {
  fieldname: string;
  buffer: Buffer;
  size: number;
}

/**
 * The administration of system domains (tenants): super administrators manage every domain, a domain's
 * administrators read theirs and edit its profile and logo (the route policies and the `system_domain`
 * access checker say who reaches what). Every change records a webhook event in its transaction.
 */
@Injectable()
export class SystemDomainAdminService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly domains: SystemDomainsService,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly bus: InvalidationBus,
    private readonly repo: SystemDomainsRepository,
  ) {}

  async list(q: SystemDomainListQueryDto, path: string): Promise<SystemDomainListDto> {
    // facets are asked for, so the envelope always carries them
    return (await pageList({
      qb: this.repo.search(q),
      alias: 'd',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: 'date_created', order: 'ASC' }],
      path,
      query: {
        query: q.query,
        statuses: q.statuses?.join(','),
        types: q.types?.join(','),
        is_template: q.is_template,
      },
      view: (rows) => this.views(rows),
      facets: FACETS,
    })) as unknown as SystemDomainListDto;
  }

  async templates(q: SystemDomainListQueryDto, path: string): Promise<PageList<SystemDomainDto>> {
    return pageList({
      qb: this.repo.templates(),
      alias: 'd',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: 'name', order: 'ASC' }],
      path,
      view: (rows) => this.views(rows),
    });
  }

  async get(id: string): Promise<SystemDomainDto> {
    return this.view(this.repo.manager, await this.find(this.repo.manager, id));
  }

  /** Basic for members, BasicAdmin for the domain's administrators and super administrators. */
  async basic(auth: AuthContext, id: string): Promise<SystemDomainBasicDto> {
    const d = await this.find(this.repo.manager, id);
    return systemDomainBasicView(d, auth.isSuperAdmin || (auth.isAdmin && auth.systemDomainId === id));
  }

  async create(auth: AuthContext, body: CreateSystemDomainDto): Promise<SystemDomainDto> {
    return this.repo.transaction(async (em) => {
      const d = await this.domains.create(em, {
        ...this.fields(body),
        name: body.name,
        base_url: body.base_url,
        creating_user_id: auth.userId,
      });
      const view = await this.view(em, d);
      await this.emit(em, auth, d.id, 'create', view);
      return view;
    });
  }

  /** PUT (name and base_url required) and PATCH: the fields sent change, the others stay. */
  async update(auth: AuthContext, id: string, body: UpdateSystemDomainDto): Promise<SystemDomainDto> {
    return this.change(auth, id, 'update', (d) => {
      Object.assign(d, this.fields(body));
    });
  }

  async profile(id: string): Promise<SystemDomainProfileDto> {
    return { industry: (await this.find(this.repo.manager, id)).industry };
  }

  async updateProfile(
    auth: AuthContext,
    id: string,
    body: SystemDomainProfileDto,
  ): Promise<SystemDomainProfileDto> {
    const view = await this.change(auth, id, 'update', (d) => {
      if (body.industry !== undefined) d.industry = body.industry as SystemDomainEntity['industry'];
    });
    return { industry: view.industry };
  }

  async features(id: string): Promise<SystemDomainFeaturesDto> {
    return featuresOf(await this.find(this.repo.manager, id));
  }

  /** PUT (the list; replacedFeatures) or POST (one feature and its parameters; withFeature). */
  async replaceFeatures(
    auth: AuthContext,
    id: string,
    body: SystemDomainFeaturesDto | ((current: DomainFeatures) => DomainFeatures),
  ): Promise<SystemDomainFeaturesDto> {
    let after: DomainFeatures = { features: [], parameters: {} };
    await this.change(auth, id, 'update', (d) => {
      const current = featuresOf(d);
      after = typeof body === 'function' ? body(current) : replacedFeatures(current, body.features);
      d.features = after.features;
      d.feature_parameters = after.parameters;
    });
    return after;
  }

  /**
   * This service keeps no search index: the request becomes a webhook event (operation `reindex`) that the
   * platform's indexer, a webhook subscriber, acts on. The answer's id is the request's, carried by the event.
   */
  async reindex(auth: AuthContext, id: string, body: ReindexSystemDomainDto): Promise<ReindexRequestDto> {
    const request: ReindexRequestDto = {
      id: randomUUID(),
      system_domain_id: id,
      sync_to_another_dc: body.sync_to_another_dc ?? false,
      date_created: wireDate(this.clock.now()),
    };
    await this.repo.transaction(async (em) => {
      await this.find(em, id);
      await this.emit(em, auth, id, 'reindex', {
        reindex_id: request.id,
        system_domain_id: id,
        sync_to_another_dc: request.sync_to_another_dc,
      });
    });
    return request;
  }

  /** Stores the image (its type found from its bytes, never the client's word); answers its logo_url. */
  async uploadLogo(auth: AuthContext, id: string, files: LogoFile[] | undefined): Promise<{ logo: string }> {
    const candidates = (files ?? []).filter((f) => (LOGO_FIELDS as readonly string[]).includes(f.fieldname));
    if (candidates.length !== 1 || (files ?? []).length !== 1) throw SystemDomainsErrors.LOGO_MISSING();
    const file = candidates[0];
    if (file.size === 0) throw SystemDomainsErrors.LOGO_MISSING();
    const contentType = sniffImage(file.buffer);
    if (!contentType) throw SystemDomainsErrors.LOGO_TYPE();
    const sha256 = sha256Hex(file.buffer);
    await this.change(auth, id, 'update', async (d, em) => {
      await this.repo.saveLogo(em, {
        system_domain_id: d.id,
        content_type: contentType,
        bytes: file.buffer,
        sha256,
        date_modified: this.clock.now(),
      });
      d.date_modified = this.clock.now();
    });
    return { logo: logoUrl(this.config.http.publicBaseUrl, id, sha256)! };
  }

  async deleteLogo(auth: AuthContext, id: string): Promise<void> {
    await this.change(auth, id, 'update', async (d, em) => {
      if (!(await this.repo.deleteLogo(em, d.id))) throw SystemDomainsErrors.NO_LOGO();
      d.date_modified = this.clock.now();
    });
  }

  /** The stored image, for the public logo route. */
  async logo(id: string): Promise<SystemDomainLogoEntity> {
    const logo = await this.repo.logo(id);
    if (!logo) {
      if (!(await this.repo.exists(id))) throw SystemDomainsErrors.NOT_FOUND();
      throw SystemDomainsErrors.NO_LOGO();
    }
    return logo;
  }

  /**
   * Deletes a domain in one transaction: every token of the domain goes (its credentials answer 401 on the
   * next request), then its apps, groups, memberships, invitations, webhooks and events, and every other row
   * naming it. Users whose only domain it was are deleted; the others keep their accounts, and those whose
   * home domain it was move to their earliest remaining membership. The caller's own domain is refused.
   */
  async remove(auth: AuthContext, id: string, o: { e2eOnly?: boolean } = {}): Promise<void> {
    if (id === auth.systemDomainId) throw SystemDomainsErrors.OWN_DOMAIN();
    await this.repo.transaction(async (em) => {
      const d = await this.find(em, id, true);
      // DELETE …/e2e/: only a domain created as an end-to-end test domain (checked under the row's lock)
      if (o.e2eOnly && !d.is_e2e) throw SystemDomainsErrors.NOT_E2E();
      // a super administrator is not deleted as a side effect (the service could lose its last one)
      if (await this.repo.strandsSuperAdmin(em, id)) throw SystemDomainsErrors.LAST_DOMAIN_OF_SUPER_ADMIN();
      // members elsewhere too: their home moves to the earliest other membership
      await this.repo.rehomeMembers(em, id);
      // members of this domain only (and any account whose home it was without another membership)
      await this.repo.deleteOnlyMembers(em, id);
      // every other row naming the domain goes with it: each such table's foreign key is ON DELETE CASCADE
      // (migration DomainCascade1795700500000; test/e2e/domain-cascade.e2e-spec.ts holds new tables to it)
      await this.repo.deleteDomain(em, id);
      await this.emit(em, auth, null, 'delete', { id, name: d.name, ...(o.e2eOnly ? { e2e: true } : {}) });
    });
    // the domain's apps are gone: every instance drops them from its client registry
    await this.bus.publish(APPS_TOPIC, null);
  }

  /** Loads the domain (locked), applies `apply`, saves, records the event; answers the full form. */
  private change(
    auth: AuthContext,
    id: string,
    operation: string,
    apply: (d: SystemDomainEntity, em: EntityManager) => void | Promise<void>,
  ): Promise<SystemDomainDto> {
    return this.repo.transaction(async (em) => {
      const d = await this.find(em, id, true);
      await apply(d, em);
      const saved = await this.repo.saveDomain(em, d);
      const view = await this.view(em, saved);
      await this.emit(em, auth, id, operation, view as unknown as Record<string, unknown>);
      return view;
    });
  }

  private async find(em: EntityManager, id: string, lock = false): Promise<SystemDomainEntity> {
    const d = await this.repo.domain(em, id, lock);
    if (!d) throw SystemDomainsErrors.NOT_FOUND();
    return d;
  }

  /** The body's fields as column values (dates parsed; absent fields left out). */
  private fields(body: UpdateSystemDomainDto): Partial<SystemDomainEntity> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      if (v === undefined) continue;
      if (k === 'contract_end_date' || k === 'freeze_date' || k === 'deactivate_date') {
        out[k] = v === null ? null : new Date(v as string);
      } else if (k === 'billing_limits') {
        out[k] = v === null ? null : { ...(v as object) };
      } else out[k] = v;
    }
    return out as Partial<SystemDomainEntity>;
  }

  private async view(em: EntityManager, d: SystemDomainEntity): Promise<SystemDomainDto> {
    const hashes = await this.repo.logoHashes(em, [d.id]);
    return systemDomainView(d, logoUrl(this.config.http.publicBaseUrl, d.id, hashes.get(d.id)));
  }

  private async views(rows: SystemDomainEntity[]): Promise<SystemDomainDto[]> {
    const hashes = await this.repo.logoHashes(
      this.repo.manager,
      rows.map((d) => d.id),
    );
    return rows.map((d) =>
      systemDomainView(d, logoUrl(this.config.http.publicBaseUrl, d.id, hashes.get(d.id))),
    );
  }

  /** The audit record and the event (to the caller's domain and the changed one's), in the transaction. */
  private async emit(
    em: EntityManager,
    auth: AuthContext,
    domainId: string | null,
    operation: string,
    data: object,
  ): Promise<void> {
    const id = domainId ?? (data as { id?: string }).id ?? null;
    const e2e = (data as { e2e?: boolean }).e2e === true ? { e2e: true } : {};
    await this.audit.change(em, auth, 'domain.changed', { type: 'system_domain', id }, { operation, ...e2e });
    const targets = new Set([auth.systemDomainId, ...(domainId ? [domainId] : [])]);
    for (const systemDomainId of targets) {
      await this.events.record(em, {
        systemDomainId,
        objectId: id,
        realm: REALM,
        operation,
        eventType: SYSTEM_DOMAIN_EVENT_TYPE,
        data: data as Record<string, unknown>,
        requestId: auth.requestId,
      });
    }
  }
}
