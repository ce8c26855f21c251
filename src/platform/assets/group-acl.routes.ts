import { Body, Delete, Get, HttpCode, Param, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { ASSET_ACCESS } from './asset-access.js';
import type { AclsService } from './acls.service.js';
import { AclBodyDto, GroupAclDto } from './dto/acl.dto.js';

const asset = new UuidParamPipe('Asset');
const group = new UuidParamPipe('Group');
export const param = 'asset_id';
export const READ = { roles: ['can_read_assets' as const], access: { entity: ASSET_ACCESS.read, param } };
export const CHANGE = {
  roles: ['can_write_assets' as const],
  access: { entity: ASSET_ACCESS['change-acl'], param },
};
export const PUT =
  'needs change-acl on the asset; grants only permissions the caller holds, and changes only an entry whose permissions the caller holds';

/**
 * The group ACL routes of `AclsController`, which extends this class: Nest registers a controller's own
 * routes first and inherited ones after, so the route order and the route-policy keys
 * (`<Controller>.<method>`) stay as they were.
 */
export abstract class GroupAclRoutes {
  protected abstract readonly acls: AclsService;

  @Get('groups/:group_id/acl/assets/:asset_id')
  @Authenticated(READ)
  @ApiOperation({ summary: 'A group’s entry in an asset’s ACL' })
  @ApiOkResponse({ type: GroupAclDto })
  getGroupAssetAcl(
    @Param('group_id', group) groupId: string,
    @Param(param, asset) id: string,
    @Caller() caller: AuthContext,
  ): Promise<GroupAclDto> {
    return this.acls.get(caller, id, { kind: 'group', id: groupId }) as Promise<GroupAclDto>;
  }

  @Put('groups/:group_id/acl/assets/:asset_id')
  @Authenticated(CHANGE)
  @ApiOperation({
    summary: `Set a group’s permissions on an asset (200, or 201 when the entry is new); ${PUT}`,
  })
  @ApiOkResponse({ type: GroupAclDto })
  @ApiCreatedResponse({ type: GroupAclDto })
  async putGroupAssetAcl(
    @Param('group_id', group) groupId: string,
    @Param(param, asset) id: string,
    @Body() body: AclBodyDto,
    @Caller() caller: AuthContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<GroupAclDto> {
    const { entry, created } = await this.acls.put(
      caller,
      id,
      { kind: 'group', id: groupId },
      body.permissions,
    );
    res.status(created ? 201 : 200);
    return entry as GroupAclDto;
  }

  @Delete('groups/:group_id/acl/assets/:asset_id')
  @HttpCode(204)
  @Authenticated(CHANGE)
  @ApiOperation({ summary: 'Remove a group’s entry from an asset’s ACL; needs change-acl' })
  @ApiNoContentResponse({ description: 'Removed' })
  deleteGroupAssetAcl(
    @Param('group_id', group) groupId: string,
    @Param(param, asset) id: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.acls.remove(caller, id, { kind: 'group', id: groupId });
  }
}
