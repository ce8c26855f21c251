import { applyDecorators, Delete, HttpCode } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  ContentQueryDto,
  CreateWebflowContentDto,
  WebflowContentBodyDto,
  WebflowContentDto,
  WebflowContentEntryDto,
  WebflowContentEntryListDto,
} from './dto/webflow-content.dto.js';
import type { WebflowContentService } from './webflow-content.service.js';
import { Route } from '../../base/common/http/route.js';

const superAdmin = { superAdmin: true } as const;
const content = ServiceRoutes<WebflowContentService>('content');
const slug = input.param('slug');
/** The query's page_route: the service takes the route alone. */
const pageRoute: RouteInput<string> = {
  ...input.query(ContentQueryDto),
  pick: (q: ContentQueryDto) => q.page_route,
};

/**
 * The registration pages' content routes of `RegistrationsController`, which extends this class: the public
 * read, and the super administrators' editing. Nest registers a controller's own routes first and inherited
 * ones after, so the route order and the route-policy keys (`<Controller>.<method>`) stay as they were.
 */
export const RegistrationContentRoutes = content.handlers({
  getRegistrationContent: content.call(
    'forRoute',
    Route.get('content', {
      summary: 'The content entry of a registration page route',
      public: 'anonymous',
      ok: WebflowContentDto,
      errors: [404],
    }),
    pageRoute,
  ),
  listRegistrationContent: content.call(
    'list',
    Route.get('content/entries', {
      summary: 'Every content entry (page style; sort on slug, page_route, date_created, date_modified)',
      policy: superAdmin,
      ok: WebflowContentEntryListDto,
    }),
    input.query(PageQueryDto),
    input.path,
  ),
  createRegistrationContent: content.call(
    'create',
    Route.post('content', {
      summary: 'Create a content entry (409 when the slug or the page route is taken)',
      policy: superAdmin,
      created: WebflowContentEntryDto,
      errors: [409],
    }),
    input.body(CreateWebflowContentDto),
  ),
  replaceRegistrationContent: content.call(
    'replace',
    Route.put('content/:slug', {
      summary: 'Replace a content entry',
      policy: superAdmin,
      ok: WebflowContentEntryDto,
      errors: [404, 409],
    }),
    slug,
    input.body(WebflowContentBodyDto),
  ),
  // the stack `@Delete @Authenticated @HttpCode @ApiOperation @ApiNoContentResponse @ApiErrors`, applied
  // bottom up as written (a 204 without a description)
  deleteRegistrationContent: content.call(
    'remove',
    applyDecorators(
      ApiErrors(404),
      ApiNoContentResponse(),
      ApiOperation({ summary: 'Delete a content entry' }),
      HttpCode(204),
      Authenticated(superAdmin),
      Delete('content/:slug'),
    ),
    slug,
  ),
});
