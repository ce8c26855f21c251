import { AuthErrors } from '../../base/common/auth/auth.errors.js';
import type { GuardContext, GuardStep } from './guard-step.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What the domain's status allows, read from the token lookup (which already applied a passed
 * `freeze_date`/`deactivate_date`, see domain-status.ts), so no extra query:
 * - DEACTIVATED refuses every credential at once with a 401 (the lookup refuses it too, for the paths that
 *   verify tokens outside the guard);
 * - FROZEN is read-only: any write answers 403, except routes marked `whileFrozen` (signing in and out,
 *   renewing one's own token) and super administrators, who must be able to thaw the domain they work from;
 * - WARNING works; the Token answers carry the warning message.
 */
export class TenantStatusStep implements GuardStep {
  readonly name = 'tenant status';

  run({ req, policy, auth }: GuardContext): void {
    const status = auth.domain.status;
    if (status === 'DEACTIVATED') throw AuthErrors.DOMAIN_DEACTIVATED();
    if (status === 'FROZEN' && !READS.has(req.method) && !policy.whileFrozen && !auth.isSuperAdmin) {
      throw AuthErrors.DOMAIN_FROZEN();
    }
  }
}
