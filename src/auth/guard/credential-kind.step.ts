import { AuthErrors } from '../../base/common/auth/auth.errors.js';
import { DEFAULT_KINDS } from '../../base/common/auth/authenticated.decorator.js';
import type { GuardContext, GuardStep } from './guard-step.js';

/**
 * Credential kinds are allow-listed per route (e.g. a temporary sign-in token only where it completes sign-in;
 * only a person's sign-in where an app is approved, with the route's own refusal, `kindRefused`).
 */
export class CredentialKindStep implements GuardStep {
  readonly name = 'credential kind';

  run({ auth, policy }: GuardContext): void {
    const kinds = policy.kinds ?? DEFAULT_KINDS;
    if (kinds.includes(auth.kind)) return;
    // the route's own refusal is for the kinds it narrowed away; a kind no route takes unless it names it
    // (TEMP, a new kind) is always the 401
    const narrowed = policy.kindRefused && DEFAULT_KINDS.includes(auth.kind);
    throw narrowed ? policy.kindRefused!() : AuthErrors.KIND_NOT_ACCEPTED();
  }
}
