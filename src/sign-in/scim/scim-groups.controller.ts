import { ScimGroupDto, ScimGroupListDto } from './dto/scim.dto.js';
import { ScimGroupsService } from './scim-groups.service.js';
import { ScimResourceController } from './scim-resource.controller.js';

/** RFC 7644 §3 over the token's domain's groups (docs/scim.md). */
export class ScimGroupsController extends ScimResourceController({
  endpoint: 'Groups',
  name: 'Group',
  plural: 'Groups',
  service: ScimGroupsService,
  dto: ScimGroupDto,
  listDto: ScimGroupListDto,
  summaries: {
    list: 'SCIM: the domain’s groups (filter, startIndex, count, attributes)',
    create: 'SCIM: creates a group (members: users the domain owns)',
    replace: 'SCIM: replaces a group and its members (If-Match honoured)',
    patch: 'SCIM: changes a group with a PatchOp (members add, remove, replace)',
  },
  deleted: 'Deleted',
}) {}
