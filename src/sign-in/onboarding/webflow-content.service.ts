import { Injectable } from '@nestjs/common';
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
import type { WebflowContentEntity } from '../../base/model/webflow-content.entity.js';
import { OnboardingRepository } from './onboarding.repository.js';

/** The content entries of the registration pages: read by anyone per page route, managed by operators. */
@Injectable()
export class WebflowContentService {
  constructor(private readonly repo: OnboardingRepository) {}

  async forRoute(pageRoute: string): Promise<WebflowContentDto> {
    const row = await this.repo.contentForRoute(pageRoute);
    if (!row) throw OnboardingErrors.CONTENT_NOT_FOUND();
    return publicView(row);
  }

  list(q: PageQueryDto, path: string): Promise<PageList<WebflowContentEntryDto>> {
    return pageList({
      qb: this.repo.contentQuery(),
      alias: 'w',
      q,
      sortable: ['slug', 'page_route', 'date_created', 'date_modified'],
      defaultSort: [{ field: 'page_route', order: 'ASC' }],
      path,
      view: (rows) => rows.map(entryView),
    }) as Promise<PageList<WebflowContentEntryDto>>;
  }

  async create(body: CreateWebflowContentDto): Promise<WebflowContentEntryDto> {
    const row = await this.repo.insertContent(body.slug, fields(body)).catch((e: unknown) => {
      throw isUniqueViolation(e) ? OnboardingErrors.CONTENT_EXISTS() : e;
    });
    return entryView(row);
  }

  async replace(slug: string, body: WebflowContentBodyDto): Promise<WebflowContentEntryDto> {
    if (!SLUG_SHAPE.test(slug)) throw OnboardingErrors.CONTENT_NOT_FOUND();
    const row = await this.repo.updateContent(slug, fields(body)).catch((e: unknown) => {
      throw isUniqueViolation(e) ? OnboardingErrors.CONTENT_EXISTS() : e;
    });
    if (!row) throw OnboardingErrors.CONTENT_NOT_FOUND();
    return entryView(row);
  }

  async remove(slug: string): Promise<void> {
    if (!SLUG_SHAPE.test(slug)) throw OnboardingErrors.CONTENT_NOT_FOUND();
    if (!(await this.repo.deleteContent(slug))) throw OnboardingErrors.CONTENT_NOT_FOUND();
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
