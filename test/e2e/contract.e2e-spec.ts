import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  compileTemplate,
  ContractChecker,
  type Exchange,
  NOT_IN_DOCUMENT,
  type Violation,
} from '../utils/contract/contract-checker.js';
import { componentRef } from '../utils/contract/json-schema.js';
import { contractChecker, recordContract, takeViolations } from '../utils/contract/recorder.js';

/**
 * The contract check itself (test/utils/contract/): every e2e suite holds each response its app sends against
 * the committed OpenAPI document and fails on one the document does not declare. This suite shows that the
 * document is fully resolvable by the checker, and that the checker catches what it is meant to catch.
 */

const APP = '/API/auth/v1/apps/{app_id}';
const problemsOf = (violations: Violation[]) => violations.flatMap((v) => v.problems);

describe('contract check', () => {
  const checker = contractChecker();

  describe('the committed document', () => {
    it('has operations, and the checker resolves every one by method and a path of its template', () => {
      const ops = checker.allOperations();
      expect(ops.length).toBeGreaterThan(30);
      const misrouted = ops.flatMap((op) => {
        const concrete = op.template.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        return [concrete, `${concrete}/`].flatMap((path) => {
          const found = checker.resolve(op.method, path).operation;
          return found === op ? [] : [`${op.method} ${path} → ${found?.operationId ?? 'nothing'}`];
        });
      });
      expect(misrouted).toEqual([]);
    });

    it('compiles the schema of every declared response ($refs resolved, formats known)', () => {
      const broken = checker.allOperations().flatMap((op) =>
        Object.entries(op.responses).flatMap(([status, response]) =>
          Object.entries(response.content ?? {}).flatMap(([mediaType, { schema }]) => {
            try {
              checker.validator(`${op.method} ${op.template} ${status} ${mediaType}`, schema);
              return [];
            } catch (e) {
              return [`${op.operationId} ${status} ${mediaType}: ${(e as Error).message}`];
            }
          }),
        ),
      );
      expect(broken).toEqual([]);
    });

    it('declares no response by $ref (the checker reads content inline) and no $ref outside the components', () => {
      const refs = checker
        .allOperations()
        .flatMap((op) => Object.entries(op.responses).filter(([, r]) => r.$ref))
        .map(([status]) => status);
      expect(refs).toEqual([]);
      expect(() => componentRef('#/definitions/X')).toThrow(/unsupported/);
    });

    it('puts every format on the type it applies to (a `string | null` field without `type` comes out as an object)', () => {
      const FORMAT_TYPES: Record<string, string> = {
        'date-time': 'string',
        uri: 'string',
        uuid: 'string',
        email: 'string',
        password: 'string',
        int32: 'integer',
        int64: 'integer',
      };
      const misplaced: string[] = [];
      const walk = (schema: unknown, at: string): void => {
        if (!schema || typeof schema !== 'object') return;
        const s = schema as Record<string, unknown>;
        if (typeof s.format === 'string' && s.type !== FORMAT_TYPES[s.format]) {
          misplaced.push(`${at}: format ${s.format} on type ${String(s.type)}`);
        }
        for (const [k, v] of Object.entries(s)) {
          if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}.${k}[${i}]`));
          else walk(v, `${at}.${k}`);
        }
      };
      walk(checker.document.components?.schemas, 'components.schemas');
      expect(misplaced).toEqual([]);
    });

    it('prefers a literal segment to a parameter, as the routes are declared', () => {
      expect(checker.resolve('POST', '/API/auth/v1/apps/instance/').operation?.operationId).toBe(
        'approveAppInstance',
      );
      // no GET on /apps/instance: Express routes it to /apps/:app_id
      expect(checker.resolve('GET', '/API/auth/v1/apps/instance').operation?.operationId).toBe('getApp');
      expect(checker.resolve('HEAD', '/API/auth/v1/apps/').operation?.operationId).toBe('listApps');
      expect(compileTemplate(APP).test('/api/auth/v1/apps/x/')).toBe(true);
      expect(compileTemplate(APP).test('/API/auth/v1/apps/x/y')).toBe(false);
    });

    it('leaves out only the surfaces listed, each with a reason', () => {
      for (const s of NOT_IN_DOCUMENT) expect(s.why.length).toBeGreaterThan(20);
      expect(checker.isChecked('/oauth/authorize?client_id=x')).toBe(false);
      expect(checker.isChecked('/API/auth/spec/ui/index.html')).toBe(false);
      expect(checker.isChecked('/API/auth/v1/oauth/authorize')).toBe(true);
      expect(checker.isChecked('/.well-known/oauth-authorization-server')).toBe(true);
    });
  });

  describe('against a real response', () => {
    let t: TestApp;
    let h: Record<string, string>;
    let appPath: string;
    let app: Record<string, unknown>;
    beforeAll(async () => {
      t = await createTestApp();
      h = bearer((await tokenFor(t, t.admin)).token);
      const created = await t.http.post('/API/auth/v1/apps/').set(h).send({ name: 'contract' }).expect(201);
      appPath = `/API/auth/v1/apps/${created.body.id}/`;
      app = (await t.http.get(appPath).set(h).expect(200)).body;
    });
    afterAll(() => t.close());

    const json = (status: number, body: unknown, over: Partial<Exchange> = {}): Exchange => ({
      method: 'GET',
      url: appPath,
      status,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(body),
      ...over,
    });

    it('the app’s own answers break no rule (what every suite relies on)', async () => {
      await t.http.get('/API/auth/v1/apps/').set(h).expect(200);
      await t.http.get(appPath.slice(0, -1)).set(h).expect(200);
      await t.http.head(appPath).set(h).expect(200);
      await t.http.get('/API/auth/v1/apps/?per_page=0').set(h).expect(400);
      await t.http.get('/API/auth/v1/apps/not-an-id/').set(h).expect(404);
      await t.http.get('/API/auth/v1/apps/').expect(401);
      await t.http.get('/API/auth/v1/nothing-here/').expect(404);
      await t.http.put('/API/auth/v1/apps/').set(h).send({}).expect(405);
      await t.http.get('/API/auth/spec/ui/').expect(200); // left out on purpose
      expect(takeViolations()).toEqual([]);
      expect(checker.check(json(200, app))).toEqual([]);
    });

    it('reports a status the operation does not declare', () => {
      const [v] = checker.check(json(418, { errors: ['teapot'] }));
      expect(v).toMatchObject({ method: 'GET', status: 418, operation: `getApp GET ${APP}` });
      expect(v.problems).toEqual([expect.stringMatching(/^status 418 is not declared \(declared: 200, /)]);
    });

    it('lets a path that does not decode as UTF-8 answer 400, 413 or 415 {errors}, also where a template would match it', () => {
      // GET /v1/auth/token/{token_id} declares no 400: only the router's refusal of the path can give one
      const undecodable = '/API/auth/v1/auth/token/x%ED%A0%80y/';
      expect(checker.check(json(400, { errors: ['x'] }, { url: '/API/auth/v1/auth/token/xy/' }))).not.toEqual(
        [],
      );
      expect(checker.check(json(400, { errors: ['Malformed path'] }, { url: undecodable }))).toEqual([]);
      expect(problemsOf(checker.check(json(400, { message: 'bad' }, { url: undecodable })))).not.toEqual([]);
      // the body parsers run before the router: a body they refuse is answered first, in the same form
      expect(
        checker.check(json(413, { errors: ['request entity too large'] }, { url: undecodable })),
      ).toEqual([]);
      expect(checker.check(json(415, { errors: ['unsupported charset'] }, { url: undecodable }))).toEqual([]);
      expect(problemsOf(checker.check(json(413, { detail: 'x' }, { url: undecodable })))).not.toEqual([]);
      // and only what those layers answer gets the pass
      expect(checker.check(json(418, { errors: ['x'] }, { url: undecodable }))).not.toEqual([]);
      expect(checker.check(json(200, { errors: ['x'] }, { url: undecodable }))).not.toEqual([]);
    });

    it('reports a missing required field, a wrong type, an undeclared field, a bad enum value', () => {
      const { name: _name, ...withoutName } = app;
      expect(problemsOf(checker.check(json(200, withoutName)))).toEqual([
        '(body): required property "name" is missing',
      ]);
      expect(problemsOf(checker.check(json(200, { ...app, redirect_uris: 'x' })))).toEqual([
        '/redirect_uris: must be array (got string)',
      ]);
      expect(problemsOf(checker.check(json(200, { ...app, secret_sauce: 1 })))).toEqual([
        '(body): property "secret_sauce" is not declared',
      ]);
      expect(problemsOf(checker.check(json(200, { ...app, type: 'ROBOT' })))).toEqual([
        '/type: must be equal to one of the allowed values',
      ]);
    });

    it('allows null only where the document says nullable', () => {
      expect(checker.check(json(200, { ...app, description: null, oauth_client_type: null }))).toEqual([]);
      expect(problemsOf(checker.check(json(200, { ...app, name: null })))).toEqual([
        '/name: must be string (got null)',
      ]);
    });

    it('reports a date-time that is not in the wire form (microseconds, +00:00)', () => {
      const iso = new Date().toISOString();
      expect(problemsOf(checker.check(json(200, { ...app, date_created: iso })))).toEqual([
        '/date_created: must be a wire date-time like 2026-11-23T11:45:37.269000+00:00 (got "0000-00-00T00:00:00.000Z")',
      ]);
      expect(
        problemsOf(checker.check(json(200, { ...app, date_modified: '2026-11-23T11:45:37+00:00' }))),
      ).toEqual([
        '/date_modified: must be a wire date-time like 2026-11-23T11:45:37.269000+00:00 (got "0000-00-00T00:00:00+00:00")',
      ]);
      const list = { ...app, date_created: '2026-11-23T11:45:37.269000+00:00' };
      expect(checker.check(json(200, list))).toEqual([]);
    });

    it('reports an error body out of shape, on the platform’s and on the OAuth surface', () => {
      expect(problemsOf(checker.check(json(404, { message: 'Not Found' })))).toEqual([
        '(body): required property "errors" is missing',
        '(body): property "message" is not declared',
      ]);
      expect(checker.check(json(404, { errors: { app_id: 'unknown' } }))).toEqual([]);
      const token = { method: 'POST', url: '/API/auth/v1/oauth/token' };
      expect(checker.check(json(400, { error: 'invalid_grant', error_description: 'x' }, token))).toEqual([]);
      expect(problemsOf(checker.check(json(400, { errors: ['invalid_grant'] }, token)))).toEqual([
        '(body): required property "error" is missing',
        '(body): required property "error_description" is missing',
        '(body): property "errors" is not declared',
      ]);
    });

    it('reports a body or content type the document does not declare, and a missing body', () => {
      expect(problemsOf(checker.check(json(204, { ok: true }, { method: 'DELETE' })))).toEqual([
        'a body (application/json) where the document declares none',
      ]);
      expect(
        problemsOf(checker.check(json(200, app, { contentType: 'text/html; charset=utf-8', body: '<p>' }))),
      ).toEqual(['Content-Type text/html is not declared (declared: application/json)']);
      expect(problemsOf(checker.check(json(200, app, { body: '' })))).toEqual([
        'no body, but the document declares application/json',
      ]);
      expect(problemsOf(checker.check(json(200, app, { body: '{"id":' })))).toEqual([
        'the application/json body is not JSON',
      ]);
    });

    it('reports a route outside the document that answers anything but 404/405 in the {errors} shape', () => {
      const at = (url: string, status: number, body: unknown, method = 'GET') =>
        problemsOf(checker.check(json(status, body, { url, method })));
      expect(at('/API/auth/v1/secret-admin/', 200, {})).toEqual([
        'no operation of the document matches this path, yet it answered 200',
      ]);
      expect(at('/API/auth/v1/apps/', 200, {}, 'PUT')).toEqual([
        'PUT is not an operation of this path in the document, yet it answered 200',
      ]);
      expect(at('/API/auth/v1/apps/', 405, { errors: ['Method PUT not allowed'] }, 'PUT')).toEqual([]);
      expect(at('/nowhere', 404, 'Cannot GET /nowhere')).toEqual(['(body): must be object (got string)']);
    });

    it('holds CORS preflights to the CORS layer’s two answers', () => {
      const preflight = (status: number, body: unknown) =>
        problemsOf(
          checker.check(json(status, body, { method: 'OPTIONS', preflight: true, body: body as string })),
        );
      expect(preflight(204, '')).toEqual([]);
      expect(preflight(403, JSON.stringify({ errors: ['Origin not allowed'] }))).toEqual([]);
      expect(preflight(200, '')).toEqual(['a CORS preflight answered 200 (expected 204 or 403)']);
    });
  });

  describe('the recorder', () => {
    // a stand-in service on the recorder, answering whatever the test scripts, the way Express writes
    let server: Server;
    let answer: { status: number; type?: string; chunks: string[] };
    beforeAll(() => {
      server = createServer((_req, res) => {
        res.statusCode = answer.status;
        if (answer.type) res.setHeader('Content-Type', answer.type);
        const [last, ...first] = [...answer.chunks].reverse();
        for (const c of first.reverse()) res.write(c);
        res.end(last);
      });
      recordContract(server, ContractChecker.fromCommittedDocument());
    });

    const get = async (path: string, a: typeof answer) => {
      answer = a;
      await request(server).get(path);
      return takeViolations();
    };
    const JSON_TYPE = 'application/json; charset=utf-8';

    it('records each response the server sends, body written in pieces, and fails the suite on it', async () => {
      const v = await get('/API/auth/v1/apps/?per_page=1', {
        status: 200,
        type: JSON_TYPE,
        chunks: ['{"objects": [], "page": 1, ', '"total": 0}'],
      });
      expect(v).toEqual([
        expect.objectContaining({
          method: 'GET',
          path: '/API/auth/v1/apps/',
          operation: 'listApps GET /API/auth/v1/apps',
          status: 200,
          problems: expect.arrayContaining(['(body): required property "pages" is missing']),
          test: expect.stringContaining('records each response'),
        }),
      ]);
    });

    it('reports an undeclared status, a missing field and a Z date through the recorder too', async () => {
      const path = '/API/auth/v1/apps/00000000-0000-4000-8000-000000000000';
      expect(
        problemsOf(await get(path, { status: 500, type: JSON_TYPE, chunks: ['{"errors":["x"]}'] })),
      ).toEqual([expect.stringMatching(/^status 500 is not declared/)]);
      const badDate = await get('/API/auth/v1/auth/tokens', {
        status: 200,
        type: JSON_TYPE,
        chunks: [JSON.stringify({ objects: [{ date_created: '2026-11-23T11:45:37.269Z' }] })],
      });
      expect(problemsOf(badDate)).toEqual(
        expect.arrayContaining([
          '/objects/*/date_created: must be a wire date-time like 2026-11-23T11:45:37.269000+00:00 (got "0000-00-00T00:00:00.000Z")',
          '/objects/*: required property "id" is missing',
        ]),
      );
    });

    it('leaves the surfaces outside the document alone', async () => {
      expect(await get('/oauth/authorize', { status: 200, type: 'text/html', chunks: ['<html>'] })).toEqual(
        [],
      );
    });
  });
});
