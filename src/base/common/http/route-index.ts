import type { Application, NextFunction, Request, Response } from 'express';
import { holdsAsciiLower, installedRouterVerified, leavesRun } from './express-rules.js';

/**
 * The route index (issue 23): Express tries its layers one after the other, and a request reaches the
 * 122nd route (the OAuth token endpoint) only after testing the 121 before it, about a quarter of a
 * microsecond each. `indexRoutes` replaces every long run of route layers in the application's router by
 * one layer that tries only the routes the request's path can match, in their declared order.
 *
 * Why that is exact: a route's path starts with literal segments (`/API/auth/v1/oauth/token`,
 * `/API/users/v1/users/:id` starts with four) and path-to-regexp anchors its pattern at the start, so a
 * route can match only a path whose first segments are the same (ASCII case aside: Express matches
 * case-insensitively, and a non-ASCII character never matches an ASCII one without the `u` flag). The
 * routes are filed in a tree under their first `DEPTH` literal segments, lower-cased (fewer if the literal
 * part is shorter; a route starting with a parameter is filed at the root and tried for every path). A
 * path's candidates are the routes filed at the nodes its own leading segments reach, in declared order:
 * every route that can match is among them, so the first to match and answer is the one Express would have
 * reached. Each candidate is still matched by Express's own `layer.match` and run
 * by `layer.handleRequest`, as the router does: the index only skips routes that cannot match.
 *
 * The run is dispatched the way Express's router dispatches a route layer: `req.route`, `req.params` from
 * the match, the method check (HEAD runs GET routes), `next()` or `next('route')` to the following
 * candidate, `next(err)` and `next('router')` out to the router, which then skips every later route as it
 * would have. Router-level `app.param` callbacks would be skipped, so an application that has any is left
 * unindexed; this one has none.
 */

/** Express 5's router layer, as far as the index uses it (router 2.x: `lib/layer.js`, `lib/route.js`). */
export interface RouterLayer {
  route?: {
    path: unknown;
    methods: Record<string, boolean | undefined>;
    _handlesMethod(method: string): boolean;
  };
  rawPath?: unknown;
  match(path: string): false | { params: Record<string, string> };
  handleRequest(req: Request, res: Response, next: NextFunction): void;
}

interface Router {
  stack: RouterLayer[];
  params: Record<string, unknown>;
  use(fn: (req: Request, res: Response, next: NextFunction) => void): unknown;
}

/** Literal segments a route is filed under: enough to split the largest groups (37 routes at most at 4). */
const DEPTH = 5;
/**
 * Shorter runs are left to the router. A route the path cannot match costs the router one failed regular
 * expression, nothing allocated; the index's layer matches every path and costs the router's bookkeeping
 * for a matched layer (about 1 kB allocated). The OpenAPI document's eight routes stay as they are.
 */
const MIN_RUN = 16;
/** A segment matched as written (path-to-regexp 8: parameters, wildcards and groups use other characters). */
const LITERAL = /^[A-Za-z0-9._~-]+$/;

const INDEXED = Symbol('route index');

interface Index {
  /** Every route of the run, in declared order. */
  readonly routes: RouterLayer[];
  /** The literal segments the routes are filed under, as a tree (lower-cased). */
  readonly root: Node;
}

interface Node {
  /** The candidates of a path that ends its walk here: the routes filed here or above, in declared order. */
  chain: RouterLayer[];
  children: { segment: string; node: Node }[];
}

type IndexLayer = ((req: Request, res: Response, next: NextFunction) => void) & { [INDEXED]: Index };

/** The segments a route is filed under: its first literal segments, at most DEPTH, lower-cased. */
function routeSegments(layer: RouterLayer): string[] {
  const path = typeof layer.rawPath === 'string' ? layer.rawPath : null;
  if (path === null || !path.startsWith('/')) return [];
  const literal: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    if (literal.length === DEPTH || !LITERAL.test(segment)) break;
    literal.push(segment.toLowerCase());
  }
  return literal;
}

function buildIndex(routes: RouterLayer[]): Index {
  const root: Node = { chain: [], children: [] };
  const filed = new Map<Node, RouterLayer[]>();
  for (const layer of routes) {
    let node = root;
    for (const segment of routeSegments(layer)) {
      let child = node.children.find((c) => c.segment === segment);
      if (!child) node.children.push((child = { segment, node: { chain: [], children: [] } }));
      node = child.node;
    }
    filed.set(node, [...(filed.get(node) ?? []), layer]);
  }
  const fill = (node: Node, above: Set<RouterLayer>) => {
    const members = new Set([...above, ...(filed.get(node) ?? [])]);
    // declared order: the run's own order
    node.chain = routes.filter((l) => members.has(l));
    for (const child of node.children) fill(child.node, members);
  };
  fill(root, new Set());
  return { routes, root };
}

/** The child of `node` for the path's segment [start, end), compared as Express does (ASCII case aside). */
function childFor(node: Node, path: string, start: number, end: number): Node | undefined {
  const length = end - start;
  for (const { segment, node: child } of node.children) {
    // the segments are lower-cased ASCII
    if (segment.length === length && holdsAsciiLower(path, start, segment)) return child;
  }
  return undefined;
}

/**
 * The routes of the run that `path` (a request's pathname) can match, in declared order: the chain of the
 * deepest node the path's own leading segments reach. Allocates nothing (this runs on every request).
 */
function candidates(index: Index, path: string): RouterLayer[] {
  let node = index.root;
  if (path.charCodeAt(0) !== 47 /* '/' */) return node.chain;
  let start = 1;
  while (node.children.length > 0) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    const child = childFor(node, path, start, end);
    if (!child) break;
    node = child;
    if (end === path.length) break;
    start = end + 1;
  }
  return node.chain;
}

function dispatcher(index: Index): IndexLayer {
  const dispatch = (req: Request, res: Response, out: NextFunction): void => {
    const path = req.path;
    const routes = candidates(index, path);
    const method = req.method;
    let i = 0;
    const next = (err?: unknown): void => {
      // the router's rules: `route` means "try the next route"; an error or `router` leaves the run, and the
      // router then skips every later route itself
      if (leavesRun(err)) return out(err);
      while (i < routes.length) {
        const layer = routes[i++];
        let match: ReturnType<RouterLayer['match']>;
        try {
          match = layer.match(path);
        } catch (thrown) {
          return out(thrown);
        }
        if (!match) continue;
        const route = layer.route!;
        if (method !== 'HEAD' && !route._handlesMethod(method)) continue;
        req.route = route;
        req.params = match.params;
        return layer.handleRequest(req, res, next);
      }
      out();
    };
    next();
  };
  return Object.assign(dispatch, { [INDEXED]: index });
}

function indexOf(layer: RouterLayer): Index | undefined {
  return (layer as unknown as { handle?: Partial<IndexLayer> }).handle?.[INDEXED];
}

/** The Express application's router (Express 5 creates it with the application). */
const routerOf = (app: Application) => app.router as unknown as Router;

/**
 * Replaces each run of at least MIN_RUN consecutive route layers in the application's router by one indexed
 * layer (see above). Call once, after every route is registered (after `app.init()`). Returns the number of
 * routes indexed: none on a router version the index was not verified against (`verified`).
 */
export function indexRoutes(app: Application, verified = installedRouterVerified()): number {
  const router = routerOf(app);
  // another router version: its internals were not verified, so Express routes on its own (slower, exact)
  if (!verified || Object.keys(router.params).length > 0) return 0;
  const stack = router.stack;
  let indexed = 0;
  for (let start = 0; start < stack.length; start++) {
    if (!stack[start].route) continue;
    let end = start;
    while (end < stack.length && stack[end].route) end++;
    if (end - start >= MIN_RUN) {
      const routes = stack.slice(start, end);
      router.use(dispatcher(buildIndex(routes)));
      const layer = stack.pop()!;
      stack.splice(start, routes.length, layer);
      indexed += routes.length;
    } else start = end;
  }
  return indexed;
}

/** Every route layer of the router in declared order, indexed or not (for `Allow` and the route walk). */
export function routeLayers(app: Application): RouterLayer[] {
  return routerOf(app).stack.flatMap((layer) => indexOf(layer)?.routes ?? (layer.route ? [layer] : []));
}

/** The route layers that can match `path`, in declared order: the index's candidates where it has them. */
export function routeLayersFor(app: Application, path: string): RouterLayer[] {
  return routerOf(app).stack.flatMap((layer) => {
    const index = indexOf(layer);
    if (index) return candidates(index, path);
    return layer.route ? [layer] : [];
  });
}
