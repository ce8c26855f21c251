import { UserDto } from '../users/dto/user.dto.js';
import { Param, Res, UploadedFiles } from '@nestjs/common';
import type { Response } from 'express';
import type { UploadedImage } from '../../base/common/http/image-upload.js';
import { LogoDto } from '../system-domains/dto/system-domain.dto.js';
import type { GroupLogosService } from './group-logos.service.js';
import { ImageRoutes, sendImage } from '../../base/common/http/image-routes.js';
import { ImageBodyInterceptor } from './image-upload.interceptor.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { TEAM } from './group-kind.js';
import type { GroupKindsService } from './group-kinds.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
export const teamAccess = { entity: 'team', param: 'team_id' };
export const teamId = input.uuidParam('team_id');
const userId = input.uuidParam('user_id');
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
const kinds = ServiceRoutes<GroupKindsService>('kinds');
const logos = ServiceRoutes<GroupLogosService>('logos');

/** The logo itself, written out (the image is its own answer), the last of the teams' routes. */
abstract class TeamLogoGet {
  protected abstract readonly logos: GroupLogosService;

  @logo.get
  async getTeamLogo(@Param('team_id', uuid) id: string, @Caller() caller: AuthContext, @Res() res: Response) {
    sendImage(res, await this.logos.get('TEAM', caller, id));
  }
}

/** The logo's upload, written out (the uploaded files), before its removal and the logo itself. */
abstract class TeamLogoRoutes extends logos.handlers(
  {
    deleteTeamLogo: logos.handle(logo.remove, (s, c, i) => s.remove('TEAM', c, i), input.caller, teamId),
  },
  TeamLogoGet,
) {
  @logo.upload
  uploadTeamLogo(
    @Param('team_id', uuid) id: string,
    @UploadedFiles() files: UploadedImage[] | undefined,
    @Caller() caller: AuthContext,
  ): Promise<LogoDto> {
    return this.logos.upload('TEAM', caller, id, files);
  }
}

/**
 * The member and logo routes of `TeamsController`, which extends this class: Nest registers a controller's
 * own routes first and inherited ones after (a class's own written routes before its table's), so the route
 * order and the route-policy keys (`<Controller>.<method>`) stay as they were.
 */
export const TeamMemberRoutes = kinds.handlers(
  {
    addTeamUser: kinds.handle(
      Route.post(':team_id/users/:user_id', {
        summary: 'Add a user of the domain to a team (idempotent); the user comes back',
        policy: { roles: ['can_write_groups'], access: teamAccess },
        created: UserDto,
        errors: [{ 404: 'No such team or user in this domain' }],
      }),
      (s, c, i, u) => s.addUser(TEAM, c, i, u),
      input.caller,
      teamId,
      userId,
    ),
    removeTeamUser: kinds.handle(
      Route.delete(':team_id/users/:user_id', {
        summary: 'Remove a user from a team',
        policy: { roles: ['can_write_groups'], access: teamAccess },
        noContent: 'Removed',
        errors: [{ 404: 'No such team, user or membership' }],
      }),
      (s, c, i, u) => s.removeUser(TEAM, c, i, u),
      input.caller,
      teamId,
      userId,
    ),
  },
  TeamLogoRoutes,
);
