import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { isUuid } from '../../base/common/validation/uuid.js';
import { pageList } from '../../base/common/http/page-list.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import type {
  CategoryDto,
  CategoryListDto,
  CreateCategoryDto,
  ViewBodyDto,
  ViewDto,
  ViewListDto,
  ViewListQueryDto,
} from './dto/view.dto.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import type {
  MetadataCategoryEntity,
  MetadataViewEntity,
  ViewField,
} from '../../base/model/metadata.entity.js';
import { MetadataErrors } from './metadata.errors.js';
import { MetadataRepository } from './metadata.repository.js';

/** Field names: keys of metadata_values (and of a search filter), so plain identifiers. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;

export function viewView(v: MetadataViewEntity): ViewDto {
  return {
    id: v.id,
    name: v.name,
    description: v.description,
    view_fields: v.view_fields,
    system_domain_id: v.system_domain_id,
    date_created: wireDate(v.date_created),
    date_modified: wireDate(v.date_modified),
  };
}

function categoryView(c: MetadataCategoryEntity): CategoryDto {
  return {
    id: c.id,
    name: c.name,
    label: c.label,
    object_type: c.object_type,
    view_ids: c.view_ids,
    date_created: wireDate(c.date_created),
    date_modified: wireDate(c.date_modified),
  };
}

/** Metadata views and asset categories of a domain: domain-wide definitions, no entity ACL of their own. */
@Injectable()
export class ViewsService {
  constructor(private readonly repo: MetadataRepository) {}

  async list(auth: AuthContext, q: ViewListQueryDto, path: string): Promise<ViewListDto> {
    const text = q.query?.trim();
    return pageList({
      qb: this.repo.viewsQuery(auth.systemDomainId, text),
      alias: 'v',
      q,
      sortable: ['name', 'date_created', 'date_modified'],
      defaultSort: [{ field: 'name', order: 'ASC' }],
      path,
      query: { query: text },
      view: (rows) => rows.map(viewView),
    });
  }

  async get(auth: AuthContext, id: string, em?: EntityManager): Promise<MetadataViewEntity> {
    const view = await this.repo.view(em ?? this.repo.manager, auth.systemDomainId, id);
    if (!view) throw MetadataErrors.VIEW_NOT_FOUND();
    return view;
  }

  async create(auth: AuthContext, body: ViewBodyDto): Promise<ViewDto> {
    const id = await this.repo.insertView({
      system_domain_id: auth.systemDomainId,
      name: this.name(body.name),
      description: body.description ?? null,
      view_fields: this.fields(body),
    });
    return viewView(await this.get(auth, id));
  }

  /** The whole view is replaced (name, description, fields); values of removed fields stay on the assets. */
  async replace(auth: AuthContext, id: string, body: ViewBodyDto): Promise<ViewDto> {
    await this.get(auth, id);
    await this.repo.updateView(auth.systemDomainId, id, {
      name: this.name(body.name),
      description: body.description ?? null,
      view_fields: this.fields(body),
    });
    return viewView(await this.get(auth, id));
  }

  /** Also drops the view from the categories that name it. */
  async remove(auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      await this.get(auth, id, em);
      await this.repo.deleteView(em, auth.systemDomainId, id);
      await this.repo.dropViewFromCategories(em, id, auth.systemDomainId);
    });
  }

  async listCategories(auth: AuthContext, q: PageQueryDto, path: string): Promise<CategoryListDto> {
    return pageList({
      qb: this.repo.categoriesQuery(auth.systemDomainId, 'assets'),
      alias: 'c',
      q,
      sortable: ['name', 'date_created'],
      defaultSort: [{ field: 'name', order: 'ASC' }],
      path,
      view: (rows) => rows.map(categoryView),
    });
  }

  async createCategory(auth: AuthContext, body: CreateCategoryDto): Promise<CategoryDto> {
    const viewIds = [...new Set(body.view_ids ?? [])];
    const known = viewIds.every(isUuid)
      ? await this.repo.countViews(
          auth.systemDomainId,
          viewIds.length ? viewIds : ['00000000-0000-0000-0000-000000000000'],
        )
      : -1;
    if (known !== viewIds.length) {
      throw MetadataErrors.INVALID({ view_ids: 'must be ids of views of this domain' });
    }
    const name = this.name(body.name);
    if (await this.repo.categoryNameTaken(auth.systemDomainId, 'assets', name))
      throw MetadataErrors.CATEGORY_NAME_TAKEN();
    const category = await this.repo
      .insertCategory({
        system_domain_id: auth.systemDomainId,
        object_type: 'assets',
        name,
        label: body.label ?? null,
        view_ids: viewIds,
      })
      .catch((e: unknown) => {
        // a concurrent request took the name between the check and the insert
        throw isUniqueViolation(e) ? MetadataErrors.CATEGORY_NAME_TAKEN() : e;
      });
    return categoryView(category);
  }

  private name(raw: string): string {
    const name = raw.trim();
    if (name === '') throw MetadataErrors.INVALID({ name: 'must not be blank' });
    return name;
  }

  private fields(body: ViewBodyDto): ViewField[] {
    const seen = new Set<string>();
    return body.view_fields.map((f, i) => {
      if (!FIELD_NAME.test(f.name)) {
        throw MetadataErrors.INVALID({
          [`view_fields.${i}.name`]: 'must start with a letter or _ and hold only letters, digits, _ . -',
        });
      }
      if (seen.has(f.name)) throw MetadataErrors.INVALID({ [`view_fields.${i}.name`]: 'is given twice' });
      seen.add(f.name);
      return {
        name: f.name,
        label: f.label ?? null,
        auto_set: f.auto_set ?? false,
        hide_if_not_set: f.hide_if_not_set ?? false,
        mapped_field_name: f.mapped_field_name ?? null,
        read_only: f.read_only ?? false,
        required: f.required ?? false,
        source_url: f.source_url ?? null,
      };
    });
  }
}
