import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UploadedFiles,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.js';
import type { Request, Response } from 'express';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { Caller } from '../common/auth/caller.decorator.js';
import type { UploadedImage } from '../common/http/image-upload.js';
import { PageQueryDto } from '../common/http/pagination.dto.js';
import { UuidParamPipe } from '../common/http/uuid-param.pipe.js';
import { GroupListQueryDto } from '../groups/dto/group.dto.js';
import { LogoDto } from '../system-domains/dto/system-domain.dto.js';
import {
  CreateGroupMappingDto,
  GroupMappingDto,
  GroupMappingListDto,
  GroupReindexDto,
} from './dto/group-mapping.dto.js';
import { GroupLikeBasicListDto } from './dto/team.dto.js';
import { GroupKindsService } from './group-kinds.service.js';
import { GroupLogosService } from './group-logos.service.js';
import { GroupMappingsService } from './group-mappings.service.js';
import { ImageRoutes, sendImage } from '../common/http/image-routes.js';
import { ImageBodyInterceptor } from './image-upload.interceptor.js';

const uuid = new UuidParamPipe();
const groupAccess = { entity: 'group', param: 'group_id' };

const logo = ImageRoutes({
  path: ':group_id/logo',
  interceptor: ImageBodyInterceptor,
  write: { roles: ['can_write_groups'], access: groupAccess },
  read: { access: groupAccess },
  uploaded: { status: 200, type: LogoDto },
  uploadErrors: [404],
  missing: 'No such group, or it has no logo',
  summaries: {
    upload: 'Set a group’s logo: one PNG, JPEG, GIF or WebP image (judged by its bytes), at most 1 MiB',
    remove: 'Remove a group’s logo',
    get: 'A group’s logo (any member of the domain): the stored image, nosniff, a CSP that runs nothing',
  },
});

/**
 * The rest of /v1/groups/: mappings, all/basic, logo, reindex. Its module is mounted before GroupsModule, so
 * these fixed paths come before the groups' /{group_id} routes (Express matches in registration order).
 */
@ApiTags('groups')
@ApiErrors(400)
@Controller('API/users/v1/groups')
export class GroupExtrasController {
  constructor(
    private readonly mappings: GroupMappingsService,
    private readonly kinds: GroupKindsService,
    private readonly logos: GroupLogosService,
  ) {}

  @Get('mappings')
  @Authenticated({ roles: ['can_read_groups'] })
  @ApiOperation({ summary: 'Group mappings of the caller’s domain (page style; sort on name, date_created)' })
  @ApiOkResponse({ type: GroupMappingListDto })
  listGroupMappings(@Query() q: PageQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.mappings.list(caller, q, req.path) as Promise<GroupMappingListDto>;
  }

  @Post('mappings')
  @Authenticated({ roles: ['can_write_groups'] })
  @ApiOperation({
    summary:
      'Map an identity provider’s group name to a group, team or role group (applied at each single sign-on)',
  })
  @ApiCreatedResponse({ type: GroupMappingDto })
  @ApiErrors({ 404: 'No such group in this domain', 409: 'The name is already mapped in this domain' })
  createGroupMapping(@Body() body: CreateGroupMappingDto, @Caller() caller: AuthContext) {
    return this.mappings.create(caller, body);
  }

  @Get('mappings/:name')
  @Authenticated({ roles: ['can_read_groups'] })
  @ApiOperation({ summary: 'One group mapping, by the identity provider’s group name' })
  @ApiOkResponse({ type: GroupMappingDto })
  @ApiErrors(404)
  getGroupMapping(@Param('name') name: string, @Caller() caller: AuthContext) {
    return this.mappings.get(caller, name);
  }

  @Delete('mappings/:name')
  @HttpCode(204)
  @Authenticated({ roles: ['can_write_groups'] })
  @ApiOperation({ summary: 'Remove a group mapping (memberships it made stay until the next sign-on)' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(404)
  deleteGroupMapping(@Param('name') name: string, @Caller() caller: AuthContext): Promise<void> {
    return this.mappings.remove(caller, name);
  }

  @Get('all/basic')
  @Authenticated()
  @ApiOperation({
    summary:
      'Groups, teams and role groups together in the basic form (id, name, kind), for pickers: any member',
  })
  @ApiOkResponse({ type: GroupLikeBasicListDto })
  listAllGroupsBasic(@Query() q: GroupListQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.kinds.basic(['GROUP', 'TEAM', 'ROLE_GROUP'], caller, q, req.path);
  }

  @Post(':group_id/reindex')
  @Authenticated({ roles: ['can_write_groups'], access: groupAccess })
  @ApiOperation({
    summary:
      'Ask the platform’s indexer to reindex a group: this service keeps no index, it records the event',
  })
  @ApiCreatedResponse({ type: GroupReindexDto })
  @ApiErrors(404)
  reindexGroup(@Param('group_id', uuid) id: string, @Caller() caller: AuthContext): Promise<GroupReindexDto> {
    return this.mappings.reindex(caller, id);
  }

  @logo.upload
  uploadGroupLogo(
    @Param('group_id', uuid) id: string,
    @UploadedFiles() files: UploadedImage[] | undefined,
    @Caller() caller: AuthContext,
  ): Promise<LogoDto> {
    return this.logos.upload('GROUP', caller, id, files);
  }

  @logo.remove
  deleteGroupLogo(@Param('group_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.logos.remove('GROUP', caller, id);
  }

  @logo.get
  async getGroupLogo(
    @Param('group_id', uuid) id: string,
    @Caller() caller: AuthContext,
    @Res() res: Response,
  ) {
    sendImage(res, await this.logos.get('GROUP', caller, id));
  }
}
