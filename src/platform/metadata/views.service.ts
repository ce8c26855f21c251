import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { isUuid } from '../../base/common/validation/uuid.js';
import { pageList, searchedPageList } from '../../base/common/http/page-list.js';
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
  MetadataFieldEntity,
  MetadataViewEntity,
} from '../../base/model/metadata.entity.js';
import { FieldsService, fieldView } from './fields.service.js';
import { MetadataErrors } from './metadata.errors.js';
import { MetadataRepository } from './metadata.repository.js';

/** A view with each view_fields entry the registered field's definition (an entry naming none is left out). */
function viewView(v: MetadataViewEntity, defs: ReadonlyMap<string, MetadataFieldEntity>): ViewDto {
  return {
    id: v.id,
    name: v.name,
    description: v.description,
    view_fields: v.view_fields.flatMap((f) => {
      const def = defs.get(f.name);
      return def ? [fieldView(def)] : [];
    }),
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
  constructor(
    private readonly repo: MetadataRepository,
    private readonly fields: FieldsService,
  ) {}

  async list(auth: AuthContext, q: ViewListQueryDto, path: string): Promise<ViewListDto> {
    return searchedPageList({
      search: (text) => this.repo.viewsQuery(auth.systemDomainId, text),
      alias: 'v',
      q,
      sortable: ['name', 'date_created', 'date_modified'],
      defaultSort: [{ field: 'name', order: 'ASC' }],
      path,
      view: (rows) => this.views(this.repo.manager, auth, rows),
    });
  }

  /** One view as the API answers it. */
  async getView(auth: AuthContext, id: string): Promise<ViewDto> {
    const [out] = await this.views(this.repo.manager, auth, [await this.get(auth, id)]);
    return out;
  }

  /** The registered definitions of the view's fields, in the view's order. */
  async fieldsOf(
    em: EntityManager,
    auth: AuthContext,
    view: MetadataViewEntity,
  ): Promise<MetadataFieldEntity[]> {
    const defs = await this.fields.definitions(
      em,
      auth.systemDomainId,
      view.view_fields.map((f) => f.name),
    );
    return view.view_fields.flatMap((f) => defs.get(f.name) ?? []);
  }

  async get(auth: AuthContext, id: string, em?: EntityManager): Promise<MetadataViewEntity> {
    const view = await this.repo.view(em ?? this.repo.manager, auth.systemDomainId, id);
    if (!view) throw MetadataErrors.VIEW_NOT_FOUND();
    return view;
  }

  /** Fields the entries name that are not registered yet are registered, in the same transaction. */
  async create(auth: AuthContext, body: ViewBodyDto): Promise<ViewDto> {
    const name = this.name(body.name);
    return this.repo.transaction(async (em) => {
      const id = await this.repo.insertView(em, {
        system_domain_id: auth.systemDomainId,
        name,
        description: body.description ?? null,
        view_fields: await this.fields.forView(em, auth, body.view_fields),
      });
      const [out] = await this.views(em, auth, [await this.get(auth, id, em)]);
      return out;
    });
  }

  /** The whole view is replaced (name, description, fields); values of fields it drops stay on the objects. */
  async replace(auth: AuthContext, id: string, body: ViewBodyDto): Promise<ViewDto> {
    const name = this.name(body.name);
    return this.repo.transaction(async (em) => {
      await this.get(auth, id, em);
      await this.repo.updateView(em, auth.systemDomainId, id, {
        name,
        description: body.description ?? null,
        view_fields: await this.fields.forView(em, auth, body.view_fields),
      });
      const [out] = await this.views(em, auth, [await this.get(auth, id, em)]);
      return out;
    });
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

  /** Views as the API answers them: one statement for the definitions of all their fields. */
  private async views(em: EntityManager, auth: AuthContext, rows: MetadataViewEntity[]): Promise<ViewDto[]> {
    const defs = await this.fields.definitions(
      em,
      auth.systemDomainId,
      rows.flatMap((v) => v.view_fields.map((f) => f.name)),
    );
    return rows.map((v) => viewView(v, defs));
  }
}
