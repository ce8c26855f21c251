import { ScimUserDto, ScimUserListDto } from './dto/scim.dto.js';
import { ScimResourceController } from './scim-resource.controller.js';
import { ScimUsersService } from './scim-users.service.js';

/** RFC 7644 §3 over the accounts the token's domain owns (docs/scim.md). */
export class ScimUsersController extends ScimResourceController({
  endpoint: 'Users',
  name: 'User',
  plural: 'Users',
  service: ScimUsersService,
  dto: ScimUserDto,
  listDto: ScimUserListDto,
  summaries: {
    list: 'SCIM: the users the domain owns (filter, startIndex, count, attributes)',
    create: 'SCIM: provisions a user (userName: the email) as the domain’s own account',
    replace: 'SCIM: replaces a user (If-Match honoured)',
    patch: 'SCIM: changes a user with a PatchOp (active: false deactivates)',
  },
  deleted: 'Deleted (the account, which the domain owned alone)',
}) {}
