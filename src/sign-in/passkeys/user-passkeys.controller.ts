import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageOfAll } from '../../base/common/http/list-envelope.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { PasskeyListDto } from './dto/passkeys.dto.js';
import { PasskeysService } from './passkeys.service.js';
import { Route } from '../../base/common/http/route.js';

const passkeys = ServiceRoutes<PasskeysService>('passkeys');
const userId = input.uuidParam('user_id');
const userAccess = { entity: 'user' as const, param: 'user_id' };

/** An administrator's view of a user's passkeys: list them, remove a lost or cloned one. */
@ApiTags('users')
@Controller('API/users/v1/users')
export class UserPasskeysController extends passkeys.handlers({
  listUserPasskeys: passkeys.handle(
    Route.get(':user_id/webauthn', {
      summary: 'A user’s passkeys',
      policy: { roles: ['can_read_users'], access: userAccess },
      ok: PasskeyListDto,
      errors: [400, 404],
    }),
    async (s, c, u, q, p) => pageOfAll(await s.listFor(c, u), q, p),
    input.caller,
    userId,
    input.query(PageQueryDto),
    input.path,
  ),
  removeUserPasskey: passkeys.call(
    'removeFor',
    Route.delete(':user_id/webauthn/:id', {
      summary:
        'Removes a user’s passkey (lost or cloned). The passkeys are the account’s: only an administrator of the user’s only domain, or a super administrator, may remove them',
      policy: { roles: ['can_write_users'], access: userAccess },
      noContent: 'Removed',
      errors: [
        400,
        404,
        {
          403: 'The caller is not an administrator, the user is a super administrator, or the user also belongs to other domains (only a super administrator may then)',
        },
      ],
    }),
    input.caller,
    userId,
    input.uuidParam('id'),
  ),
}) {
  constructor(protected readonly passkeys: PasskeysService) {
    super();
  }
}
