import { COLLECTION_ACCESS } from './collection-access.js';
import { CollectionAclsService } from './collection-acls.service.js';
import { EntityAclController } from './entity-acl.controller.js';

const param = 'collection_id';

/** Entity ACLs of collections (issue 38), the same family as those of assets (acls.controller.ts). */
export class CollectionAclsController extends EntityAclController({
  segment: 'collections',
  name: 'Collection',
  param,
  noun: 'a collection',
  service: CollectionAclsService,
  read: { roles: ['can_read_collections'], access: { entity: COLLECTION_ACCESS.read, param } },
  change: { roles: ['can_write_collections'], access: { entity: COLLECTION_ACCESS['change-acl'], param } },
  putRules:
    'needs change-acl on the collection; grants only permissions the caller holds, and changes only an entry whose permissions the caller holds; propagate=true also sets the entry on its contents and subcollections the caller may change the ACL of',
  propagate: true,
}) {}
