import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import { GroupLogosService } from './group-logos.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { GroupListQueryDto } from '../groups/dto/group.dto.js';
import { CreateTeamDto, GroupLikeBasicListDto, TeamDto, TeamListDto, UpdateTeamDto } from './dto/team.dto.js';
import { TEAM } from './group-kind.js';
import { GroupKindsService } from './group-kinds.service.js';
import { teamAccess, TeamMemberRoutes } from './team-member.routes.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const TAKEN = 'The name is taken among the domain’s teams';

const edit = PutAndPatch({
  path: ':team_id',
  policy: { roles: ['can_write_groups'], access: teamAccess },
  ok: TeamDto,
  errors: [404, { 409: TAKEN }],
  put: 'Update a team (as PATCH: any subset of the fields; read-only fields are ignored)',
  patch: 'Update a team',
});

/** Teams (published Team): people of a domain, grouped; they carry no roles. Group roles manage them. */
@ApiTags('teams')
@ApiErrors(400)
@Controller('API/users/v1/teams')
export class TeamsController extends TeamMemberRoutes {
  constructor(
    protected readonly kinds: GroupKindsService,
    protected readonly logos: GroupLogosService,
  ) {
    super();
  }

  @Route.get({
    summary: 'Teams of the caller’s domain (page style; query filters the name; sort on name, date_created)',
    policy: { roles: ['can_read_groups'] },
    ok: TeamListDto,
  })
  listTeams(@Query() q: GroupListQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.kinds.list(TEAM, caller, q, req.path) as Promise<TeamListDto>;
  }

  @Route.post({
    summary: 'Create a team',
    policy: { roles: ['can_write_groups'] },
    created: TeamDto,
    errors: [{ 409: TAKEN }],
  })
  createTeam(@Body() body: CreateTeamDto, @Caller() caller: AuthContext) {
    return this.kinds.create(TEAM, caller, body) as Promise<TeamDto>;
  }

  // fixed paths before /{team_id}
  @Route.get('basic', {
    summary: 'Teams in the basic form (id, name, kind), for pickers: any member may list them',
    policy: {},
    ok: GroupLikeBasicListDto,
  })
  listTeamsBasic(@Query() q: GroupListQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.kinds.basic(['TEAM'], caller, q, req.path);
  }

  @Route.get(':team_id', {
    summary: 'One team, with its member ids',
    policy: { roles: ['can_read_groups'], access: teamAccess },
    ok: TeamDto,
    errors: [404],
  })
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

  @Route.delete(':team_id', {
    summary: 'Delete a team (its memberships and logo go with it)',
    policy: { roles: ['can_delete_groups'], access: teamAccess },
    noContent: 'Deleted',
    errors: [404],
  })
  deleteTeam(@Param('team_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.kinds.remove(TEAM, caller, id);
  }
}
