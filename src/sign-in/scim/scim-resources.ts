import { createHash } from 'node:crypto';
import { isEmail } from 'class-validator';
import type SCIMMY from 'scimmy';
import { ScimError } from '../../base/common/errors/scim-error.js';
import { emailProblem, normalizeEmail } from '../../base/common/validation/email-rules.js';
import type { ScimEnterprise } from '../../base/model/scim-profile.entity.js';
import type { UserStatus } from '../../base/model/user.entity.js';
import type { ScimGroupRow, ScimUserRow } from './scim.repository.js';
import type { Narrowing } from './scim.repository.js';
import {
  listResponse,
  matching,
  narrowing,
  paging,
  parseFilter,
  projection,
  type ResourceKeys,
  type ScimListQuery,
} from './scim-query.js';
import { SCIM, scimSchemas } from './scim-schemas.js';

export type Resource = Record<string, unknown>;

export const USER_KEYS: ResourceKeys = {
  folded: ['userName', 'displayName'],
  foldedValues: ['emails'],
  key: 'userName',
  keyValues: 'emails',
};
export const GROUP_KEYS: ResourceKeys = { folded: ['displayName'], foldedValues: [], key: 'displayName' };

/** RFC 7644 §3.14: a weak version of what the resource says (its meta aside), so any change changes it. */
function version(resource: Resource): string {
  return `W/"${createHash('sha256').update(JSON.stringify(resource)).digest('base64url').slice(0, 22)}"`;
}

/** The answer to a write or a read of one resource: the resource, and its version for the ETag header. */
export interface Written {
  resource: Resource;
  version: string;
}

export const versionOf = (r: Resource) => (r.meta as { version: string }).version;

/** If-Match: `*` or a list of versions, weak or strong, compared by their opaque part. */
export function matchesVersion(header: string, version: string): boolean {
  const opaque = (v: string) => v.trim().replace(/^W\//, '');
  return header.split(',').some((v) => v.trim() === '*' || opaque(v) === opaque(version));
}

/** RFC 7644 §3.14: a stale If-Match is a 412 (and the change it came with changes nothing). */
export function requireVersion(current: Resource, ifMatch: string | undefined): Resource {
  if (ifMatch && !matchesVersion(ifMatch, versionOf(current)))
    throw new ScimError(412, 'The resource changed since that version (If-Match)', 'invalidVers');
  return current;
}

function withMeta(
  resource: Resource,
  type: 'User' | 'Group',
  location: string,
  created: Date,
  modified: Date,
) {
  return {
    ...resource,
    meta: {
      resourceType: type,
      created: new Date(created).toISOString(),
      lastModified: new Date(modified).toISOString(),
      location,
      version: version(resource),
    },
  };
}

const latest = (...dates: (Date | null | undefined)[]) =>
  new Date(Math.max(...dates.filter((d): d is Date => !!d).map((d) => new Date(d).getTime())));

/** The User resource of an account the domain owns (RFC 7643 §4.1, with the enterprise extension). */
export function userResource(
  row: ScimUserRow,
  groups: { id: string; name: string }[],
  base: string,
): Resource {
  const enterprise = compact({ ...(row.enterprise ?? {}) } as Record<string, unknown>);
  const name = compact({ givenName: row.first_name ?? undefined, familyName: row.last_name ?? undefined });
  const resource: Resource = {
    schemas: Object.keys(enterprise).length ? [SCIM.user, SCIM.enterprise] : [SCIM.user],
    id: row.id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    userName: row.email,
    ...(Object.keys(name).length ? { name } : {}),
    ...(row.display_name ? { displayName: row.display_name } : {}),
    active: row.status === 'ACTIVE',
    emails: [{ value: row.email, type: 'work', primary: true }],
    groups: groups.map((g) => ({ value: g.id, display: g.name, $ref: `${base}/Groups/${g.id}` })),
    ...(Object.keys(enterprise).length ? { [SCIM.enterprise]: enterprise } : {}),
  };
  return withMeta(
    resource,
    'User',
    `${base}/Users/${row.id}`,
    row.date_created,
    latest(row.date_modified, row.p_modified),
  );
}

/** The Group resource of a domain group, with the members SCIM sees (RFC 7643 §4.2). */
export function groupResource(
  row: ScimGroupRow,
  members: { id: string; email: string }[],
  base: string,
): Resource {
  const resource: Resource = {
    schemas: [SCIM.group],
    id: row.id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    displayName: row.name,
    members: members.map((m) => ({
      value: m.id,
      display: m.email,
      type: 'User',
      $ref: `${base}/Users/${m.id}`,
    })),
  };
  return withMeta(resource, 'Group', `${base}/Groups/${row.id}`, row.date_created, row.date_modified);
}

/**
 * RFC 7644 §3.4.2: a list request's answer. `load` reads the resources the filter may match (narrowed to
 * the ids and keys it names, when every branch names some); the filter, the page and the projection apply here.
 */
export async function listOf(
  type: 'User' | 'Group',
  q: ScimListQuery,
  load: (narrow: Narrowing | null) => Promise<Resource[]>,
) {
  const keys = type === 'User' ? USER_KEYS : GROUP_KEYS;
  const filter = parseFilter(q.filter, keys);
  const page = paging(q);
  const only = projection(q);
  const answer = listResponse(matching(await load(narrowing(filter, keys)), filter, keys), page);
  return { ...answer, Resources: answer.Resources.map((r) => project(r, type, only)) };
}

/** A resource as the request asked to see it (attributes / excludedAttributes): id and schemas always. */
export function project(
  resource: Resource,
  type: 'User' | 'Group',
  only: SCIMMY.Types.Filter | null,
): Resource {
  if (!only) return resource;
  const schema = type === 'User' ? scimSchemas().User : scimSchemas().Group;
  let shown: Resource;
  try {
    shown = JSON.parse(JSON.stringify(new schema(resource, 'out', undefined, only))) as Resource;
  } catch (e) {
    throw new ScimError(400, `attributes or excludedAttributes: ${(e as Error).message}`, 'invalidValue');
  }
  return { schemas: resource.schemas, id: resource.id, ...shown };
}

function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as Partial<T>;
}

/** What an inbound User says, in this service's terms. */
export interface UserInput {
  email: string;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  externalId: string | null;
  status: UserStatus;
  enterprise: ScimEnterprise;
}

/**
 * RFC 7644 §3.3's body of a User, as the big providers send it: `active` may be the string "True"/"False"
 * (Entra), the rest is coerced and checked by scimmy's schema; `userName` must be an email address.
 */
export function readUser(body: unknown, was?: string): UserInput {
  const raw = foldActive(body);
  let user: Resource;
  try {
    user = JSON.parse(JSON.stringify(new (scimSchemas().User)(raw, 'in'))) as Resource;
  } catch (e) {
    throw new ScimError(400, (e as Error).message, 'invalidValue');
  }
  // a change of the work (or primary) email where userName stays is a change of the account's email (Entra
  // patches emails[type eq "work"].value); otherwise userName is the email
  const emails = Array.isArray(user.emails)
    ? (user.emails as { value?: string; type?: string; primary?: boolean }[])
    : [];
  const mail = (emails.find((e) => e.primary) ?? emails.find((e) => e.type === 'work'))?.value;
  const named = normalizeEmail(String(user.userName ?? ''));
  const email =
    was !== undefined && named === was && mail && normalizeEmail(mail) !== was ? normalizeEmail(mail) : named;
  if (!isEmail(email, { require_tld: false }) || emailProblem(email))
    throw new ScimError(400, 'userName must be an email address (the account’s email)', 'invalidValue');
  const name = (user.name ?? {}) as Record<string, string | undefined>;
  const ext = (user[SCIM.enterprise] ?? {}) as Record<string, unknown>;
  const manager = ext.manager as { value?: string } | undefined;
  return {
    email,
    firstName: name.givenName?.trim() || null,
    lastName: name.familyName?.trim() || null,
    displayName: (user.displayName as string | undefined)?.trim() || null,
    externalId: (user.externalId as string | undefined) || null,
    status: user.active === false ? 'INACTIVE' : 'ACTIVE',
    enterprise: compact({
      department: ext.department as string | undefined,
      employeeNumber: ext.employeeNumber as string | undefined,
      ...(manager?.value ? { manager: { value: manager.value } } : {}),
    }),
  };
}

/** What an inbound Group says: its name, external id and member ids. */
export function readGroup(body: unknown): {
  name: string;
  externalId: string | null;
  members: string[];
} {
  let group: Resource;
  try {
    group = JSON.parse(JSON.stringify(new (scimSchemas().Group)(body, 'in'))) as Resource;
  } catch (e) {
    throw new ScimError(400, (e as Error).message, 'invalidValue');
  }
  const name = String(group.displayName ?? '').trim();
  if (!name || name.length > 256)
    throw new ScimError(400, 'displayName must be 1 to 256 characters', 'invalidValue');
  // no members is none (RFC 7644 §3.5.1: a PUT replaces; a PATCH that removed the last one leaves none)
  const members = Array.isArray(group.members)
    ? [...new Set((group.members as { value?: string }[]).map((m) => String(m.value ?? '')))]
    : [];
  return { name, externalId: (group.externalId as string | undefined) || null, members };
}

/** `"active": "True"` / `"False"` (how Entra sends booleans) as the boolean it means, anywhere in a body. */
export function foldActive(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(
    Object.entries(body as Resource).map(([k, v]) => [k, k.toLowerCase() === 'active' ? booleanOf(v) : v]),
  );
}

export function booleanOf(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  return s === 'true' ? true : s === 'false' ? false : v;
}
