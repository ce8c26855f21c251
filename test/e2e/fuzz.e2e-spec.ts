import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { AUTHORIZATION_PARAMS } from '../../src/sign-in/oauth/consent/consent-pages.js';
import { createApp, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { changedSince, changeMark, installChangeLog } from '../utils/fuzz/change-log.js';
import {
  bodyFor,
  encode,
  hostileString,
  POISON,
  poisonedBodyFor,
  rawBody,
  valueFor,
} from '../utils/fuzz/hostile.js';
import { type Operation, operationsOf } from '../utils/fuzz/operations.js';

/**
 * Property-based fuzzing of every operation of the OpenAPI document (and the consent page, which the
 * document leaves out), as anonymous and as a super administrator: wrong types, huge, deep, NUL,
 * surrogate, RTL, SQL-looking and extra fields. No request may answer 5xx, and a request answered 4xx
 * may change nothing in the database.
 *
 * FUZZ_SEED fixes the seed (default 20261123; `random` picks one and prints it), FUZZ_RUNS the cases per
 * operation and identity (default 10), FUZZ_ONLY a regular expression over the paths to fuzz. A failure prints
 * the seed and the request to reproduce it.
 */
const SEED =
  process.env.FUZZ_SEED === 'random'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
/** FUZZ_ONLY=<regex> limits the suite to the operations whose path matches (e.g. `^/API/(assets|search)/`). */
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : null;
/** The time budget (a guard against a hang, not a speed test) grows with the document: 100 ms per case, twice
 * what a case takes on a quiet 2-core machine, so a loaded machine or a second jest worker leaves room. */
const DOCUMENT_OPERATIONS = Object.values(
  JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')).paths as Record<
    string,
    object
  >,
).reduce((n: number, item) => n + Object.keys(item).length, 0);

/** Pages outside the API document, fuzzed too (HTML answers, same rules). */
const EXTRA: Operation[] = [
  { method: 'get', path: '/oauth/authorize', pathParams: [], query: [], body: null, secured: false },
  {
    method: 'post',
    path: '/oauth/authorize',
    pathParams: [],
    query: [],
    body: { contentType: 'application/x-www-form-urlencoded', schema: { type: 'object' } },
    secured: false,
  },
  {
    method: 'post',
    path: '/oauth/authorize/login',
    pathParams: [],
    query: [],
    body: { contentType: 'application/x-www-form-urlencoded', schema: { type: 'object' } },
    secured: false,
  },
  // OpenID Connect RP-initiated logout (an HTML page like the consent page, outside the OpenAPI document)
  { method: 'get', path: '/oauth/logout', pathParams: [], query: [], body: null, secured: false },
  {
    method: 'post',
    path: '/oauth/logout',
    pathParams: [],
    query: [],
    body: { contentType: 'application/x-www-form-urlencoded', schema: { type: 'object' } },
    secured: false,
  },
];
/** Operations the suite leaves out, with the reason. */
const EXCLUDED: Record<string, string> = {};

const CONSENT_FIELDS = {
  type: 'object',
  properties: Object.fromEntries(
    [
      ...AUTHORIZATION_PARAMS,
      ...['csrf', 'decision', 'email', 'password'],
      // the logout page's fields
      ...['id_token_hint', 'post_logout_redirect_uri', 'client_id', 'confirm'],
    ].map((k) => [k, { type: 'string' }]),
  ),
};

interface Fuzzed {
  pathValues: string[];
  query: [string, string][];
  body:
    | { kind: 'none' }
    | { kind: 'json'; value: unknown }
    | { kind: 'form'; value: Record<string, string> }
    | { kind: 'raw'; text: string; contentType: string };
}

describe('fuzz: hostile input to every operation', () => {
  let t: TestApp;
  let operations: Operation[];
  let mintAdmin: () => Promise<string>;
  let mintScim: () => Promise<string>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    console.log(
      `fuzz seed ${SEED}, ${RUNS} runs per operation and identity (FUZZ_SEED=${SEED} to reproduce)`,
    );
    t = await createTestApp();
    const doc = (await t.http.get('/API/auth/spec').expect(200)).body;
    operations = [...operationsOf(doc), ...EXTRA].filter((op) => !ONLY || ONLY.test(op.path));
    await installChangeLog(t.ds);
    const admin = await createUser(t, { isSuperAdmin: true, isAdmin: true });
    mintAdmin = async () => (await tokenFor(t, admin)).token;
    const other = await createUser(t, { roles: ['can_read_apps'] });
    ids.app_id = (await createApp(t, { type: 'PAT', defaultUserId: other.id })).id;
    ids.user_id = other.id;
    ids.token_id = (await tokenFor(t, other)).id;
    ids.group_id = (
      await t.ds.getRepository(GroupEntity).save({ system_domain_id: t.domainId, name: 'fuzz', roles: [] })
    ).id;
    // issue 24: an asset and a metadata view of the domain, so their operations reach past the 404
    const adminHeaders = bearer(await mintAdmin());
    ids.asset_id = (
      await t.http.post('/API/assets/v1/assets/').set(adminHeaders).send({ title: 'fuzz' })
    ).body.id;
    ids.view_id = (
      await t.http
        .post('/API/metadata/v1/views/')
        .set(adminHeaders)
        .send({ name: 'fuzz', view_fields: [{ name: 'f' }] })
    ).body.id;
    // issue 38: a collection, a registered field (the view above registers `f`) and an object of the
    // metadata service, so the collections' and the fields' {id} operations reach past the 404 too
    ids.collection_id = (
      await t.http.post('/API/assets/v1/collections/').set(adminHeaders).send({ title: 'fuzz' }).expect(201)
    ).body.id;
    ids.field_name = 'f';
    ids.object_type = 'assets';
    ids.object_id = ids.asset_id;
    // issue 43: the SCIM service, fuzzed with a provisioning token of the domain (the `provisioning`
    // identity) and one user it provisioned, so its {id} operations reach past the 404
    const scimToken = (
      await t.http
        .post('/API/auth/v1/system_domains/current/scim/tokens/')
        .set(adminHeaders)
        .send({})
        .expect(201)
    ).body.token as string;
    // minted again after a success as the administrator's is: straight from the issuer, not through the
    // route, whose rate limit a hundred runs would reach
    mintScim = async () => (await tokenFor(t, admin, { kind: 'SCIM' })).token;
    ids.id = (
      await t.http
        .post('/API/scim/v2/Users')
        .set(bearer(scimToken))
        .send({ userName: 'fuzz-scim@example.com', name: { givenName: 'Fuzz' } })
        .expect(201)
    ).body.id;
    ids.name = 'User';
    ids.urn = 'urn:ietf:params:scim:schemas:core:2.0:User';
    ids.approved_instance_id = randomUUID();
    ids.invitation_id = randomUUID();
  });
  afterAll(() => t?.close());

  function requestArb(op: Operation): fc.Arbitrary<Fuzzed> {
    const pathValues = fc.tuple(
      ...op.pathParams.map((name) =>
        fc.oneof(
          { weight: 2, arbitrary: fc.constant(ids[name] ?? randomUUID()) },
          { weight: 1, arbitrary: fc.uuid() },
          // an empty, `.` or `..` segment names another path (another operation, answered before routing)
          { weight: 2, arbitrary: hostileString.filter((s) => s !== '' && s !== '.' && s !== '..') },
        ),
      ),
    );
    const query = fc
      .tuple(
        ...op.query.map((q) =>
          fc.option(
            valueFor(q.schema).map(
              (v) => [q.name, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string],
            ),
          ),
        ),
        fc.option(fc.tuple(fc.constantFrom('extra', 'query', '__proto__'), hostileString)),
        // one parameter poisoned, half of the time
        fc.option(
          fc.tuple(
            fc.constantFrom(...op.query.map((q) => q.name), 'extra'),
            fc.constantFrom(...POISON.filter((v): v is string => typeof v === 'string')),
          ),
          { freq: 1 },
        ),
      )
      .map((pairs) => pairs.filter((p): p is [string, string] => p !== null));
    let body: fc.Arbitrary<Fuzzed['body']> = fc.constant({ kind: 'none' as const });
    if (op.body?.contentType === 'application/json') {
      body = fc.oneof(
        { weight: 3, arbitrary: bodyFor(op.body.schema).map((value) => ({ kind: 'json' as const, value })) },
        {
          weight: 3,
          arbitrary: poisonedBodyFor(op.body.schema).map((value) => ({ kind: 'json' as const, value })),
        },
        { weight: 1, arbitrary: valueFor({}).map((value) => ({ kind: 'json' as const, value })) },
        {
          weight: 1,
          arbitrary: rawBody.map((text) => ({ kind: 'raw' as const, text, contentType: 'application/json' })),
        },
      );
    } else if (op.body) {
      const schema = op.path.startsWith('/oauth/') ? CONSENT_FIELDS : op.body.schema;
      body = fc.oneof(
        {
          weight: 6,
          arbitrary: fc.oneof(bodyFor(schema), poisonedBodyFor(schema)).map((v) => ({
            kind: 'form' as const,
            value: Object.fromEntries(
              Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]),
            ),
          })),
        },
        {
          weight: 1,
          arbitrary: rawBody.map((text) => ({
            kind: 'raw' as const,
            text,
            contentType: op.body!.contentType,
          })),
        },
      );
    }
    return fc.record({ pathValues, query, body }) as fc.Arbitrary<Fuzzed>;
  }

  async function send(op: Operation, f: Fuzzed, headers: Record<string, string>) {
    let path = op.path;
    op.pathParams.forEach((name, i) => {
      path = path.replace(`{${name}}`, encode(f.pathValues[i]));
    });
    const qs = f.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
    const req = t.http[op.method](qs ? `${path}?${qs}` : path).set(headers);
    if (f.body.kind === 'json')
      return req.set('Content-Type', 'application/json').send(JSON.stringify(f.body.value));
    if (f.body.kind === 'form') return req.type('form').send(f.body.value);
    if (f.body.kind === 'raw') return req.set('Content-Type', f.body.contentType).send(f.body.text);
    return req;
  }

  const describeCase = (op: Operation, who: string, f: Fuzzed, status: number, body: string) =>
    `${op.method.toUpperCase()} ${op.path} as ${who}: ${status}\n` +
    `request: ${JSON.stringify(f).slice(0, 600)}\nresponse: ${body.slice(0, 300)}`;

  it('reads every operation of the document (so the suite cannot pass vacuously)', () => {
    expect(operations.length).toBeGreaterThan(ONLY ? 0 : 45);
    expect(Object.keys(EXCLUDED)).toEqual([]);
  });

  it('the change log sees a change anywhere, and not a token being used (negative control)', async () => {
    const before = await changeMark(t.ds);
    await t.ds.query(`UPDATE users SET first_name = 'change-probe' WHERE id = $1`, [ids.user_id]);
    expect(await changedSince(t.ds, before)).toEqual(['users']);
    const again = await changeMark(t.ds);
    await t.ds.query('UPDATE tokens SET last_used_at = now()');
    await t.ds.query(`UPDATE users SET first_name = 'change-probe' WHERE id = $1`, [ids.user_id]);
    // a write rolled back is no change
    await expect(
      t.ds.transaction(async (m) => {
        await m.query(`DELETE FROM groups WHERE id = $1`, [ids.group_id]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await changedSince(t.ds, again)).toEqual([]);
    const third = await changeMark(t.ds);
    await t.ds.query(`UPDATE tokens SET last_used_at = now(), revoked_at = revoked_at WHERE id = $1`, [
      ids.token_id,
    ]);
    await t.ds.query(`UPDATE tokens SET expires = expires + interval '1 second' WHERE id = $1`, [
      ids.token_id,
    ]);
    expect(await changedSince(t.ds, third)).toEqual(['tokens']);
  });

  /** `provisioning`: a domain's SCIM token, on the SCIM service's operations only (no other route takes it). */
  const identities = ['anonymous', 'administrator', 'provisioning'] as const;
  const SCIM_OPERATION = /^\/API\/scim\/v2\//;

  it.each(identities)(
    'as %s: no 5xx, and nothing changes on a 4xx',
    async (who) => {
      const failures: string[] = [];
      // the administrator's token, minted again after any case that did not end in a 4xx: a success may have
      // revoked it (sign-out, token removal, a password change) or changed the account; a 4xx changes nothing
      // (the property below checks exactly that), so every case runs with a token that is valid
      let adminToken: string | null = null;
      const mint = who === 'provisioning' ? mintScim : mintAdmin;
      for (const [index, op] of operations.entries()) {
        if (who === 'provisioning' && !SCIM_OPERATION.test(op.path)) continue;
        const run = await fc.check(
          fc.asyncProperty(requestArb(op), async (f) => {
            const headers = who === 'anonymous' ? {} : bearer((adminToken ??= await mint()));
            const before = await changeMark(t.ds);
            const res = await send(op, f, headers);
            if (res.status < 400 || res.status >= 500) adminToken = null;
            const text = res.text ?? '';
            if (res.status >= 500) throw new Error(`5xx — ${describeCase(op, who, f, res.status, text)}`);
            if (res.status >= 400) {
              const changed = await changedSince(t.ds, before);
              if (changed.length) {
                throw new Error(
                  `${changed.join(', ')} changed on a 4xx — ${describeCase(op, who, f, res.status, text)}`,
                );
              }
            }
          }),
          { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
        );
        if (run.failed) {
          const error =
            run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
          failures.push(`${error}\n(seed ${run.seed}, path ${run.counterexamplePath})`);
        }
      }
      expect(failures).toEqual([]);
    },
    // a guard against a hang, not a speed check: 250 ms a case on average (on the quiet 2-core CI machine a case
    // took about 20 ms; with the machine shared by other suites, 100 ms a case was not always enough)
    30_000 + RUNS * Math.max(133, DOCUMENT_OPERATIONS) * 250,
  );
});
