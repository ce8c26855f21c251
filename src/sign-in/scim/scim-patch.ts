import SCIMMY from 'scimmy';
import { ScimError } from '../../base/common/errors/scim-error.js';
import { booleanOf, foldActive, type Resource } from './scim-resources.js';
import { SCIM, scimSchemas } from './scim-schemas.js';

/** Operations of one PatchOp at most (a provider sends a handful; a group push of members sends one each). */
const MAX_OPERATIONS = 1000;

/**
 * RFC 7644 §3.5.2: applies a PatchOp to a resource (its current form) with scimmy, and answers the resource
 * as it would be, in the inbound form the services read (readUser, readGroup). The forms the big providers
 * send are taken as they come: `op` in any case (scimmy), a `value` object without `path`, and "True" /
 * "False" strings for `active` (Entra), made booleans first.
 */
export async function applyPatch(
  type: 'User' | 'Group',
  current: Resource,
  body: unknown,
): Promise<Resource> {
  const message = body as { schemas?: unknown; Operations?: unknown };
  if (!message || typeof message !== 'object' || !Array.isArray(message.Operations))
    throw new ScimError(
      400,
      `A PATCH body is a PatchOp message (${SCIM.patch}) with Operations`,
      'invalidSyntax',
    );
  if (message.Operations.length > MAX_OPERATIONS)
    throw new ScimError(400, `At most ${MAX_OPERATIONS} operations in one PatchOp`, 'tooMany');
  const schema = type === 'User' ? scimSchemas().User : scimSchemas().Group;
  const named = canonicalNames(schema.definition.attributes as unknown as Attribute[]);
  const operations = message.Operations.map((op: unknown) => {
    if (!op || typeof op !== 'object' || Array.isArray(op)) return op;
    const o = op as { path?: unknown; value?: unknown };
    const path = typeof o.path === 'string' ? named(o.path.trim()) : undefined;
    const value =
      path === 'active' ? booleanOf(o.value) : path ? o.value : foldActive(renameKeys(o.value, named));
    return { ...o, ...(path !== undefined ? { path } : {}), value };
  });
  const { meta: _meta, id: _id, groups: _groups, ...inbound } = current;
  try {
    const instance = new schema(inbound, 'in');
    const patch = new SCIMMY.Messages.PatchOp({
      schemas: [SCIM.patch],
      Operations: operations,
    } as ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0]);
    const patched = await patch.apply(instance, async (i) => i as unknown as Record<string, unknown>);
    // scimmy answers nothing when the operations change nothing: the resource stays as it is
    return JSON.parse(JSON.stringify(patched ?? instance)) as Resource;
  } catch (e) {
    if (e instanceof ScimError) throw e;
    const err = e as { status?: number; scimType?: string; message?: string };
    throw new ScimError(
      400,
      err.message ?? 'The PatchOp could not be applied',
      (err.scimType as ConstructorParameters<typeof ScimError>[2]) ?? 'invalidValue',
    );
  }
}

interface Attribute {
  name: string;
  subAttributes?: Attribute[];
}

/**
 * Attribute names are case-insensitive (RFC 7643 §2.1), scimmy's paths are not: a path's attribute and
 * sub-attribute names (`Active`, `Name.GivenName`, `emails[type eq "work"].Value`) in the schema's own case.
 * A name the schema does not have, a URN-qualified path and the value filter between brackets stay as sent.
 */
function canonicalNames(attributes: Attribute[]): (path: string) => string {
  const top = new Map(attributes.map((a) => [a.name.toLowerCase(), a]));
  return (path) => {
    const m = /^([A-Za-z][\w$-]*)(\[[^\]]*\])?(?:\.([A-Za-z][\w$-]*))?$/.exec(path);
    if (!m) return path;
    const attr = top.get(m[1].toLowerCase());
    if (!attr) return path;
    const sub = m[3] && attr.subAttributes?.find((s) => s.name.toLowerCase() === m[3].toLowerCase());
    return `${attr.name}${m[2] ?? ''}${m[3] ? `.${sub ? sub.name : m[3]}` : ''}`;
  };
}

/** A value object's keys (`{"Active": false}`, `{"name.GivenName": "…"}`) through the same names. */
function renameKeys(value: unknown, named: (path: string) => string): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Resource).map(([k, v]) => [named(k), v]));
}
