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
  const operations = message.Operations.map((op: unknown) => {
    if (!op || typeof op !== 'object' || Array.isArray(op)) return op;
    const o = op as { path?: unknown; value?: unknown };
    const path = typeof o.path === 'string' ? o.path.trim() : undefined;
    const value =
      path?.toLowerCase() === 'active' ? booleanOf(o.value) : path ? o.value : foldActive(o.value);
    return { ...o, ...(path !== undefined ? { path } : {}), value };
  });
  const schema = type === 'User' ? scimSchemas().User : scimSchemas().Group;
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
