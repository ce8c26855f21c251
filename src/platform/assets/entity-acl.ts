import { Query, type Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AuthenticatedOptions } from '../../base/common/auth/authenticated.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import type { Principal } from './acl-entries.js';
import type { GroupAclDto, ObjectAclDto, PermissionsDto, UserAclDto } from './dto/acl.dto.js';

/** What an entity's ACL service answers (assets: AclsService; collections: CollectionAclsService). */
export interface EntityAclService {
  mine(auth: AuthContext, id: string): Promise<PermissionsDto>;
  list(id: string): Promise<ObjectAclDto>;
  get(auth: AuthContext, id: string, who: Principal): Promise<UserAclDto | GroupAclDto>;
  put(
    auth: AuthContext,
    id: string,
    who: Principal,
    permissions: string[],
    propagate?: boolean,
  ): Promise<{ entry: UserAclDto | GroupAclDto; created: boolean }>;
  remove(auth: AuthContext, id: string, who: Principal): Promise<void>;
}

/** One entity type's ACL routes under /API/acls/v1. */
export interface EntityAclSpec {
  /** The path segment (`acl/{segment}/{param}`) and the name in the operationIds (`getUserAssetAcl`). */
  segment: string;
  name: string;
  param: string;
  /** The entity with its article, as the summaries say it: `an asset`. */
  noun: string;
  service: Type<EntityAclService>;
  /** Reading the ACL (and one's own permissions), and changing it. */
  read: AuthenticatedOptions;
  change: AuthenticatedOptions;
  /** What the PUT of an entry needs and does, for its summary. */
  putRules: string;
  /** The PUT of an entry takes `?propagate=true` (collections: down to their contents). */
  propagate: boolean;
}

/** The principals' id pipes: a malformed id is the 404 of that principal. */
export const principal = { user: new UuidParamPipe('User'), group: new UuidParamPipe('Group') };

/** What the routes of one entity type's ACL family share, derived from its spec. */
export function aclRouteParts(spec: EntityAclSpec) {
  return {
    /** The entity's id pipe (a malformed id is its 404). */
    entity: new UuidParamPipe(spec.name),
    /** The path of its ACL, after the principal's part: `acl/assets/:asset_id`. */
    acl: `acl/${spec.segment}/:${spec.param}`,
    /** The summary and the operationId this member names (not the method name it shares with the others). */
    op: (operationId: string, summary: string) => ApiOperation({ operationId, summary }),
    // the propagate flag is a query parameter of the collections' PUT only: on the assets' PUT the parameter
    // is not bound (undefined), so neither the pipes nor the OpenAPI document see it
    propagateQuery: (spec.propagate ? Query() : () => undefined) as ParameterDecorator,
  };
}
