import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { GroupLogosService } from './group-logos.service.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { GroupListQueryDto } from '../groups/dto/group.dto.js';
import { CreateTeamDto, GroupLikeBasicListDto, TeamDto, TeamListDto, UpdateTeamDto } from './dto/team.dto.js';
import { TEAM } from './group-kind.js';
import { GroupKindsService } from './group-kinds.service.js';
import { teamAccess, teamId, TeamMemberRoutes } from './team-member.routes.js';
import { Route } from '../../base/common/http/route.js';

const TAKEN = 'The name is taken among the domain’s teams';

const edit = PutAndPatch({
  path: ':team_id',
  policy: { roles: ['can_write_groups'], access: teamAccess },
  ok: TeamDto,
  errors: [404, { 409: TAKEN }],
  put: 'Update a team (as PATCH: any subset of the fields; read-only fields are ignored)',
  patch: 'Update a team',
});
const kinds = ServiceRoutes<GroupKindsService>('kinds');

/** Teams (published Team): people of a domain, grouped; they carry no roles. Group roles manage them. */
@ApiTags('teams')
@ApiErrors(400)
@Controller('API/users/v1/teams')
export class TeamsController extends kinds.handlers(
  {
    listTeams: kinds.handle(
      Route.get({
        summary:
          'Teams of the caller’s domain (page style; query filters the name; sort on name, date_created)',
        policy: { roles: ['can_read_groups'] },
        ok: TeamListDto,
      }),
      (s, c, q, p) => s.list(TEAM, c, q, p),
      input.caller,
      input.query(GroupListQueryDto),
      input.path,
    ),
    createTeam: kinds.handle(
      Route.post({
        summary: 'Create a team',
        policy: { roles: ['can_write_groups'] },
        created: TeamDto,
        errors: [{ 409: TAKEN }],
      }),
      (s, c, b) => s.create(TEAM, c, b),
      input.caller,
      input.body(CreateTeamDto),
    ),
    // fixed paths before /{team_id}
    listTeamsBasic: kinds.handle(
      Route.get('basic', {
        summary: 'Teams in the basic form (id, name, kind), for pickers: any member may list them',
        policy: {},
        ok: GroupLikeBasicListDto,
      }),
      (s, c, q, p) => s.basic(['TEAM'], c, q, p),
      input.caller,
      input.query(GroupListQueryDto),
      input.path,
    ),
    getTeam: kinds.handle(
      Route.get(':team_id', {
        summary: 'One team, with its member ids',
        policy: { roles: ['can_read_groups'], access: teamAccess },
        ok: TeamDto,
        errors: [404],
      }),
      (s, c, i) => s.get(TEAM, c, i),
      input.caller,
      teamId,
    ),
    replaceTeam: kinds.handle(
      edit.put,
      (s, c, i, b) => s.update(TEAM, c, i, b),
      input.caller,
      teamId,
      input.body(UpdateTeamDto),
    ),
    updateTeam: kinds.handle(
      edit.patch,
      (s, c, i, b) => s.update(TEAM, c, i, b),
      input.caller,
      teamId,
      input.body(UpdateTeamDto),
    ),
    deleteTeam: kinds.handle(
      Route.delete(':team_id', {
        summary: 'Delete a team (its memberships and logo go with it)',
        policy: { roles: ['can_delete_groups'], access: teamAccess },
        noContent: 'Deleted',
        errors: [404],
      }),
      (s, c, i) => s.remove(TEAM, c, i),
      input.caller,
      teamId,
    ),
  },
  TeamMemberRoutes,
) {
  constructor(
    protected readonly kinds: GroupKindsService,
    protected readonly logos: GroupLogosService,
  ) {
    super();
  }
}
