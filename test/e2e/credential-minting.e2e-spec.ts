import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AuthContext } from '../../src/base/common/auth/auth-context.js';
import { excess } from '../../src/base/common/auth/rights.js';
import { type JwtClaims, TokensService } from '../../src/credentials/tokens/tokens.service.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { COMMITTED_DOCUMENT } from '../utils/contract/contract-checker.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const APPS = '/API/auth/v1/apps';
const TOKEN = '/API/auth/v1/oauth/token/';

/**
 * The credential invariant over every operation that changes an app or yields its credentials, read from the
 * committed OpenAPI document (so a new route under /v1/apps/ or a new field of its body is covered without
 * editing this file): each operation × each field of its body (every enum value in turn, so a client-type
 * change goes public → confidential) × caller rank × acting user. Whatever credential material an answer
 * carries (a client_secret, a token) is turned into a token, whose rights must be within the caller's.
 */
interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  items?: Schema;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  requestBody?: { content: Record<string, { schema: Schema }> };
}
const DOC = JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const deref = (s: Schema): Schema => (s.$ref ? DOC.components.schemas[s.$ref.split('/').pop() as string] : s);

/** The collection, one app, and any action on one app (`{app_id}/token`, `{app_id}/secret`, …). */
const APP_PATH = /^\/API\/auth\/v1\/apps(\/\{app_id\}(\/[a-z_]+)?)?$/;
const OPERATIONS = Object.entries(DOC.paths)
  .filter(([path]) => APP_PATH.test(path))
  .flatMap(([path, item]) =>
    (['post', 'put', 'patch'] as const)
      .filter((m) => item[m])
      .map((method) => {
        const body = item[method].requestBody?.content['application/json']?.schema;
        return { path, method, schema: body ? deref(body) : null };
      }),
  );

type Rank = 'admin' | 'user';
type ActingKind = 'super' | 'admin' | 'user' | 'roleful' | 'adminElsewhere' | 'self';
/**
 * A super administrator holds every right, so nothing minted can exceed theirs: the check could not fail for
 * them (their happy paths are tested with the apps). The ranks that can be escalated from are these.
 */
const RANKS: Rank[] = ['admin', 'user'];
const ACTING: ActingKind[] = ['super', 'admin', 'user', 'roleful', 'adminElsewhere', 'self'];
/** The app a super administrator set up, acting as the acting user, that an operation on {app_id} acts on. */
const SETUPS = ['backend service', 'service account'] as const;

/** The bodies to send in turn for one field: a valid value of its type; each enum value for an enum. */
function valuesFor(field: string, schema: Schema, actingId: string): unknown[] {
  if (field === 'default_user_id') return [actingId];
  // every value, then every value again: each change between two values happens once (public → confidential)
  if (schema.enum) return [...schema.enum, ...schema.enum];
  if (schema.type === 'array') {
    const item = deref(schema.items ?? {});
    if (item.enum) return [[item.enum[item.enum.length - 1]]];
    if (field === 'redirect_uris') return [['https://client.example/other']];
    return [[]];
  }
  if (schema.format === 'uuid') return [randomUUID()];
  if (field === 'url') return ['https://app.example/'];
  return [`v-${randomUUID().slice(0, 6)}`];
}

/** One case: a list of request bodies (null: no body) for an operation, named for the test title. */
function variants(schema: Schema | null, actingId: string): { field: string; bodies: (object | null)[] }[] {
  if (!schema?.properties) return [{ field: '(no body)', bodies: [null] }];
  return Object.entries(schema.properties).map(([field, prop]) => ({
    field,
    bodies: valuesFor(field, deref(prop), actingId).map((v) => ({ [field]: v })),
  }));
}

describe('credential minting: every app operation of the document', () => {
  let t: TestApp;
  const callers = new Map<Rank, { user: UserEntity; token: string }>();
  const acting = new Map<string, UserEntity>();

  beforeAll(async () => {
    t = await createTestApp();
    for (const rank of RANKS) {
      const user = await createUser(t, {
        isAdmin: rank === 'admin',
        roles: rank === 'user' ? ['can_read_apps', 'can_write_apps'] : undefined,
      });
      callers.set(rank, { user, token: (await tokenFor(t, user)).token });
    }
    const other = await createDomain(t);
    const elsewhere = await createUser(t, { domainId: other.id, isAdmin: true });
    await t.ds
      .getRepository(UserSystemDomainEntity)
      .insert({ user_id: elsewhere.id, system_domain_id: t.domainId });
    acting.set('adminElsewhere', elsewhere);
    acting.set('roleful', await createUser(t, { roles: ['can_write_users', 'can_delete_users'] }));
    for (const kind of ['super', 'admin', 'user'] as const) {
      acting.set(kind, await createUser(t, { isSuperAdmin: kind === 'super', isAdmin: kind === 'admin' }));
    }
  });
  afterAll(() => t.close());

  it('finds the operations in the document: create, replace, update, a PAT, a secret rotation', () => {
    expect(OPERATIONS.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      expect.arrayContaining([
        `patch ${APPS}/{app_id}`,
        `post ${APPS}`,
        `post ${APPS}/{app_id}/secret`,
        `post ${APPS}/{app_id}/token`,
        `put ${APPS}/{app_id}`,
      ]),
    );
  });

  /** What a token may do, exactly as the guard computes it on a request. */
  function rightsOfToken(token: string): Promise<AuthContext> {
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as JwtClaims;
    return t.get(TokensService).authenticate(claims, token, 'credential-minting');
  }

  /** Every token an answer's credential material yields: its token, or its client secret's grant. */
  async function credentialsIn(body: Record<string, unknown>, appId: string): Promise<string[]> {
    const out: string[] = [];
    for (const key of ['token', 'access_token']) if (typeof body[key] === 'string') out.push(body[key]);
    if (typeof body.client_secret === 'string') {
      const res = await t.http
        .post(TOKEN)
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: appId, client_secret: body.client_secret });
      if (res.status === 200) out.push(res.body.access_token as string);
      else expect(res.status).toBeLessThan(500);
    }
    return out;
  }

  /**
   * The app as a super administrator would have set it up: acting as the acting user, with that user's
   * rights now as its ceiling (inserted directly: the set-up is not what is under test, and it is cheaper).
   */
  async function setUp(setup: (typeof SETUPS)[number], actingId: string): Promise<string> {
    const app =
      setup === 'service account'
        ? await createApp(t, { type: 'PAT', defaultUserId: actingId })
        : await createApp(t, {
            type: 'OAUTH',
            clientType: 'confidential',
            defaultUserId: actingId,
            redirectUris: ['https://client.example/cb'],
          });
    return app.id;
  }

  const cases = OPERATIONS.flatMap((op) =>
    // the field names come from the document; the acting user's id is filled in per case
    variants(op.schema, '{acting}').flatMap((v) =>
      (op.path.includes('{app_id}') ? SETUPS : (['(new app)'] as const)).map((setup) => ({
        op,
        field: v.field,
        setup,
      })),
    ),
  );
  const matrix = cases.flatMap((c) =>
    RANKS.flatMap((rank) =>
      ACTING.map(
        (kind) => [`${c.op.method.toUpperCase()} ${c.op.path}`, c.field, c.setup, rank, kind, c] as const,
      ),
    ),
  );

  it.each(matrix)(
    '%s, field %s, on a %s: %s caller, %s acting user: refused or within the caller’s rights',
    async (_op, field, setup, rank, kind, c) => {
      const who = callers.get(rank)!;
      const actingUser = kind === 'self' ? who.user : acting.get(kind)!;
      const appId = setup === '(new app)' ? null : await setUp(setup, actingUser.id);
      const path = c.op.path.replace('{app_id}', appId ?? '') + '/';
      const bodies = variants(c.op.schema, actingUser.id).find((v) => v.field === field)!.bodies;
      // a new app starts as a backend service acting as the acting user, with the field's value on top
      const base = appId
        ? {}
        : {
            name: `n-${randomUUID().slice(0, 6)}`,
            type: 'OAUTH',
            oauth_client_type: 'confidential',
            default_user_id: actingUser.id,
            allowed_scopes: [],
          };
      const own = await rightsOfToken(who.token);
      for (const body of bodies) {
        const res = await t.http[c.op.method](path)
          .set(bearer(who.token))
          .send(body === null ? undefined : { ...base, ...body });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 300) continue;
        for (const token of await credentialsIn(res.body, appId ?? res.body.id)) {
          const minted = await rightsOfToken(token);
          expect({ field, beyond: excess(minted, own) }).toEqual({ field, beyond: [] });
          expect(minted.systemDomainId).toBe(t.domainId);
        }
      }
    },
  );
});
