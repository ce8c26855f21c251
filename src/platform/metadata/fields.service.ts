import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { searchedPageList } from '../../base/common/http/page-list.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import type { MetadataFieldEntity, ViewFieldRef } from '../../base/model/metadata.entity.js';
import { AssetsService } from '../assets/assets.service.js';
import { CollectionsService } from '../assets/collections.service.js';
import type {
  CreateFieldDto,
  FieldDto,
  FieldListDto,
  FieldListQueryDto,
  FieldPropsDto,
  UpdateFieldDto,
  ViewFieldDto,
} from './dto/field.dto.js';
import { FieldsRepository } from './fields.repository.js';
import { MetadataErrors } from './metadata.errors.js';

/** Field names: keys of metadata_values (and of a search filter), so plain identifiers. */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
const NAME_RULE = 'must start with a letter or _ and hold only letters, digits, _ . - (at most 100)';

export function fieldView(f: MetadataFieldEntity): FieldDto {
  return {
    name: f.name,
    label: f.label,
    field_type: f.field_type,
    description: f.description,
    external_id: f.external_id,
    auto_set: f.auto_set,
    hide_if_not_set: f.hide_if_not_set,
    is_block_field: f.is_block_field,
    is_warning_field: f.is_warning_field,
    mapped_field_name: f.mapped_field_name,
    max_value: f.max_value,
    min_value: f.min_value,
    multi: f.multi,
    options: f.options,
    read_only: f.read_only,
    representative: f.representative,
    required: f.required,
    sortable: f.sortable,
    source_url: f.source_url,
    use_as_facet: f.use_as_facet,
    date_created: wireDate(f.date_created),
    date_modified: wireDate(f.date_modified),
  };
}

/** The optional properties a body sets (undefined: not given), checked together. */
function props(body: FieldPropsDto, prefix = ''): Partial<MetadataFieldEntity> {
  const out: Partial<MetadataFieldEntity> = {};
  const keys = [
    'description',
    'external_id',
    'auto_set',
    'hide_if_not_set',
    'is_block_field',
    'is_warning_field',
    'mapped_field_name',
    'max_value',
    'min_value',
    'multi',
    'read_only',
    'representative',
    'required',
    'sortable',
    'source_url',
    'use_as_facet',
  ] as const;
  for (const k of keys) if (body[k] !== undefined) (out as Record<string, unknown>)[k] = body[k];
  if (body.options !== undefined) {
    const seen = new Set<string>();
    out.options = body.options.map((o, i) => {
      if (seen.has(o.value))
        throw MetadataErrors.INVALID({ [`${prefix}options.${i}.value`]: 'is given twice' });
      seen.add(o.value);
      return { label: o.label ?? null, value: o.value };
    });
  }
  return out;
}

function checkRange(f: { min_value?: number | null; max_value?: number | null }, prefix = ''): void {
  if (f.min_value != null && f.max_value != null && f.min_value > f.max_value)
    throw MetadataErrors.INVALID({ [`${prefix}min_value`]: 'must not be above max_value' });
}

/**
 * The domain's field registry (`/API/metadata/v1/fields/`): the fields views name and objects have values
 * of. A name is unique in the domain and is the field's identity (never renamed). A field views name is not
 * deleted (409 naming them); deleting one takes its values off every object of the domain (asset search
 * documents rebuilt) in the same transaction. Its type does not change while objects have values of it.
 */
@Injectable()
export class FieldsService {
  constructor(
    private readonly repo: FieldsRepository,
    private readonly assets: AssetsService,
    private readonly collections: CollectionsService,
  ) {}

  async list(auth: AuthContext, q: FieldListQueryDto, path: string): Promise<FieldListDto> {
    return searchedPageList({
      search: (text) => this.repo.fieldsQuery(auth.systemDomainId, text),
      alias: 'f',
      q,
      sortable: ['name', 'label', 'field_type', 'date_created', 'date_modified'],
      defaultSort: [{ field: 'name', order: 'ASC' }],
      path,
      view: (rows) => rows.map(fieldView),
    });
  }

  async get(auth: AuthContext, name: string): Promise<FieldDto> {
    return fieldView(await this.field(this.repo.manager, auth, name));
  }

  async create(auth: AuthContext, body: CreateFieldDto): Promise<FieldDto> {
    if (!FIELD_NAME.test(body.name)) throw MetadataErrors.INVALID({ name: NAME_RULE });
    const label = body.label.trim();
    if (label === '') throw MetadataErrors.INVALID({ label: 'must not be blank' });
    const rest = props(body);
    checkRange(rest);
    const created = await this.repo
      .transaction((em) =>
        this.repo.insertField(em, {
          ...rest,
          system_domain_id: auth.systemDomainId,
          name: body.name,
          label,
          field_type: body.field_type,
        }),
      )
      .catch((e: unknown) => {
        throw isUniqueViolation(e) ? MetadataErrors.FIELD_NAME_TAKEN() : e;
      });
    return fieldView(created);
  }

  /** PUT and PATCH: the properties given change, the others stay. */
  async update(auth: AuthContext, name: string, body: UpdateFieldDto): Promise<FieldDto> {
    if (body.name !== undefined && body.name !== name)
      throw MetadataErrors.INVALID({ name: 'a field is not renamed: must be the name in the path' });
    const changes = props(body);
    if (body.label !== undefined) {
      const label = body.label.trim();
      if (label === '') throw MetadataErrors.INVALID({ label: 'must not be blank' });
      changes.label = label;
    }
    return this.repo.transaction(async (em) => {
      const field = await this.field(em, auth, name, 'pessimistic_write');
      checkRange({ ...field, ...changes });
      if (body.field_type !== undefined && body.field_type !== field.field_type) {
        if (await this.repo.hasValues(em, auth.systemDomainId, name))
          throw MetadataErrors.FIELD_HAS_VALUES({
            field_type: 'objects have values of this field: its type does not change',
          });
        changes.field_type = body.field_type;
      }
      if (Object.keys(changes).length > 0) await this.repo.updateField(em, field.id, changes);
      return fieldView(await this.field(em, auth, name));
    });
  }

  async remove(auth: AuthContext, name: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      const field = await this.field(em, auth, name, 'pessimistic_write');
      const views = await this.repo.viewsUsing(em, auth.systemDomainId, name);
      if (views.length > 0)
        throw MetadataErrors.FIELD_IN_USE({
          field: `is named by the views: ${views.join(', ')}; remove it from them first`,
        });
      const gone = await this.repo.deleteValues(em, auth.systemDomainId, name);
      for (const id of gone.assets) await this.assets.refreshSearchDocument(em, id);
      for (const id of gone.collections) await this.collections.refreshSearchDocument(em, id);
      await this.repo.deleteField(em, field.id);
    });
  }

  /** The domain's fields of these names (in the change's transaction: held against removal). */
  async definitions(
    em: EntityManager,
    systemDomainId: string,
    names: string[],
    share = false,
  ): Promise<Map<string, MetadataFieldEntity>> {
    const rows = await this.repo.fieldsNamed(em, systemDomainId, [...new Set(names)], share);
    return new Map(rows.map((f) => [f.name, f]));
  }

  /**
   * A view's fields: each entry names a registered field; an entry naming a field not registered yet
   * registers it from the entry's properties (field_type string and multi true unless given, label the
   * name). The registered definition is the field's; other properties of an entry naming one are ignored.
   */
  async forView(em: EntityManager, auth: AuthContext, entries: ViewFieldDto[]): Promise<ViewFieldRef[]> {
    const seen = new Set<string>();
    entries.forEach((f, i) => {
      if (!FIELD_NAME.test(f.name)) throw MetadataErrors.INVALID({ [`view_fields.${i}.name`]: NAME_RULE });
      if (seen.has(f.name)) throw MetadataErrors.INVALID({ [`view_fields.${i}.name`]: 'is given twice' });
      seen.add(f.name);
    });
    const known = await this.definitions(em, auth.systemDomainId, [...seen], true);
    const missing = entries.flatMap((f, i) => {
      if (known.has(f.name)) return [];
      const rest = props(f, `view_fields.${i}.`);
      checkRange(rest, `view_fields.${i}.`);
      return [
        {
          multi: true,
          ...rest,
          system_domain_id: auth.systemDomainId,
          name: f.name,
          label: f.label?.trim() || f.name,
          field_type: f.field_type ?? 'string',
        },
      ];
    });
    await this.repo.insertMissing(em, missing);
    return entries.map((f) => ({ name: f.name }));
  }

  private async field(
    em: EntityManager,
    auth: AuthContext,
    name: string,
    lock?: 'pessimistic_write',
  ): Promise<MetadataFieldEntity> {
    // a name the rule refuses names no field: a 404 like an unknown one
    const field = FIELD_NAME.test(name) ? await this.repo.field(em, auth.systemDomainId, name, lock) : null;
    if (!field) throw MetadataErrors.FIELD_NOT_FOUND();
    return field;
  }
}
