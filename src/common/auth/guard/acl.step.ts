import { AuthErrors } from '../auth.errors.js';
import { isUuid } from '../../http/uuid-param.pipe.js';
import type { AccessService } from '../access.service.js';
import type { GuardContext, GuardStep } from './guard-step.js';

/** The ACL of the entity the route names in a path parameter. */
export class AclStep implements GuardStep {
  readonly name = 'acl';

  constructor(private readonly access: Pick<AccessService, 'require'>) {}

  async run({ auth, policy, req }: GuardContext): Promise<void> {
    if (!policy.access) return;
    const { entity, param } = policy.access;
    const id = req.params[param];
    // guards run before pipes: a malformed id is the client's mistake (400), not an unknown entity (404)
    if (typeof id !== 'string' || !isUuid(id)) throw AuthErrors.INVALID_ID(param);
    await this.access.require(auth, entity, [id]);
  }
}
