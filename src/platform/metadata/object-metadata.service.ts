import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import type { MetadataFieldEntity } from '../../base/model/metadata.entity.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { AssetsErrors } from '../assets/assets.errors.js';
import { AssetsService } from '../assets/assets.service.js';
import { CollectionsErrors } from '../assets/collections.errors.js';
import { CollectionsService } from '../assets/collections.service.js';
import type { MetadataValuesDto } from './dto/values.dto.js';
import { FIELD_NAME, FieldsService } from './fields.service.js';
import { MetadataErrors } from './metadata.errors.js';
import { MetadataRepository } from './metadata.repository.js';
import { afterChange, type Change, MAX_FIELDS_PER_PUT, type Mode, planChanges } from './metadata-values.js';

export const OBJECT_TYPES = ['assets', 'collections'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

/** An object whose values are read or written: its id, the asset version they hang off, its creation. */
export interface MetadataObject {
  id: string;
  versionId: string | null;
  dateCreated: Date;
}

interface ValueRow {
  field_name: string;
  field_values: { value: unknown }[];
  date_created: Date;
  date_modified: Date;
}

/** Where one object type keeps its values. */
interface Target {
  /** The object of the caller's domain (404 when missing or deleted), its row held when `lock`. */
  load(em: EntityManager, auth: AuthContext, id: string, lock: boolean): Promise<MetadataObject>;
  values(em: EntityManager, o: MetadataObject): Promise<ValueRow[]>;
  upsert(em: EntityManager, o: MetadataObject, field: string, values: unknown[], at: Date): Promise<void>;
  clear(em: EntityManager, o: MetadataObject, field: string): Promise<void>;
  /** After a change: the object marked modified and its search document rebuilt. */
  changed(em: EntityManager, o: MetadataObject, at: Date): Promise<void>;
}

/** What a write needs: the object, the definitions of the fields it may name, the planned changes. */
export interface Write {
  type: ObjectType;
  object: MetadataObject;
  defs: ReadonlyMap<string, MetadataFieldEntity>;
  changes: Map<string, Change>;
  /** Run after the values are written, before anything else: a 400 it throws rolls them back. */
  check?: (em: EntityManager) => Promise<void>;
}

/**
 * An object's metadata without a view (`/API/metadata/v1/{object_type}/{object_id}/`): the values of the
 * domain's registered fields. A PUT names fields (unknown, read-only, mistyped: 400 naming each) with
 * `overwrite` (default) or `append`, then in one transaction writes them, marks the object modified,
 * rebuilds its search document and records the metadata event (realm metadata, operation update, event_type
 * the object type). Asset values belong to the asset's current version, as through a view. A collection's
 * readability is CollectionsService's (404 when the caller may not read it); its values have no version.
 */
@Injectable()
export class ObjectMetadataService {
  private readonly targets: Record<ObjectType, Target>;

  constructor(
    private readonly repo: MetadataRepository,
    private readonly fields: FieldsService,
    private readonly assets: AssetsService,
    private readonly events: WebhookEventsService,
    private readonly clock: Clock,
    private readonly collections: CollectionsService,
  ) {
    this.targets = { assets: this.assetTarget(), collections: this.collectionTarget() };
  }

  async get(auth: AuthContext, type: ObjectType, id: string): Promise<MetadataValuesDto> {
    const em = this.repo.manager;
    const object = await this.targets[type].load(em, auth, id, false);
    return this.answer(em, auth, type, object);
  }

  async put(
    auth: AuthContext,
    type: ObjectType,
    id: string,
    body: { metadata_values: Record<string, unknown>; mode?: Mode },
  ): Promise<MetadataValuesDto> {
    const names = Object.keys(body.metadata_values);
    if (names.length > MAX_FIELDS_PER_PUT)
      throw MetadataErrors.INVALID({ metadata_values: `must name at most ${MAX_FIELDS_PER_PUT} fields` });
    return this.repo.transaction(async (em) => {
      // the fields held against removal until the values are written
      const defs = await this.fields.definitions(
        em,
        auth.systemDomainId,
        names.filter((n) => FIELD_NAME.test(n)),
        true,
      );
      const changes = planChanges(defs, body.metadata_values, {
        mode: body.mode ?? 'overwrite',
        unknown: 'is not a registered field',
      });
      const object = await this.targets[type].load(em, auth, id, true);
      await this.write(em, auth, { type, object, defs, changes });
      return this.answer(em, auth, type, object);
    });
  }

  /** The asset of the caller's domain with its current version (404 when missing or deleted). */
  loadAsset(em: EntityManager, auth: AuthContext, id: string, lock: boolean): Promise<MetadataObject> {
    return this.targets.assets.load(em, auth, id, lock);
  }

  /**
   * Writes planned changes in the caller's transaction: the final values checked (single-valued fields,
   * the limit after an append, a required field emptied: a 400 naming each), written, then `check`, the
   * object marked modified with its search document rebuilt, and the metadata event. No change, no event.
   */
  async write(em: EntityManager, auth: AuthContext, w: Write): Promise<void> {
    if (w.changes.size === 0) return;
    const target = this.targets[w.type];
    const now = this.clock.now();
    const existing = new Map((await target.values(em, w.object)).map((r) => [r.field_name, r.field_values]));
    const problems: Record<string, string> = {};
    const final = new Map<string, { value: unknown }[]>();
    for (const [name, change] of w.changes) {
      const { values, problem } = afterChange(w.defs.get(name)!, change, existing.get(name) ?? []);
      if (problem) problems[`metadata_values.${name}`] = problem;
      else final.set(name, values);
    }
    if (Object.keys(problems).length > 0) throw MetadataErrors.INVALID(problems);
    for (const [name, values] of final) {
      if (values.length === 0) await target.clear(em, w.object, name);
      else await target.upsert(em, w.object, name, values, now);
    }
    await w.check?.(em);
    await target.changed(em, w.object, now);
    await this.events.record(em, {
      systemDomainId: auth.systemDomainId,
      objectId: w.object.id,
      realm: 'metadata',
      operation: 'update',
      eventType: w.type,
      data: {
        version_id: w.object.versionId,
        metadata_values: Object.fromEntries(
          [...final].map(([name, values]) => [name, { field_values: values, date_created: wireDate(now) }]),
        ),
        object_type: w.type,
        object_id: w.object.id,
      },
      requestId: auth.requestId,
    });
  }

  /** The object's values of registered fields, by field name. */
  private async answer(
    em: EntityManager,
    auth: AuthContext,
    type: ObjectType,
    o: MetadataObject,
  ): Promise<MetadataValuesDto> {
    const rows = await this.targets[type].values(em, o);
    const defs = await this.fields.definitions(
      em,
      auth.systemDomainId,
      rows.map((r) => r.field_name),
    );
    const shown = rows
      .filter((r) => defs.has(r.field_name))
      .sort((a, b) => a.field_name.localeCompare(b.field_name));
    const latest = shown.reduce((d, r) => (r.date_modified > d ? r.date_modified : d), o.dateCreated);
    return {
      object_id: o.id,
      object_type: type,
      version_id: o.versionId,
      job_id: null,
      metadata_values: Object.fromEntries(
        shown.map((r) => [
          r.field_name,
          {
            field_values: r.field_values,
            date_created: wireDate(r.date_created),
            date_modified: wireDate(r.date_modified),
          },
        ]),
      ),
      date_created: wireDate(o.dateCreated),
      date_modified: wireDate(latest),
    };
  }

  private assetTarget(): Target {
    const repo = this.repo;
    return {
      load: async (em, auth, id, lock) => {
        const asset = await repo.asset(em, auth.systemDomainId, id, lock);
        if (!asset || asset.date_deleted || !asset.current_version_id) throw AssetsErrors.NOT_FOUND();
        const version = await repo.versionOrFail(em, asset.current_version_id);
        return { id: asset.id, versionId: version.id, dateCreated: version.date_created };
      },
      values: (em, o) => repo.allValues(em, o.versionId!),
      upsert: (em, o, field, values, at) =>
        repo.upsertValues(em, { versionId: o.versionId!, field, assetId: o.id, values, at }),
      clear: (em, o, field) => repo.deleteValues(em, o.versionId!, field),
      changed: async (em, o, at) => {
        await repo.touchAsset(em, o.id, at);
        await this.assets.refreshSearchDocument(em, o.id);
      },
    };
  }

  private collectionTarget(): Target {
    const repo = this.repo;
    return {
      load: async (em, auth, id, lock) => {
        // the collection's rules (domain, deleted, ACL) are its service's; the row is held here
        await this.collections.view(em, auth, id);
        const row = await repo.collection(em, id, lock);
        if (!row) throw CollectionsErrors.NOT_FOUND();
        return { id: row.id, versionId: null, dateCreated: row.date_created };
      },
      values: (em, o) => repo.collectionValues(em, o.id),
      upsert: (em, o, field, values, at) => repo.upsertCollectionValues(em, { id: o.id, field, values, at }),
      clear: (em, o, field) => repo.deleteCollectionValues(em, o.id, field),
      changed: async (em, o, at) => {
        await repo.touchCollection(em, o.id, at);
        await this.collections.refreshSearchDocument(em, o.id);
      },
    };
  }
}
