import { applyDecorators, Delete, Get, HttpCode, Patch, Post, type Type } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Authenticated, type AuthenticatedOptions } from '../auth/authenticated.decorator.js';
import { ApiErrors } from './api-errors.js';

/** One resource family of a controller: its list, create and by-id routes, from one spec. */
export interface CrudRoutesSpec {
  /** The path parameter of one item, e.g. `directory_id` (the routes are `''` and `:param`). */
  param: string;
  policy: AuthenticatedOptions;
  /** The item (GET, POST, PATCH answers) and the page list. */
  item: Type<unknown>;
  list: Type<unknown>;
  summaries: { list: string; create: string; get: string; update: string; remove: string };
}

/**
 * The five routes of a resource that lives in the caller's domain (list, create, get, change, delete), declared
 * from one spec: `const routes = CrudRoutes({...})`, then `@routes.list` on `listX` and so on, each method
 * calling its service. The method names stay the OpenAPI operationIds.
 */
export function CrudRoutes(spec: CrudRoutesSpec) {
  const byId = `:${spec.param}`;
  const route = (summary: string, ...more: (MethodDecorator | ClassDecorator)[]) =>
    applyDecorators(Authenticated(spec.policy), ApiOperation({ summary }), ...more);
  return {
    list: route(spec.summaries.list, Get(), ApiOkResponse({ type: spec.list })),
    create: route(spec.summaries.create, Post(), ApiCreatedResponse({ type: spec.item })),
    get: route(spec.summaries.get, Get(byId), ApiOkResponse({ type: spec.item }), ApiErrors(404)),
    update: route(spec.summaries.update, Patch(byId), ApiOkResponse({ type: spec.item }), ApiErrors(404)),
    remove: route(
      spec.summaries.remove,
      Delete(byId),
      HttpCode(204),
      ApiNoContentResponse({ description: 'Deleted' }),
      ApiErrors(404),
    ),
  };
}
