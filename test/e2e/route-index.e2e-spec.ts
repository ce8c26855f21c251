// The route index (src/base/common/http/route-index.ts) over the service's own route table: for paths made from
// every route (parameters filled with ordinary values and with values that spell a sibling's literal
// segment, in upper and lower case, with and without a trailing slash), the routes the index offers match
// exactly as Express's linear walk of all routes does, in the same order; and over HTTP, the behaviours the
// router owned (HEAD on a GET route, 405 with Allow, case-insensitive paths, deep routes) are unchanged.
import { routeLayers, routeLayersFor } from '../../src/base/common/http/route-index.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

describe('route index over the service routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const express = () => t.app.getHttpAdapter().getInstance();

  it('holds every route and leaves few layers in front of them', () => {
    const routes = routeLayers(express());
    expect(routes.length).toBeGreaterThan(250);
    const stack = (express() as unknown as { router: { stack: { route?: unknown }[] } }).router.stack;
    // Express itself walks only the middleware, the OpenAPI document's few routes and the index layer
    expect(stack.length).toBeLessThan(20);
    const outside = stack.filter((l) => l.route) as { route: { path: string } }[];
    expect(outside.map((l) => l.route.path).filter((p) => !p.startsWith('/API/auth/spec'))).toEqual([]);
  });

  it('offers every path the routes that match it, in the order Express would try them', () => {
    const routes = routeLayers(express());
    const fills = ['x1', '3f1d5c2e-8d55-4c39-9b7c-6a0e5b8f0a11', 'token', 'tokens', 'me', 'a/b'];
    const paths = new Set<string>();
    for (const layer of routes) {
      const template = String(layer.route!.path);
      for (const fill of fills) {
        const path = template.replace(/\{?\*\w+\}?/g, fill).replace(/:\w+/g, fill);
        for (const variant of [path, path.toUpperCase(), path.toLowerCase(), `${path}/`, `/${path}`]) {
          paths.add(variant);
        }
      }
    }
    paths.add('/');
    paths.add('/API/auth/livez');
    paths.add('/api/auth/v1/oauth/TOKEN/');
    expect(paths.size).toBeGreaterThan(3000);
    const wrong: string[] = [];
    for (const path of paths) {
      const matching = (layers: typeof routes) =>
        layers.filter((l) => {
          try {
            return !!l.match(path);
          } catch {
            return true;
          }
        });
      const linear = matching(routes);
      const indexed = matching(routeLayersFor(express(), path));
      if (linear.length !== indexed.length || linear.some((l, i) => l !== indexed[i])) wrong.push(path);
    }
    expect(wrong).toEqual([]);
  });

  it('answers as the router did: deep routes, case, trailing slash, HEAD, 405 with Allow', async () => {
    // the token endpoint is the 122nd route; the JWKS a GET route (HEAD answers it without a body)
    const token = await t.http
      .post('/API/auth/v1/oauth/token/')
      .type('form')
      .send({ grant_type: 'nonsense' });
    // no client authentication: the endpoint's own OAuth error, not the 404 handler's
    expect(token.status).toBe(401);
    expect(token.body).toMatchObject({ error: 'invalid_client' });
    expect((await t.http.get('/api/AUTH/LIVEZ')).status).toBe(200);
    const head = await t.http.head('/API/auth/v1/oauth/jwks/');
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    const put = await t.http.put('/API/auth/v1/oauth/jwks/');
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
    const missing = await t.http.get('/API/auth/v1/no-such-route/');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ errors: ['Not found: GET /API/auth/v1/no-such-route/'] });
  });
});
