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
import {
  COLLECTION_ACL_CHANGE,
  COLLECTION_ACL_PUT,
  COLLECTION_ACL_READ,
  putEntry,
} from './collection-acls.controller.js';
import { CollectionAclsService } from './collection-acls.service.js';
import { AclBodyDto, GroupAclDto } from './dto/acl.dto.js';
import { PropagateQueryDto } from './dto/collection.dto.js';

const collection = new UuidParamPipe('Collection');
const group = new UuidParamPipe('Group');
const param = 'collection_id';

/** The group entries of collection ACLs (issue 38), as groups' entries of asset ACLs (group-acl.routes.ts). */
@ApiTags('acls')
@ApiErrors(400, { 404: 'No such collection the caller may read, group or entry' })
@Controller('API/acls/v1/groups/:group_id/acl/collections/:collection_id')
export class CollectionGroupAclsController {
  constructor(private readonly acls: CollectionAclsService) {}

  @Get()
  @Authenticated(COLLECTION_ACL_READ)
  @ApiOperation({ summary: 'A group’s entry in a collection’s ACL' })
  @ApiOkResponse({ type: GroupAclDto })
  getGroupCollectionAcl(
    @Param('group_id', group) groupId: string,
    @Param(param, collection) id: string,
    @Caller() caller: AuthContext,
  ): Promise<GroupAclDto> {
    return this.acls.get(caller, id, { kind: 'group', id: groupId }) as Promise<GroupAclDto>;
  }

  @Put()
  @Authenticated(COLLECTION_ACL_CHANGE)
  @ApiOperation({
    summary: `Set a group’s permissions on a collection (200, or 201 when the entry is new); ${COLLECTION_ACL_PUT}`,
  })
  @ApiOkResponse({ type: GroupAclDto })
  @ApiCreatedResponse({ type: GroupAclDto })
  putGroupCollectionAcl(
    @Param('group_id', group) groupId: string,
    @Param(param, collection) id: string,
    @Body() body: AclBodyDto,
    @Query() q: PropagateQueryDto,
    @Caller() caller: AuthContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<GroupAclDto> {
    return putEntry(
      this.acls,
      caller,
      id,
      { kind: 'group', id: groupId },
      body,
      q,
      res,
    ) as Promise<GroupAclDto>;
  }

  @Delete()
  @HttpCode(204)
  @Authenticated(COLLECTION_ACL_CHANGE)
  @ApiOperation({ summary: 'Remove a group’s entry from a collection’s ACL; needs change-acl' })
  @ApiNoContentResponse({ description: 'Removed' })
  deleteGroupCollectionAcl(
    @Param('group_id', group) groupId: string,
    @Param(param, collection) id: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.acls.remove(caller, id, { kind: 'group', id: groupId });
  }
}
