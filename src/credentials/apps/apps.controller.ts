import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { CursorQueryDto } from '../../base/common/http/pagination.dto.js';
import { TokenDto } from '../tokens/dto/token.dto.js';
import { appView } from './app-view.js';
import { AppsService } from './apps.service.js';
import { AppDto, AppListDto, CreateAppDto, CreatedAppDto, UpdateAppDto } from './dto/app.dto.js';
import { PatQueryDto } from './dto/pat-query.dto.js';
import { Route } from '../../base/common/http/route.js';

const id = input.uuidParam('app_id');
const appAccess = { entity: 'app' as const, param: 'app_id' };

const edit = PutAndPatch({
  path: ':app_id',
  policy: { roles: ['can_write_apps'], access: appAccess },
  ok: CreatedAppDto,
  errors: [404],
  put: 'Update an application (type is fixed at creation and ignored here)',
  patch: 'Partly update an application (type is ignored)',
});
const apps = ServiceRoutes<AppsService>('apps');

@ApiTags('apps')
@ApiErrors(400)
@Controller('API/auth/v1/apps')
export class AppsController extends apps.handlers({
  listApps: apps.call(
    'list',
    Route.get({
      summary: 'Applications of the caller’s domain (cursor style: per_page, last_id)',
      policy: { roles: ['can_read_apps'] },
      ok: AppListDto,
    }),
    input.caller,
    input.query(CursorQueryDto),
    input.path,
  ),
  createApp: apps.call(
    'create',
    Route.post({
      summary: 'Register an application; confidential OAuth apps get their client_secret here, once',
      policy: { admin: true, roles: ['can_write_apps'] },
      created: CreatedAppDto,
    }),
    input.caller,
    input.body(CreateAppDto),
  ),
  getApp: apps.handle(
    Route.get(':app_id', {
      summary: 'One application',
      policy: { roles: ['can_read_apps'], access: appAccess },
      ok: AppDto,
      errors: [404],
    }),
    async (s, c, i) => appView(await s.get(c, i)),
    input.caller,
    id,
  ),
  updateApp: apps.call('update', edit.patch, input.caller, id, input.body(UpdateAppDto)),
  deleteApp: apps.call(
    'remove',
    Route.delete(':app_id', {
      summary: 'Delete an application and every token issued for it',
      policy: { roles: ['can_delete_apps'], access: appAccess },
      noContent: 'Deleted',
      errors: [404],
    }),
    input.caller,
    id,
  ),
  rotateAppSecret: apps.call(
    'rotateSecret',
    Route.post(':app_id/secret', {
      summary:
        'Rotate a confidential client’s secret: the new one is shown here, once; the old one stops working at once',
      policy: { admin: true, roles: ['can_write_apps'], access: appAccess },
      created: CreatedAppDto,
      errors: [404],
    }),
    input.caller,
    id,
  ),
  createCurrentUserToken: apps.call(
    'issueCurrentUserToken',
    Route.post(':app_id/current_user_token', {
      summary:
        'A token of this app (of the caller’s domain) for the signed-in person themself: their own rights as its ceiling (and the app’s), a login token’s lifetime at most and never past the sign-in; only from a sign-in token',
      policy: { kinds: ['LOGIN'], access: appAccess },
      ok: TokenDto,
      errors: [404],
    }),
    input.caller,
    id,
  ),
  createAppToken: apps.handle(
    Route.post(':app_id/token', {
      summary: 'Issue a personal access token for a service account (shown once; default and cap ten years)',
      policy: { roles: ['can_read_apps'], access: appAccess },
      ok: TokenDto,
      errors: [404],
    }),
    (s, c, i, q) => s.issuePat(c, i, q.expires_in),
    input.caller,
    id,
    input.query(PatQueryDto),
  ),
  replaceApp: apps.call('update', edit.put, input.caller, id, input.body(UpdateAppDto)),
}) {
  constructor(protected readonly apps: AppsService) {
    super();
  }
}
