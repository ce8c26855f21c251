import { AuthErrors } from '../auth.errors.js';
import type { GuardContext, GuardStep } from './guard-step.js';

/**
 * What the domain's status allows. DEACTIVATED refuses every credential at once (the token lookup refuses it
 * too, for the paths that verify tokens outside the guard); FROZEN and WARNING plug in here.
 */
export class TenantStatusStep implements GuardStep {
  readonly name = 'tenant status';

  run({ auth }: GuardContext): void {
    if (auth.domain.status === 'DEACTIVATED') throw AuthErrors.DOMAIN_DEACTIVATED();
  }
}
