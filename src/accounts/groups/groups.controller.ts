import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  CreateGroupDto,
  GroupBasicListDto,
  GroupDto,
  GroupListDto,
  GroupListQueryDto,
  UpdateGroupDto,
} from './dto/group.dto.js';
import { GroupsService } from './groups.service.js';
import { GROUP_WRITE, groupAccess, GroupMembershipRoutes } from './group-membership.routes.js';

const uuid = new UuidParamPipe();
const UPDATE = 'Update a group (members’ roles change on their next request)';

const edit = PutAndPatch({
  path: ':group_id',
  policy: GROUP_WRITE,
  ok: GroupDto,
  errors: [404, { 409: 'The name is taken in this domain' }],
  put: `${UPDATE}. The same as PATCH: any subset of the fields; read-only fields are ignored`,
  patch: UPDATE,
});

@ApiTags('groups')
@ApiErrors(400)
@Controller('API/users/v1/groups')
export class GroupsController extends GroupMembershipRoutes {
  constructor(protected readonly groups: GroupsService) {
    super();
  }

  @Get()
  @Authenticated({ roles: ['can_read_groups'] })
  @ApiOperation({
    summary: 'Groups of the caller’s domain (page style; query filters the name; sort on name, date_created)',
  })
  @ApiOkResponse({ type: GroupListDto })
  listGroups(
    @Query() q: GroupListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<GroupListDto> {
    return this.groups.list(caller, q, req.path);
  }

  @Post()
  @Authenticated({ roles: ['can_write_groups'] })
  @ApiOperation({ summary: 'Create a group carrying roles (only roles the caller holds)' })
  @ApiCreatedResponse({ type: GroupDto })
  @ApiErrors({ 409: 'The name is taken in this domain' })
  createGroup(@Body() body: CreateGroupDto, @Caller() caller: AuthContext): Promise<GroupDto> {
    return this.groups.create(caller, body);
  }

  // fixed paths before /{group_id}: Express matches in registration order
  @Get('basic')
  @Authenticated()
  @ApiOperation({
    summary:
      'Groups of the caller’s domain in the basic form (id, name), for pickers: any member may list them (page style; query and sort as on the full list)',
  })
  @ApiOkResponse({ type: GroupBasicListDto })
  listGroupsBasic(
    @Query() q: GroupListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<GroupBasicListDto> {
    return this.groups.basicList(caller, q, req.path);
  }

  @Get(':group_id')
  @Authenticated({ roles: ['can_read_groups'], access: groupAccess })
  @ApiOperation({ summary: 'One group, with its member ids' })
  @ApiOkResponse({ type: GroupDto })
  @ApiErrors(404)
  getGroup(@Param('group_id', uuid) id: string, @Caller() caller: AuthContext): Promise<GroupDto> {
    return this.groups.get(caller, id);
  }

  @edit.both('replaceGroup')
  updateGroup(
    @Param('group_id', uuid) id: string,
    @Body() body: UpdateGroupDto,
    @Caller() caller: AuthContext,
  ): Promise<GroupDto> {
    return this.groups.update(caller, id, body);
  }

  @Delete(':group_id')
  @HttpCode(204)
  @Authenticated({ roles: ['can_delete_groups'], access: groupAccess })
  @ApiOperation({ summary: 'Delete a group; its members lose its roles' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  deleteGroup(@Param('group_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.groups.remove(caller, id);
  }
}
