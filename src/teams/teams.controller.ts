import { UserDto } from '../users/dto/user.dto.js';
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
import { PutAndPatch } from '../common/http/put-patch.js';
import { ApiErrors } from '../common/http/api-errors.js';
import type { Request, Response } from 'express';
import type { UploadedImage } from '../common/http/image-upload.js';
import { LogoDto } from '../system-domains/dto/system-domain.dto.js';
import { GroupLogosService } from './group-logos.service.js';
import { ImageRoutes, sendImage } from '../common/http/image-routes.js';
import { ImageBodyInterceptor } from './image-upload.interceptor.js';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { UuidParamPipe } from '../common/http/uuid-param.pipe.js';
import { GroupListQueryDto } from '../groups/dto/group.dto.js';
import { CreateTeamDto, GroupLikeBasicListDto, TeamDto, TeamListDto, UpdateTeamDto } from './dto/team.dto.js';
import { TEAM } from './group-kind.js';
import { GroupKindsService } from './group-kinds.service.js';

const uuid = new UuidParamPipe();
const teamAccess = { entity: 'team', param: 'team_id' };
const TAKEN = 'The name is taken among the domain’s teams';

const edit = PutAndPatch({
  path: ':team_id',
  policy: { roles: ['can_write_groups'], access: teamAccess },
  ok: TeamDto,
  errors: [404, { 409: TAKEN }],
  put: 'Update a team (as PATCH: any subset of the fields; read-only fields are ignored)',
  patch: 'Update a team',
});

const logo = ImageRoutes({
  path: ':team_id/logo',
  interceptor: ImageBodyInterceptor,
  write: { roles: ['can_write_groups'], access: teamAccess },
  read: { access: teamAccess },
  uploaded: { status: 200, type: LogoDto },
  uploadErrors: [404],
  missing: 'No such team, or it has no logo',
  summaries: {
    upload: 'Set a team’s logo: one PNG, JPEG, GIF or WebP image (judged by its bytes), at most 1 MiB',
    remove: 'Remove a team’s logo',
    get: 'A team’s logo (any member of the domain): the stored image, nosniff, a CSP that runs nothing',
  },
});

/** Teams (published Team): people of a domain, grouped; they carry no roles. Group roles manage them. */
@ApiTags('teams')
@ApiErrors(400)
@Controller('API/users/v1/teams')
export class TeamsController {
  constructor(
    private readonly kinds: GroupKindsService,
    private readonly logos: GroupLogosService,
  ) {}

  @Get()
  @Authenticated({ roles: ['can_read_groups'] })
  @ApiOperation({
    summary: 'Teams of the caller’s domain (page style; query filters the name; sort on name, date_created)',
  })
  @ApiOkResponse({ type: TeamListDto })
  listTeams(@Query() q: GroupListQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.kinds.list(TEAM, caller, q, req.path) as Promise<TeamListDto>;
  }

  @Post()
  @Authenticated({ roles: ['can_write_groups'] })
  @ApiOperation({ summary: 'Create a team' })
  @ApiCreatedResponse({ type: TeamDto })
  @ApiErrors({ 409: TAKEN })
  createTeam(@Body() body: CreateTeamDto, @Caller() caller: AuthContext) {
    return this.kinds.create(TEAM, caller, body) as Promise<TeamDto>;
  }

  // fixed paths before /{team_id}
  @Get('basic')
  @Authenticated()
  @ApiOperation({
    summary: 'Teams in the basic form (id, name, kind), for pickers: any member may list them',
  })
  @ApiOkResponse({ type: GroupLikeBasicListDto })
  listTeamsBasic(@Query() q: GroupListQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.kinds.basic(['TEAM'], caller, q, req.path);
  }

  @Get(':team_id')
  @Authenticated({ roles: ['can_read_groups'], access: teamAccess })
  @ApiOperation({ summary: 'One team, with its member ids' })
  @ApiOkResponse({ type: TeamDto })
  @ApiErrors(404)
  getTeam(@Param('team_id', uuid) id: string, @Caller() caller: AuthContext) {
    return this.kinds.get(TEAM, caller, id) as Promise<TeamDto>;
  }

  @edit.put
  replaceTeam(
    @Param('team_id', uuid) id: string,
    @Body() body: UpdateTeamDto,
    @Caller() caller: AuthContext,
  ) {
    return this.kinds.update(TEAM, caller, id, body) as Promise<TeamDto>;
  }

  @edit.patch
  updateTeam(@Param('team_id', uuid) id: string, @Body() body: UpdateTeamDto, @Caller() caller: AuthContext) {
    return this.kinds.update(TEAM, caller, id, body) as Promise<TeamDto>;
  }

  @Delete(':team_id')
  @HttpCode(204)
  @Authenticated({ roles: ['can_delete_groups'], access: teamAccess })
  @ApiOperation({ summary: 'Delete a team (its memberships and logo go with it)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  deleteTeam(@Param('team_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.kinds.remove(TEAM, caller, id);
  }

  @Post(':team_id/users/:user_id')
  @Authenticated({ roles: ['can_write_groups'], access: teamAccess })
  @ApiOperation({ summary: 'Add a user of the domain to a team (idempotent); the user comes back' })
  @ApiCreatedResponse({ type: UserDto })
  @ApiErrors({ 404: 'No such team or user in this domain' })
  addTeamUser(
    @Param('team_id', uuid) id: string,
    @Param('user_id', uuid) userId: string,
    @Caller() caller: AuthContext,
  ): Promise<UserDto> {
    return this.kinds.addUser(TEAM, caller, id, userId);
  }

  @Delete(':team_id/users/:user_id')
  @HttpCode(204)
  @Authenticated({ roles: ['can_write_groups'], access: teamAccess })
  @ApiOperation({ summary: 'Remove a user from a team' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors({ 404: 'No such team, user or membership' })
  removeTeamUser(
    @Param('team_id', uuid) id: string,
    @Param('user_id', uuid) userId: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.kinds.removeUser(TEAM, caller, id, userId);
  }

  @logo.upload
  uploadTeamLogo(
    @Param('team_id', uuid) id: string,
    @UploadedFiles() files: UploadedImage[] | undefined,
    @Caller() caller: AuthContext,
  ): Promise<LogoDto> {
    return this.logos.upload('TEAM', caller, id, files);
  }

  @logo.remove
  deleteTeamLogo(@Param('team_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.logos.remove('TEAM', caller, id);
  }

  @logo.get
  async getTeamLogo(@Param('team_id', uuid) id: string, @Caller() caller: AuthContext, @Res() res: Response) {
    sendImage(res, await this.logos.get('TEAM', caller, id));
  }
}
