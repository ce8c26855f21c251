import { createTestApp, type TestApp } from '../utils/create-test-app.js';

/** GET /API/auth/: the path the spec lists without a payload, as a small index of the service (issue 21). */
describe('service index /API/auth/', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('names the service and its version and links the spec, its UI and the health checks, with and without the slash', async () => {
    for (const path of ['/API/auth/', '/API/auth']) {
      const res = await t.http.get(path).expect(200);
      expect(res.body).toEqual({
        service: 'portcullis',
        version: '2.0.0',
        spec: '/API/auth/spec/',
        spec_ui: '/API/auth/spec/ui/',
        health: ['/API/auth/livez/', '/API/auth/readyz/'],
      });
      expect(res.headers['ratelimit-remaining']).toBeDefined();
    }
    // every link it gives answers
    const index = (await t.http.get('/API/auth/').expect(200)).body;
    for (const link of [index.spec, index.spec_ui, ...index.health]) {
      await t.http.get(link).expect(200);
    }
    // the spec's version is the index's
    expect((await t.http.get(index.spec).expect(200)).body.info.version).toBe(index.version);
    // only GET: a write is not a route here
    expect((await t.http.post('/API/auth/').send({})).status).toBeGreaterThanOrEqual(404);
  });
});
