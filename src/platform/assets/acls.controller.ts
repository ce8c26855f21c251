import { Body, Controller, Delete, Get, HttpCode, Param, Put, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { AclsService } from './acls.service.js';
import { AclBodyDto, ObjectAclDto, PermissionsDto, UserAclDto } from './dto/acl.dto.js';
import { param, READ, CHANGE, PUT, GroupAclRoutes } from './group-acl.routes.js';

const asset = new UuidParamPipe('Asset');
const user = new UuidParamPipe('User');
/** Entity ACLs of assets (the access lists of docs/interface.md); object_type is `assets`. */
@ApiTags('acls')
@ApiErrors(400, { 404: 'No such asset the caller may read, user, group or entry' })
@Controller('API/acls/v1')
export class AclsController extends GroupAclRoutes {
  constructor(protected readonly acls: AclsService) {
    super();
  }

  @Get('acl/assets/:asset_id/permissions')
  @Authenticated(READ)
  @ApiOperation({ summary: 'The caller’s own permissions on an asset' })
  @ApiOkResponse({ type: PermissionsDto })
  getAssetPermissions(
    @Param(param, asset) id: string,
    @Caller() caller: AuthContext,
  ): Promise<PermissionsDto> {
    return this.acls.mine(caller, id);
  }

  @Get('acl/assets/:asset_id')
  @Authenticated(READ)
  @ApiOperation({ summary: 'An asset’s whole ACL: the users’ and the groups’ entries' })
  @ApiOkResponse({ type: ObjectAclDto })
  getAssetAcl(@Param(param, asset) id: string): Promise<ObjectAclDto> {
    return this.acls.list(id);
  }

  @Get('users/:user_id/acl/assets/:asset_id')
  @Authenticated(READ)
  @ApiOperation({ summary: 'A user’s entry in an asset’s ACL' })
  @ApiOkResponse({ type: UserAclDto })
  getUserAssetAcl(
    @Param('user_id', user) userId: string,
    @Param(param, asset) id: string,
    @Caller() caller: AuthContext,
  ): Promise<UserAclDto> {
    return this.acls.get(caller, id, { kind: 'user', id: userId }) as Promise<UserAclDto>;
  }

  @Put('users/:user_id/acl/assets/:asset_id')
  @Authenticated(CHANGE)
  @ApiOperation({
    summary: `Set a user’s permissions on an asset (200, or 201 when the entry is new); ${PUT}`,
  })
  @ApiOkResponse({ type: UserAclDto })
  @ApiCreatedResponse({ type: UserAclDto })
  async putUserAssetAcl(
    @Param('user_id', user) userId: string,
    @Param(param, asset) id: string,
    @Body() body: AclBodyDto,
    @Caller() caller: AuthContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UserAclDto> {
    const { entry, created } = await this.acls.put(
      caller,
      id,
      { kind: 'user', id: userId },
      body.permissions,
    );
    res.status(created ? 201 : 200);
    return entry as UserAclDto;
  }

  @Delete('users/:user_id/acl/assets/:asset_id')
  @HttpCode(204)
  @Authenticated(CHANGE)
  @ApiOperation({ summary: 'Remove a user’s entry from an asset’s ACL; needs change-acl' })
  @ApiNoContentResponse({ description: 'Removed' })
  deleteUserAssetAcl(
    @Param('user_id', user) userId: string,
    @Param(param, asset) id: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.acls.remove(caller, id, { kind: 'user', id: userId });
  }
}
