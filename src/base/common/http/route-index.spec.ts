import type { Application, NextFunction, Request, Response } from 'express';
import { indexRoutes, routeLayers, routeLayersFor, type RouterLayer } from './route-index.js';

/** A route layer as Express 5's router has it: `:name` segments match one segment, case-insensitively. */
function route(path: string, methods: string[], handle: (req: Request, next: NextFunction) => void) {
  const pattern = new RegExp(
    '^' + path.replace(/:(\w+)/g, '(?<$1>[^/]+)').replace(/\*rest$/, '(?<rest>.+)') + '/?$',
    'i',
  );
  const layer: RouterLayer & { name: string } = {
    name: `${methods.join(',')} ${path}`,
    rawPath: path,
    route: {
      path,
      methods: Object.fromEntries(methods.map((m) => [m, true])),
      _handlesMethod: (m: string) => methods.includes(m.toLowerCase() === 'head' ? 'get' : m.toLowerCase()),
    },
    match: (p: string) => {
      const m = pattern.exec(p);
      return m ? { params: { ...m.groups } } : false;
    },
    handleRequest: (req: Request, _res: Response, next: NextFunction) => handle(req, next),
  };
  return layer;
}

const middleware = (name: string): RouterLayer & { name: string } => ({
  name,
  match: () => ({ params: {} }),
  handleRequest: (_req, _res, next) => next(),
});

/** A fake Express application whose router has `stack`; `use` appends a layer the way Express does. */
function appWith(stack: RouterLayer[]) {
  const router = {
    stack,
    params: {} as Record<string, unknown>,
    use(fn: (req: Request, res: Response, next: NextFunction) => void) {
      stack.push({ handle: fn, match: () => ({ params: {} }), handleRequest: fn } as RouterLayer);
    },
  };
  return { router } as unknown as Application;
}

/** Runs the stack the way Express's router does (the middleware layers here match every path). */
function run(app: Application, method: string, path: string): Promise<{ req: Request; out: unknown }> {
  // a route that answers ends the run through `done`
  const req = { method, path, params: {} } as unknown as Request & { done: () => void };
  const stack = (app as unknown as { router: { stack: RouterLayer[] } }).router.stack;
  return new Promise((resolve) => {
    req.done = () => resolve({ req, out: 'answered' });
    let i = 0;
    const next = (err?: unknown): void => {
      if (err === 'route') err = undefined;
      if (err === 'router') return resolve({ req, out: 'router' });
      while (i < stack.length) {
        const layer = stack[i++];
        if (layer.route) {
          const match = err ? false : layer.match(path);
          if (!match || !(method === 'HEAD' || layer.route._handlesMethod(method))) continue;
          req.route = layer.route;
          req.params = match.params;
          return layer.handleRequest(req, {} as Response, next);
        }
        if (layer === stack[stack.length - 1]) return resolve({ req, out: err ?? 'end' });
        return layer.handleRequest(req, {} as Response, next);
      }
    };
    next();
  });
}

const answered: string[] = [];
const answer =
  (name: string) =>
  (req: Request): void => {
    answered.push(`${name} ${JSON.stringify(req.params)}`);
    (req as Request & { done: () => void }).done();
  };

function table(extra: RouterLayer[] = []) {
  answered.length = 0;
  return [
    middleware('logger'),
    // filed under `/api/auth` and declared first: it wins over deeper-filed routes it shares paths with
    route('/API/auth/:a/:b/token/:c', ['get'], answer('shallow')),
    route('/API/auth/v1/auth/token', ['get', 'post'], answer('token')),
    route('/API/auth/v1/auth/token/:token_id', ['get', 'delete'], answer('token by id')),
    route('/API/auth/v1/auth/tokens', ['get'], answer('tokens')),
    route('/API/auth/v1/auth/:app_id/tokens', ['get'], answer('app tokens')),
    route('/API/auth/livez', ['get'], answer('livez')),
    route('/API/users/v1/users/:id', ['get', 'patch'], answer('user')),
    route('/:anything/probe', ['get'], answer('param first')),
    route('/API/auth/v1/oauth/token', ['post'], answer('oauth token')),
    // enough routes for a run the index takes (16)
    ...Array.from({ length: 8 }, (_, i) => route(`/API/other/v1/r${i}/:id`, ['get'], answer(`r${i}`))),
    ...extra,
    middleware('not found'),
  ];
}

describe('route index', () => {
  it('replaces a run of routes by one layer and keeps every route, in order', () => {
    const stack = table();
    const before = stack.filter((l) => l.route);
    const app = appWith(stack);
    expect(indexRoutes(app)).toBe(17);
    expect(stack).toHaveLength(3);
    expect(routeLayers(app)).toEqual(before);
  });

  it('leaves runs of fewer than 16 routes to the router', () => {
    const routes = (n: number) => Array.from({ length: n }, (_, i) => route(`/x${i}`, ['get'], answer('x')));
    const stack = [middleware('a'), ...routes(15), middleware('b'), ...routes(16)];
    expect(indexRoutes(appWith(stack))).toBe(16);
    expect(stack).toHaveLength(18);
  });

  it('offers a path only the routes that can match it, in declared order', () => {
    const app = appWith(table());
    indexRoutes(app);
    const names = (path: string) => routeLayersFor(app, path).map((l) => (l as { name?: string }).name);
    expect(names('/API/auth/v1/auth/token/abc')).toEqual([
      'get /API/auth/:a/:b/token/:c',
      'get,post /API/auth/v1/auth/token',
      'get,delete /API/auth/v1/auth/token/:token_id',
      'get /API/auth/v1/auth/:app_id/tokens',
      'get /:anything/probe',
    ]);
    // case and a trailing slash do not change the candidates (Express matches both)
    expect(names('/api/AUTH/v1/auth/TOKENS/')).toEqual([
      'get /API/auth/:a/:b/token/:c',
      'get /API/auth/v1/auth/tokens',
      'get /API/auth/v1/auth/:app_id/tokens',
      'get /:anything/probe',
    ]);
    expect(names('/elsewhere/probe')).toEqual(['get /:anything/probe']);
    expect(names('no-slash')).toEqual(['get /:anything/probe']);
  });

  it('dispatches to the same route as the linear router for every path and method tried', async () => {
    const paths = [
      '/API/auth/v1/auth/token',
      '/API/auth/v1/auth/token/',
      '/api/auth/v1/AUTH/token/t1',
      '/API/auth/v1/auth/tokens',
      '/API/auth/v1/auth/app1/tokens',
      '/API/auth/v1/auth/token/tokens',
      '/API/auth/livez/',
      '/API/users/v1/users/u1',
      '/API/users/v1/users/u1/extra',
      '/API/auth/probe',
      '/API/auth/v1/oauth/token',
      '//API/auth/livez',
      '/',
    ];
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'PATCH', 'OPTIONS']) {
      for (const path of paths) {
        const linear = await run(appWith(table()), method, path);
        const linearAnswer = [...answered];
        const app = appWith(table());
        indexRoutes(app);
        const indexed = await run(app, method, path);
        expect([method, path, answered, indexed.out]).toEqual([method, path, linearAnswer, linear.out]);
      }
    }
  });

  it("follows the router's rules for next: 'route' tries the next candidate, an error leaves the run", async () => {
    const passing = route('/API/auth/v1/a/:x', ['get'], (_req, next) => next('route'));
    const failing = route('/API/auth/v1/b/:x', ['get'], (_req, next) => next(new Error('boom')));
    const leaving = route('/API/auth/v1/c/:x', ['get'], (_req, next) => next('router'));
    const stack = table([
      passing,
      route('/API/auth/v1/a/:y', ['get'], answer('second a')),
      failing,
      route('/API/auth/v1/b/:y', ['get'], answer('never b')),
      leaving,
      route('/API/auth/v1/c/:y', ['get'], answer('never c')),
    ]);
    const app = appWith(stack);
    indexRoutes(app);
    expect((await run(app, 'GET', '/API/auth/v1/a/1')).out).toBe('answered');
    expect(answered).toEqual(['second a {"y":"1"}']);
    answered.length = 0;
    expect(((await run(app, 'GET', '/API/auth/v1/b/1')).out as Error).message).toBe('boom');
    expect((await run(app, 'GET', '/API/auth/v1/c/1')).out).toBe('router');
    expect(answered).toEqual([]);
  });

  it('sets req.route and req.params of the route that runs', async () => {
    const app = appWith(table());
    indexRoutes(app);
    const { req } = await run(app, 'GET', '/API/users/v1/users/u-9');
    expect(req.params).toEqual({ id: 'u-9' });
    expect((req.route as { path: string }).path).toBe('/API/users/v1/users/:id');
  });

  it('passes a matcher that throws (a malformed escape) out to the router as its error', async () => {
    const throwing = route('/API/auth/v1/t/:x', ['get'], answer('t'));
    throwing.match = () => {
      throw new URIError('URI malformed');
    };
    const app = appWith(table([throwing]));
    indexRoutes(app);
    expect(((await run(app, 'GET', '/API/auth/v1/t/%E0')).out as Error).message).toBe('URI malformed');
  });

  it('leaves an application with router-level param callbacks alone (the index would skip them)', () => {
    const stack = table();
    const app = appWith(stack);
    (app as unknown as { router: { params: Record<string, unknown> } }).router.params.id = [() => undefined];
    expect(indexRoutes(app)).toBe(0);
    expect(stack).toHaveLength(19);
  });
});
