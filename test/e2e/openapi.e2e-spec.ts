import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const COMMITTED = new URL('../../openapi/openapi.json', import.meta.url);
const REGENERATE =
  'openapi/openapi.json is out of date: run `npm run openapi:generate` and commit the result';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  operationId?: string;
  responses?: Record<string, unknown>;
}

function readCommitted(): unknown {
  try {
    return JSON.parse(readFileSync(COMMITTED, 'utf8'));
  } catch (err) {
    throw new Error(`${REGENERATE} (${(err as Error).message})`);
  }
}

/** `METHOD /path` → operation, for every operation of the document. */
function operations(doc: { paths: Record<string, Record<string, unknown>> }): [string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op as Operation]),
  );
}

/** JSON paths where `a` and `b` differ (`a` is the committed document, `b` the served one). */
function differences(a: unknown, b: unknown, at = '$'): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (isObj(a) && isObj(b) && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => {
      const path = `${at}.${k}`;
      if (!(k in a)) return [`${path}: added`];
      if (!(k in b)) return [`${path}: removed`];
      return differences(a[k], b[k], path);
    });
  }
  return [`${at}: ${JSON.stringify(a)?.slice(0, 80)} → ${JSON.stringify(b)?.slice(0, 80)}`];
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let served: { openapi: string; paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    t = await createTestApp();
    served = (await t.http.get('/API/auth/spec/').expect(200).expect('Content-Type', /json/)).body;
  });
  afterAll(() => t.close());

  it('is served with and without the trailing slash', async () => {
    const bare = await t.http.get('/API/auth/spec').expect(200);
    expect(bare.body).toEqual(served);
  });

  it('matches the committed openapi/openapi.json', () => {
    const committed = readCommitted();
    if (!isDeepStrictEqual(served, committed)) {
      const diffs = differences(committed, served);
      throw new Error(
        `${REGENERATE}.\n${diffs.length} difference(s) (committed → served):\n  ${diffs.slice(0, 30).join('\n  ')}`,
      );
    }
  });

  it('is OpenAPI 3.0.3', () => {
    expect(served.openapi).toBe('3.0.3');
  });

  it('serves the Swagger UI', async () => {
    const res = await t.http.get('/API/auth/spec/ui/').expect(200);
    expect(res.headers['content-type']).toMatch(/html/);
    expect(res.text).toContain('swagger-ui');
  });

  // Operations that answer every caller the same and cannot fail while the process runs: nothing to document.
  const CANNOT_FAIL = ['getLiveness', 'getCallerIp', 'getJwks', 'getAuthorizationServerMetadata'];

  it('gives every operation an operationId, a 2xx (or a browser redirect) and an error response', () => {
    const ops = operations(served);
    expect(ops.length).toBeGreaterThan(0);
    const problems = ops.flatMap(([name, op]) => {
      const codes = Object.keys(op.responses ?? {});
      const exempt = CANNOT_FAIL.includes(String(op.operationId));
      return [
        ...(op.operationId ? [] : [`${name}: no operationId`]),
        // a browser endpoint (SAML sso/acs/slo) succeeds with a redirect: 302/303 counts as its success
        ...(codes.some((c) => /^(2\d\d|302|303)$/.test(c)) ? [] : [`${name}: no 2xx response`]),
        ...(exempt || codes.some((c) => /^[45]\d\d$/.test(c)) ? [] : [`${name}: no error response`]),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('has unique operationIds', () => {
    const ids = operations(served).map(([, op]) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});
