import { AuthErrors } from '../auth.errors.js';
import type { AuthContext } from '../auth-context.js';
import type { GuardContext, GuardStep } from './guard-step.js';

/**
 * Whether `auth` may change its person's account factors (email, password, second factors, recovery
 * codes): only the person's own sign-in token (LOGIN, no ceiling: never a PAT, an OAuth or an app token
 * acting as them), from a sign-in that passed a second factor or a password sign-in within the last
 * `windowSeconds`. Throws the 403 that says which.
 */
export function requireAccountChange(auth: AuthContext, now: Date, windowSeconds: number): void {
  if (auth.kind !== 'LOGIN' || auth.rightsCap) throw AuthErrors.ACCOUNT_CHANGE_OWN_SIGN_IN();
  if (auth.record.is_mfa_authenticated) return;
  const at = auth.record.auth_time;
  if (!at || now.getTime() - at.getTime() > windowSeconds * 1000) {
    throw AuthErrors.ACCOUNT_CHANGE_RECENT_SIGN_IN(Math.round(windowSeconds / 60));
  }
}

/** Routes marked `accountChange` (enrolling or removing a second factor, …): see requireAccountChange. */
export class AccountChangeStep implements GuardStep {
  readonly name = 'account change';

  constructor(
    private readonly now: () => Date,
    private readonly windowSeconds: number,
  ) {}

  run({ auth, policy }: GuardContext): void {
    if (policy.accountChange) requireAccountChange(auth, this.now(), this.windowSeconds);
  }
}
