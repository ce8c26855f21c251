// What a SCIM request gets for an error, for the unit specs of src/sign-in/scim: a ScimError's status and
// scimType (anything else as it was thrown), or 'no error'.
import { ScimError } from '../../src/base/common/errors/scim-error.js';

const answer = (e: unknown): unknown =>
  e instanceof ScimError ? { status: e.status, scimType: e.scimType } : e;

/** `f`'s refusal (a synchronous step: the filter, paging, a body read). */
export function refusal(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return answer(e);
  }
  return 'no error';
}

/** `p`'s refusal (a service call, a PATCH). */
export async function refusalOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return answer(e);
  }
  return 'no error';
}
