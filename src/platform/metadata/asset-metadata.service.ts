import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AssetEntity } from '../../base/model/asset.entity.js';
import { AssetsErrors } from '../assets/assets.errors.js';
import { AssetsService } from '../assets/assets.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type { AssetMetadataDto } from './dto/values.dto.js';
import type { MetadataViewEntity, ViewField } from '../../base/model/metadata.entity.js';
import { MetadataErrors } from './metadata.errors.js';
import { ViewsService } from './views.service.js';
import { MetadataRepository } from './metadata.repository.js';

export const MAX_VALUES_PER_FIELD = 100;
export const MAX_VALUE_LENGTH = 10_000;

type Scalar = string | number | boolean;
/** What a PUT sets: field → its values (empty: cleared). */
type Changes = Map<string, { value: Scalar }[]>;

/**
 * An asset's metadata through a view: the values of the view's fields on the asset's current version. A PUT
 * sets the fields it names (validated against the view), rebuilds the asset's search document and records
 * the metadata event (event_type assets, realm metadata, operation update) in one transaction.
 */
@Injectable()
export class AssetMetadataService {
  constructor(
    private readonly repo: MetadataRepository,
    private readonly views: ViewsService,
    private readonly assets: AssetsService,
    private readonly events: WebhookEventsService,
    private readonly clock: Clock,
  ) {}

  async get(auth: AuthContext, assetId: string, viewId: string): Promise<AssetMetadataDto> {
    const view = await this.views.get(auth, viewId);
    const asset = await this.asset(this.repo.manager, auth, assetId, false);
    return this.view(this.repo.manager, asset, view);
  }

  async put(
    auth: AuthContext,
    assetId: string,
    viewId: string,
    body: Record<string, unknown>,
  ): Promise<AssetMetadataDto> {
    const view = await this.views.get(auth, viewId);
    const changes = this.validate(view.view_fields, body);
    return this.repo.transaction(async (em) => {
      const asset = await this.asset(em, auth, assetId, true);
      // naming no field changes nothing and tells nobody
      if (changes.size === 0) return this.view(em, asset, view);
      const versionId = asset.current_version_id!;
      const now = this.clock.now();
      for (const [field, values] of changes) {
        if (values.length === 0) {
          await this.repo.deleteValues(em, versionId, field);
          continue;
        }
        await this.repo.upsertValues(em, { versionId, field, assetId, values, at: now });
      }
      const missing = await this.missingRequired(em, view.view_fields, versionId);
      if (missing.length > 0) {
        throw MetadataErrors.INVALID(
          Object.fromEntries(missing.map((f) => [`metadata_values.${f}`, 'is required'])),
        );
      }
      await this.repo.touchAsset(em, assetId, now);
      await this.assets.refreshSearchDocument(em, assetId);
      const metadataValues = Object.fromEntries(
        [...changes].map(([field, values]) => [field, { field_values: values, date_created: wireDate(now) }]),
      );
      await this.events.record(em, {
        systemDomainId: auth.systemDomainId,
        objectId: assetId,
        realm: 'metadata',
        operation: 'update',
        eventType: 'assets',
        data: {
          version_id: versionId,
          metadata_values: metadataValues,
          object_type: 'assets',
          object_id: assetId,
        },
        requestId: auth.requestId,
      });
      return this.view(em, asset, view);
    });
  }

  /** The body against the view's fields: unknown and read-only fields, and malformed values, are a 400. */
  private validate(fields: ViewField[], body: Record<string, unknown>): Changes {
    const byName = new Map(fields.map((f) => [f.name, f]));
    const problems: Record<string, string> = {};
    const changes: Changes = new Map();
    for (const [name, entry] of Object.entries(body)) {
      const key = `metadata_values.${name.slice(0, 100)}`;
      const field = byName.get(name);
      if (!field) {
        problems[key] = 'is not a field of this view';
        continue;
      }
      if (field.read_only) {
        problems[key] = 'is read-only';
        continue;
      }
      const values = this.values(entry);
      if (typeof values === 'string') problems[key] = values;
      else changes.set(name, values);
    }
    if (Object.keys(problems).length > 0) throw MetadataErrors.INVALID(problems);
    return changes;
  }

  /** `{field_values: [{value}]}` → the values, or what is wrong with them. */
  private values(entry: unknown): { value: Scalar }[] | string {
    const shape = 'must be {field_values: [{value}]}';
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return shape;
    const list = (entry as { field_values?: unknown }).field_values;
    if (!Array.isArray(list)) return shape;
    if (list.length > MAX_VALUES_PER_FIELD) return `must have at most ${MAX_VALUES_PER_FIELD} values`;
    const out: { value: Scalar }[] = [];
    for (const item of list) {
      if (typeof item !== 'object' || item === null || Array.isArray(item) || !('value' in item))
        return shape;
      const value = (item as { value: unknown }).value;
      if (typeof value === 'number' && !Number.isFinite(value)) return 'values must be finite numbers';
      if (!['string', 'number', 'boolean'].includes(typeof value)) {
        return 'each value must be a string, a number or a boolean';
      }
      if (typeof value === 'string' && value.length > MAX_VALUE_LENGTH) {
        return `each value must be at most ${MAX_VALUE_LENGTH} characters`;
      }
      out.push({ value: value as Scalar });
    }
    return out;
  }

  private async missingRequired(
    em: EntityManager,
    fields: ViewField[],
    versionId: string,
  ): Promise<string[]> {
    const required = fields.filter((f) => f.required).map((f) => f.name);
    if (required.length === 0) return [];
    const present = await this.repo.values(em, versionId, required);
    const have = new Set(present.map((p) => p.field_name));
    return required.filter((f) => !have.has(f));
  }

  private async asset(em: EntityManager, auth: AuthContext, id: string, lock: boolean): Promise<AssetEntity> {
    const asset = await this.repo.asset(em, auth.systemDomainId, id, lock);
    if (!asset || asset.date_deleted || !asset.current_version_id) throw AssetsErrors.NOT_FOUND();
    return asset;
  }

  private async view(
    em: EntityManager,
    asset: AssetEntity,
    view: MetadataViewEntity,
  ): Promise<AssetMetadataDto> {
    const versionId = asset.current_version_id!;
    const names = view.view_fields.map((f) => f.name);
    const rows = names.length
      ? await this.repo.values(em, versionId, names)
      : [];
    const version = await this.repo.versionOrFail(em, versionId);
    const latest = rows.reduce((d, r) => (r.date_modified > d ? r.date_modified : d), version.date_created);
    return {
      object_id: asset.id,
      object_type: 'assets',
      view_id: view.id,
      version_id: versionId,
      metadata_values: Object.fromEntries(
        rows
          .sort((a, b) => names.indexOf(a.field_name) - names.indexOf(b.field_name))
          .map((r) => [
            r.field_name,
            { field_values: r.field_values as { value: Scalar }[], date_created: wireDate(r.date_created) },
          ]),
      ),
      date_created: wireDate(version.date_created),
      date_modified: wireDate(latest),
    };
  }
}
