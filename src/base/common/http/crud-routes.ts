import type { Type } from '@nestjs/common';
import type { AuthenticatedOptions } from '../auth/authenticated.decorator.js';
import { Route } from './route.js';

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
  const { policy, summaries } = spec;
  return {
    list: Route.get({ summary: summaries.list, policy, ok: spec.list }),
    create: Route.post({ summary: summaries.create, policy, created: spec.item }),
    get: Route.get(byId, { summary: summaries.get, policy, ok: spec.item, errors: [404] }),
    update: Route.patch(byId, { summary: summaries.update, policy, ok: spec.item, errors: [404] }),
    remove: Route.delete(byId, { summary: summaries.remove, policy, noContent: 'Deleted', errors: [404] }),
  };
}
