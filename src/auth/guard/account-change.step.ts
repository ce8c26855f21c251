import { requireAccountChange } from '../../base/common/auth/account-change.js';
import type { GuardContext, GuardStep } from './guard-step.js';

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
