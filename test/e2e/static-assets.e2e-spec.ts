import { createHash } from 'node:crypto';
import { PAGE_STYLE } from '../../src/base/common/html/page-style.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const STATIC = '/API/auth/static';

/** /API/auth/static/{filename}: a fixed set of assets, by exact name, never a path on disk. */
describe('static assets', () => {
  let t: TestApp;
  const css = PAGE_STYLE.trim() + '\n';
  const sha = createHash('sha256').update(css).digest('hex');
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves the pages’ style sheet with its type, nosniff, an ETag and a revalidated cache', async () => {
    const res = await t.http.get(`${STATIC}/portcullis.css`).expect(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toBe(`"${sha}"`);
    expect(res.headers['cache-control']).toBe('public, max-age=3600, must-revalidate');
    expect(res.text).toBe(css);
    await t.http.get(`${STATIC}/portcullis.css`).set('If-None-Match', `"${sha}"`).expect(304);
    await t.http.get(`${STATIC}/portcullis.css`).set('If-None-Match', '"other"').expect(200);
  });

  it('serves the content-hashed name for a year, and the favicon as SVG', async () => {
    const res = await t.http.get(`${STATIC}/portcullis.${sha.slice(0, 12)}.css`).expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.text).toBe(css);
    await t.http.get(`${STATIC}/portcullis.000000000000.css`).expect(404);
    const icon = await t.http.get(`${STATIC}/favicon.svg`).expect(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['content-security-policy']).toContain('sandbox');
    expect(icon.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never leaves the set: traversal, encoded separators, absolute paths and NUL miss', async () => {
    for (const name of [
      'nope.css',
      '..%2Fpackage.json',
      '%2e%2e%2fpackage.json',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '%2Fetc%2Fpasswd',
      'portcullis.css%00.png',
      '..%5c..%5cpackage.json',
      'PORTCULLIS.CSS',
      'constructor',
      '__proto__',
    ]) {
      const res = await t.http.get(`${STATIC}/${name}`);
      expect([400, 404]).toContain(res.status);
      expect(res.body.errors).toBeDefined();
      expect(res.text).not.toContain('"name": "portcullis"');
    }
    for (const path of [`${STATIC}/../package.json`, `${STATIC}/../../etc/passwd`, `${STATIC}//etc/passwd`]) {
      const res = await t.http.get(path);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('portcullis');
    }
  });

  it('leaves the pages’ own CSP as it was: the style stays inline, the same text as the served sheet', async () => {
    const res = await t.http.get(`/login/email/${'a'.repeat(43)}`);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain(`<style>${PAGE_STYLE}</style>`);
    expect(res.headers['content-security-policy']).toContain("style-src 'unsafe-inline'");
  });
});
