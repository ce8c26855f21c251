import type { AccessService } from '../../base/common/auth/access.service.js';
import type { GuardContext, GuardStep } from './guard-step.js';

/** The ACL of the entity the route names in a path parameter. */
export class AclStep implements GuardStep {
  readonly name = 'acl';

  constructor(private readonly access: Pick<AccessService, 'require'>) {}

  async run({ auth, policy, req }: GuardContext): Promise<void> {
    if (!policy.access) return;
    const { entity, param } = policy.access;
    const id = req.params[param];
    // guards run before pipes: a malformed id names nothing, and the access service answers it as an unknown
    // one (404), so a literal segment that is not a route is never a 400 from an {id} route that caught it
    await this.access.require(auth, entity, [typeof id === 'string' ? id : '']);
  }
}
