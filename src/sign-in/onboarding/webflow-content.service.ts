import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { pageList, type PageList } from '../../base/common/http/page-list.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import {
  SLUG_SHAPE,
  type CreateWebflowContentDto,
  type WebflowContentBodyDto,
  type WebflowContentDto,
  type WebflowContentEntryDto,
} from './dto/webflow-content.dto.js';
import { OnboardingErrors } from './onboarding.errors.js';
import { WebflowContentEntity } from '../../base/model/webflow-content.entity.js';

/** The content entries of the registration pages: read by anyone per page route, managed by operators. */
@Injectable()
export class WebflowContentService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async forRoute(pageRoute: string): Promise<WebflowContentDto> {
    const row = await this.ds.getRepository(WebflowContentEntity).findOneBy({ page_route: pageRoute });
    if (!row) throw OnboardingErrors.CONTENT_NOT_FOUND();
    return publicView(row);
  }

  list(q: PageQueryDto, path: string): Promise<PageList<WebflowContentEntryDto>> {
    return pageList({
      qb: this.ds.getRepository(WebflowContentEntity).createQueryBuilder('w'),
      alias: 'w',
      q,
      sortable: ['slug', 'page_route', 'date_created', 'date_modified'],
      defaultSort: [{ field: 'page_route', order: 'ASC' }],
      path,
      view: (rows) => rows.map(entryView),
    }) as Promise<PageList<WebflowContentEntryDto>>;
  }

  async create(body: CreateWebflowContentDto): Promise<WebflowContentEntryDto> {
    const repo = this.ds.getRepository(WebflowContentEntity);
    await repo.insert({ slug: body.slug, ...fields(body) }).catch((e: unknown) => {
      throw isUniqueViolation(e) ? OnboardingErrors.CONTENT_EXISTS() : e;
    });
    return entryView(await repo.findOneByOrFail({ slug: body.slug }));
  }

  async replace(slug: string, body: WebflowContentBodyDto): Promise<WebflowContentEntryDto> {
    if (!SLUG_SHAPE.test(slug)) throw OnboardingErrors.CONTENT_NOT_FOUND();
    const repo = this.ds.getRepository(WebflowContentEntity);
    const res = await repo.update({ slug }, fields(body)).catch((e: unknown) => {
      throw isUniqueViolation(e) ? OnboardingErrors.CONTENT_EXISTS() : e;
    });
    if (!res.affected) throw OnboardingErrors.CONTENT_NOT_FOUND();
    return entryView(await repo.findOneByOrFail({ slug }));
  }

  async remove(slug: string): Promise<void> {
    if (!SLUG_SHAPE.test(slug)) throw OnboardingErrors.CONTENT_NOT_FOUND();
    const res = await this.ds.getRepository(WebflowContentEntity).delete({ slug });
    if (!res.affected) throw OnboardingErrors.CONTENT_NOT_FOUND();
  }
}

function fields(b: WebflowContentBodyDto) {
  return {
    page_route: b.page_route,
    caption: b.caption ?? null,
    category: b.category ?? null,
    image: b.image ?? null,
    name: b.name ?? null,
  };
}

function publicView(w: WebflowContentEntity): WebflowContentDto {
  return { slug: w.slug, caption: w.caption, category: w.category, image: w.image, name: w.name };
}

function entryView(w: WebflowContentEntity): WebflowContentEntryDto {
  return {
    ...publicView(w),
    page_route: w.page_route,
    date_created: wireDate(w.date_created),
    date_modified: wireDate(w.date_modified),
  };
}
