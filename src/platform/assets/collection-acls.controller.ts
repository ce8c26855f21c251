import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import type { Principal } from './acls.service.js';
import { COLLECTION_ACCESS } from './collection-access.js';
import { CollectionAclsService } from './collection-acls.service.js';
import { AclBodyDto, GroupAclDto, ObjectAclDto, PermissionsDto, UserAclDto } from './dto/acl.dto.js';
import { PropagateQueryDto } from './dto/collection.dto.js';

const collection = new UuidParamPipe('Collection');
const principal = { user: new UuidParamPipe('User'), group: new UuidParamPipe('Group') };
const param = 'collection_id';
export const COLLECTION_ACL_READ = {
  roles: ['can_read_collections' as const],
  access: { entity: COLLECTION_ACCESS.read, param },
};
export const COLLECTION_ACL_CHANGE = {
  roles: ['can_write_collections' as const],
  access: { entity: COLLECTION_ACCESS['change-acl'], param },
};
export const COLLECTION_ACL_PUT =
  'needs change-acl on the collection; grants only permissions the caller holds, and changes only an entry whose permissions the caller holds; propagate=true also sets the entry on its contents and subcollections the caller may change the ACL of';
const NOT_FOUND = { 404: 'No such collection the caller may read, user, group or entry' };

/** Entity ACLs of collections (issue 38), mirroring those of assets (acls.controller.ts). */
@ApiTags('acls')
@ApiErrors(400, NOT_FOUND)
@Controller('API/acls/v1')
export class CollectionAclsController {
  constructor(private readonly acls: CollectionAclsService) {}

  @Get('acl/collections/:collection_id/permissions')
  @Authenticated(COLLECTION_ACL_READ)
  @ApiOperation({ summary: 'The caller’s own permissions on a collection' })
  @ApiOkResponse({ type: PermissionsDto })
  getCollectionPermissions(
    @Param(param, collection) id: string,
    @Caller() caller: AuthContext,
  ): Promise<PermissionsDto> {
    return this.acls.mine(caller, id);
  }

  @Get('acl/collections/:collection_id')
  @Authenticated(COLLECTION_ACL_READ)
  @ApiOperation({ summary: 'A collection’s whole ACL: the users’ and the groups’ entries' })
  @ApiOkResponse({ type: ObjectAclDto })
  getCollectionAcl(@Param(param, collection) id: string): Promise<ObjectAclDto> {
    return this.acls.list(id);
  }

  @Get('users/:user_id/acl/collections/:collection_id')
  @Authenticated(COLLECTION_ACL_READ)
  @ApiOperation({ summary: 'A user’s entry in a collection’s ACL' })
  @ApiOkResponse({ type: UserAclDto })
  getUserCollectionAcl(
    @Param('user_id', principal.user) userId: string,
    @Param(param, collection) id: string,
    @Caller() caller: AuthContext,
  ): Promise<UserAclDto> {
    return this.acls.get(caller, id, { kind: 'user', id: userId }) as Promise<UserAclDto>;
  }

  @Put('users/:user_id/acl/collections/:collection_id')
  @Authenticated(COLLECTION_ACL_CHANGE)
  @ApiOperation({
    summary: `Set a user’s permissions on a collection (200, or 201 when the entry is new); ${COLLECTION_ACL_PUT}`,
  })
  @ApiOkResponse({ type: UserAclDto })
  @ApiCreatedResponse({ type: UserAclDto })
  putUserCollectionAcl(
    @Param('user_id', principal.user) userId: string,
    @Param(param, collection) id: string,
    @Body() body: AclBodyDto,
    @Query() q: PropagateQueryDto,
    @Caller() caller: AuthContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UserAclDto> {
    return putEntry(this.acls, caller, id, { kind: 'user', id: userId }, body, q, res) as Promise<UserAclDto>;
  }

  @Delete('users/:user_id/acl/collections/:collection_id')
  @HttpCode(204)
  @Authenticated(COLLECTION_ACL_CHANGE)
  @ApiOperation({ summary: 'Remove a user’s entry from a collection’s ACL; needs change-acl' })
  @ApiNoContentResponse({ description: 'Removed' })
  deleteUserCollectionAcl(
    @Param('user_id', principal.user) userId: string,
    @Param(param, collection) id: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.acls.remove(caller, id, { kind: 'user', id: userId });
  }
}

/** The PUT of a user's or a group's entry: 201 when the entry is new. */
export async function putEntry(
  acls: CollectionAclsService,
  caller: AuthContext,
  id: string,
  who: Principal,
  body: AclBodyDto,
  q: PropagateQueryDto,
  res: Response,
): Promise<UserAclDto | GroupAclDto> {
  const { entry, created } = await acls.put(caller, id, who, body.permissions, q.propagate === true);
  res.status(created ? 201 : 200);
  return entry;
}
