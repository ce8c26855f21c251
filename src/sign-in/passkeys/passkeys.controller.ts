import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageOfAll } from '../../base/common/http/list-envelope.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';
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
const id = input.uuidParam('id');
/** The body's name: the service takes the name alone. */
const newName: RouteInput<string> = {
  ...input.body(PasskeyRenameDto),
  pick: (b: PasskeyRenameDto) => b.name,
};

/** The signed-in user's own passkeys (users service paths): registering one is an account change. */
@ApiTags('users')
@Controller('API/users/v1/users/current/webauthn')
export class CurrentPasskeysController extends passkeys.handlers({
  passkeyRegistrationOptions: passkeys.call(
    'registrationOptions',
    Route.post('registration/options', {
      summary:
        'The WebAuthn creation options of a new passkey (for navigator.credentials.create()); the challenge is single-use, for 5 minutes',
      policy: { accountChange: true },
      ok: CreationOptionsDto,
      errors: [{ 409: 'The account holds the most passkeys it may (25): remove one first' }],
    }),
    input.caller,
  ),
  registerPasskey: passkeys.call(
    'register',
    Route.post('registration', {
      summary:
        'Registers a passkey: the authenticator’s answer (RegistrationResponseJSON) to this account’s creation options',
      policy: { accountChange: true },
      created: PasskeyDto,
      errors: [
        400,
        { 409: 'The passkey is registered already, or the account holds the most passkeys it may' },
      ],
    }),
    input.caller,
    input.body(PasskeyRegistrationDto),
  ),
  listCurrentPasskeys: passkeys.handle(
    Route.get({
      summary: 'The signed-in user’s passkeys',
      policy: { anyScope: true },
      ok: PasskeyListDto,
      errors: [400],
    }),
    async (s, c, q, p) => pageOfAll(await s.list(c.userId), q, p),
    input.caller,
    input.query(PageQueryDto),
    input.path,
  ),
  renamePasskey: passkeys.call(
    'rename',
    Route.patch(':id', {
      summary: 'Renames one of the signed-in user’s passkeys',
      policy: { accountChange: true },
      ok: PasskeyDto,
      errors: [400, 404],
    }),
    input.caller,
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
    input.caller,
    id,
  ),
}) {
  constructor(protected readonly passkeys: PasskeysService) {
    super();
  }
}
