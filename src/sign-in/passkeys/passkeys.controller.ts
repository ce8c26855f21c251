import { Body, Controller, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { type ListEnvelope, pageOfAll } from '../../base/common/http/list-envelope.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import {
  body,
  caller,
  type RouteInput,
  ServiceRoutes,
  uuidParam,
} from '../../base/common/http/service-routes.js';
import {
  CreationOptionsDto,
  PasskeyDto,
  PasskeyListDto,
  PasskeyRegistrationDto,
  PasskeyRenameDto,
} from './dto/passkeys.dto.js';
import { PasskeysService } from './passkeys.service.js';
import { Route } from '../../base/common/http/route.js';

const passkeys = ServiceRoutes<PasskeysService>('passkeys');
const id = uuidParam('id');
/** The body's name: the service takes the name alone. */
const newName: RouteInput<string> = { ...body(PasskeyRenameDto), pick: (b: PasskeyRenameDto) => b.name };

/** The signed-in user's own passkeys (users service paths): registering one is an account change. */
@ApiTags('users')
@Controller('API/users/v1/users/current/webauthn')
export class CurrentPasskeysController extends passkeys.handlers({
  renamePasskey: passkeys.call(
    'rename',
    Route.patch(':id', {
      summary: 'Renames one of the signed-in user’s passkeys',
      policy: { accountChange: true },
      ok: PasskeyDto,
      errors: [400, 404],
    }),
    caller,
    id,
    newName,
  ),
  removePasskey: passkeys.call(
    'remove',
    Route.delete(':id', {
      summary: 'Removes one of the signed-in user’s passkeys',
      policy: { accountChange: true },
      noContent: 'Removed',
      errors: [400, 404],
    }),
    caller,
    id,
  ),
}) {
  constructor(protected readonly passkeys: PasskeysService) {
    super();
  }

  @Route.post('registration/options', {
    summary:
      'The WebAuthn creation options of a new passkey (for navigator.credentials.create()); the challenge is single-use, for 5 minutes',
    policy: { accountChange: true },
    ok: CreationOptionsDto,
    errors: [{ 409: 'The account holds the most passkeys it may (25): remove one first' }],
  })
  passkeyRegistrationOptions(@Caller() caller: AuthContext): Promise<CreationOptionsDto> {
    return this.passkeys.registrationOptions(caller);
  }

  @Route.post('registration', {
    summary:
      'Registers a passkey: the authenticator’s answer (RegistrationResponseJSON) to this account’s creation options',
    policy: { accountChange: true },
    created: PasskeyDto,
    errors: [
      400,
      { 409: 'The passkey is registered already, or the account holds the most passkeys it may' },
    ],
  })
  registerPasskey(@Caller() caller: AuthContext, @Body() body: PasskeyRegistrationDto): Promise<PasskeyDto> {
    return this.passkeys.register(caller, body);
  }

  @Route.get({
    summary: 'The signed-in user’s passkeys',
    policy: { anyScope: true },
    ok: PasskeyListDto,
    errors: [400],
  })
  async listCurrentPasskeys(
    @Caller() caller: AuthContext,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<ListEnvelope<PasskeyDto>> {
    return pageOfAll(await this.passkeys.list(caller.userId), q, req.path);
  }
}
