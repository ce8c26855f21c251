import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import type { MetadataFieldEntity, MetadataViewEntity } from '../../base/model/metadata.entity.js';
import type { AssetMetadataDto } from './dto/values.dto.js';
import { MetadataErrors } from './metadata.errors.js';
import { MetadataRepository } from './metadata.repository.js';
import { planChanges } from './metadata-values.js';
import { type MetadataObject, ObjectMetadataService } from './object-metadata.service.js';
import { ViewsService } from './views.service.js';

export { MAX_VALUE_LENGTH, MAX_VALUES_PER_FIELD } from './metadata-values.js';

/**
 * An asset's metadata through a view: the values of the view's fields (their registered definitions) on the
 * asset's current version. A PUT sets the fields it names, checked against their definitions as without a
 * view (ObjectMetadataService.write: one transaction with the search document and the metadata event), and
 * then requires every required field of the view to have a value.
 */
@Injectable()
export class AssetMetadataService {
  constructor(
    private readonly repo: MetadataRepository,
    private readonly views: ViewsService,
    private readonly objects: ObjectMetadataService,
  ) {}

  async get(auth: AuthContext, assetId: string, viewId: string): Promise<AssetMetadataDto> {
    const em = this.repo.manager;
    const view = await this.views.get(auth, viewId);
    const fields = await this.views.fieldsOf(em, auth, view);
    const asset = await this.objects.loadAsset(em, auth, assetId, false);
    return this.view(em, asset, view, fields);
  }

  async put(
    auth: AuthContext,
    assetId: string,
    viewId: string,
    body: Record<string, unknown>,
  ): Promise<AssetMetadataDto> {
    const view = await this.views.get(auth, viewId);
    const fields = await this.views.fieldsOf(this.repo.manager, auth, view);
    const defs = new Map(fields.map((f) => [f.name, f]));
    const changes = planChanges(defs, body, { mode: 'overwrite', unknown: 'is not a field of this view' });
    return this.repo.transaction(async (em) => {
      const asset = await this.objects.loadAsset(em, auth, assetId, true);
      await this.objects.write(em, auth, {
        type: 'assets',
        object: asset,
        defs,
        changes,
        check: async (tx) => {
          const missing = await this.missingRequired(tx, fields, asset.versionId!);
          if (missing.length > 0) {
            throw MetadataErrors.INVALID(
              Object.fromEntries(missing.map((f) => [`metadata_values.${f}`, 'is required'])),
            );
          }
        },
      });
      return this.view(em, asset, view, fields);
    });
  }

  private async missingRequired(
    em: EntityManager,
    fields: MetadataFieldEntity[],
    versionId: string,
  ): Promise<string[]> {
    const required = fields.filter((f) => f.required).map((f) => f.name);
    if (required.length === 0) return [];
    const present = await this.repo.values(em, versionId, required);
    const have = new Set(present.map((p) => p.field_name));
    return required.filter((f) => !have.has(f));
  }

  private async view(
    em: EntityManager,
    asset: MetadataObject,
    view: MetadataViewEntity,
    fields: MetadataFieldEntity[],
  ): Promise<AssetMetadataDto> {
    const versionId = asset.versionId!;
    const names = fields.map((f) => f.name);
    const rows = names.length ? await this.repo.values(em, versionId, names) : [];
    const latest = rows.reduce((d, r) => (r.date_modified > d ? r.date_modified : d), asset.dateCreated);
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
            { field_values: r.field_values, date_created: wireDate(r.date_created) },
          ]),
      ),
      date_created: wireDate(asset.dateCreated),
      date_modified: wireDate(latest),
    };
  }
}
