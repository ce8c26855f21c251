import type { Response } from 'supertest';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from './auth.js';
import type { TestApp } from './create-test-app.js';

/** SCIM 2.0 (issue 43) as the provisioning clients (Okta, Entra ID) speak it: small helpers for the e2e suite. */

export const SCIM = '/API/scim/v2';
export const SCIM_TOKENS = '/API/auth/v1/system_domains/current/scim/tokens/';
export const SCIM_JSON = 'application/scim+json';

export const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const CORE_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export interface ScimOp {
  op: string;
  path?: string;
  value?: unknown;
}

type Headers = Record<string, string>;

/** A SCIM client holding one provisioning token; every request is sent as `application/scim+json`. */
export class ScimClient {
  constructor(
    private readonly t: TestApp,
    readonly token: string,
  ) {}

  private headers(extra: Headers = {}): Headers {
    return { ...bearer(this.token), Accept: SCIM_JSON, ...extra };
  }

  get(path: string, query: Record<string, string | number> = {}, headers?: Headers) {
    return this.t.http.get(`${SCIM}${path}`).query(query).set(this.headers(headers));
  }

  post(path: string, body: unknown, headers?: Headers) {
    return this.t.http
      .post(`${SCIM}${path}`)
      .set(this.headers({ 'Content-Type': SCIM_JSON, ...headers }))
      .send(body as object);
  }

  put(path: string, body: unknown, headers?: Headers) {
    return this.t.http
      .put(`${SCIM}${path}`)
      .set(this.headers({ 'Content-Type': SCIM_JSON, ...headers }))
      .send(body as object);
  }

  /** A PatchOp message with these operations. */
  patch(path: string, operations: ScimOp[], headers?: Headers) {
    return this.t.http
      .patch(`${SCIM}${path}`)
      .set(this.headers({ 'Content-Type': SCIM_JSON, ...headers }))
      .send({ schemas: [PATCH_OP], Operations: operations });
  }

  delete(path: string, headers?: Headers) {
    return this.t.http.delete(`${SCIM}${path}`).set(this.headers(headers));
  }

  /** `GET /Users?filter=…` (or /Groups): the ids found, sorted. */
  async idsOf(resource: '/Users' | '/Groups', filter: string): Promise<string[]> {
    const res = await this.get(resource, { filter, count: 200 });
    if (res.status !== 200) throw new Error(`filter ${filter}: ${res.status} ${JSON.stringify(res.body)}`);
    return ((res.body.Resources ?? []) as { id: string }[]).map((r) => r.id).sort();
  }
}

/** RFC 7644 §3.12's scimType values. */
export const SCIM_TYPES = [
  'uniqueness',
  'invalidFilter',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'mutability',
  'invalidVers',
  'tooMany',
  'sensitive',
];

/** The SCIM error body (RFC 7644 §3.12): status a string; scimType exactly when given, else any or none. */
export function scimError(status: number, scimType?: string) {
  return {
    schemas: [ERROR],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail: expect.any(String),
  };
}

/** The status, the SCIM error body and its media type, in one readable failure. */
export function expectScimError(res: Response, status: number, scimType?: string): void {
  const { scimType: given, ...rest } = (res.body ?? {}) as Record<string, unknown>;
  expect({ status: res.status, body: scimType ? res.body : rest }).toEqual({
    status,
    body: scimError(status, scimType) as unknown,
  });
  if (given !== undefined) expect(SCIM_TYPES).toContain(given);
  expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
}

/** The status and body in one readable failure (the body shows when the status is not the one expected). */
export function expectStatus(res: Response, status: number): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
}

/** A user as Okta and Entra send it to POST /Users. */
export function scimUser(
  email: string,
  o: {
    externalId?: string;
    givenName?: string;
    familyName?: string;
    active?: boolean;
    department?: string;
  } = {},
): Record<string, unknown> {
  const givenName = o.givenName ?? 'Ada';
  const familyName = o.familyName ?? 'Lovelace';
  return {
    schemas: o.department ? [CORE_USER, ENTERPRISE] : [CORE_USER],
    userName: email,
    ...(o.externalId ? { externalId: o.externalId } : {}),
    name: { givenName, familyName },
    displayName: `${givenName} ${familyName}`,
    emails: [{ primary: true, value: email, type: 'work' }],
    active: o.active ?? true,
    ...(o.department ? { [ENTERPRISE]: { department: o.department } } : {}),
  };
}

/** A domain ready for provisioning: its administrator (and their login token) and a SCIM token they made. */
export interface ScimDomain {
  domainId: string;
  admin: UserEntity;
  /** the administrator's login token, for the users service and the token routes */
  adminH: Headers;
  scim: ScimClient;
  tokenId: string;
}

export async function scimDomain(t: TestApp, domainId?: string): Promise<ScimDomain> {
  const id = domainId ?? (await createDomain(t)).id;
  const admin = await createUser(t, { domainId: id, isAdmin: true });
  const adminH = bearer((await tokenFor(t, admin)).token);
  const res = await t.http.post(SCIM_TOKENS).set(adminH).send({});
  if (res.status !== 201) throw new Error(`SCIM token refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { domainId: id, admin, adminH, scim: new ScimClient(t, res.body.token), tokenId: res.body.id };
}

/** Creates a user over SCIM (201 expected) and returns the resource. */
export async function provision(
  scim: ScimClient,
  email: string,
  o: Parameters<typeof scimUser>[1] = {},
): Promise<Record<string, any>> {
  const res = await scim.post('/Users', scimUser(email, o));
  if (res.status !== 201) throw new Error(`POST /Users ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
