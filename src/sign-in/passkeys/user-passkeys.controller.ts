import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { type ListEnvelope, pageOfAll } from '../../base/common/http/list-envelope.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { caller, ServiceRoutes, uuidParam } from '../../base/common/http/service-routes.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { type PasskeyDto, PasskeyListDto } from './dto/passkeys.dto.js';
import { PasskeysService } from './passkeys.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const passkeys = ServiceRoutes<PasskeysService>('passkeys');
const userAccess = { entity: 'user' as const, param: 'user_id' };

/** An administrator's view of a user's passkeys: list them, remove a lost or cloned one. */
@ApiTags('users')
@Controller('API/users/v1/users')
export class UserPasskeysController extends passkeys.handlers({
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
    caller,
    uuidParam('user_id'),
    uuidParam('id'),
  ),
}) {
  constructor(protected readonly passkeys: PasskeysService) {
    super();
  }

  @Route.get(':user_id/webauthn', {
    summary: 'A user’s passkeys',
    policy: { roles: ['can_read_users'], access: userAccess },
    ok: PasskeyListDto,
    errors: [400, 404],
  })
  async listUserPasskeys(
    @Caller() caller: AuthContext,
    @Param('user_id', uuid) userId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<ListEnvelope<PasskeyDto>> {
    return pageOfAll(await this.passkeys.listFor(caller, userId), q, req.path);
  }
}
