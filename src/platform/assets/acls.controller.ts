import { ASSET_ACCESS } from './asset-access.js';
import { AclsService } from './acls.service.js';
import { EntityAclController } from './entity-acl.controller.js';

const param = 'asset_id';

/** Entity ACLs of assets (the access lists of docs/interface.md); object_type is `assets`. */
export class AclsController extends EntityAclController({
  segment: 'assets',
  name: 'Asset',
  param,
  noun: 'an asset',
  service: AclsService,
  read: { roles: ['can_read_assets'], access: { entity: ASSET_ACCESS.read, param } },
  change: { roles: ['can_write_assets'], access: { entity: ASSET_ACCESS['change-acl'], param } },
  putRules:
    'needs change-acl on the asset; grants only permissions the caller holds, and changes only an entry whose permissions the caller holds',
  propagate: false,
}) {}
