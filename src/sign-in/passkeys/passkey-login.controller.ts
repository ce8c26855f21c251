import { Body, Controller, Req } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request } from 'express';
import { LoginTokenDto, TokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { fromRequest } from '../../delivery/audit/audit-origin.js';
import { PasskeyLoginDto, PasskeyOptionsRequestDto, RequestOptionsDto } from './dto/passkeys.dto.js';
import { PendingSignIn } from './pending-sign-in.js';
import { PasskeySignIn } from './passkey-sign-in.service.js';
import { Route } from '../../base/common/http/route.js';

const TEMP_HEADER = {
  name: 'Temp-Auth-Token',
  required: false,
  description: 'The temporary token of a password sign-in that owes a second factor: this is its second step',
};

/** Signing in with a passkey: alone (passwordless, usernameless), or as the second step of a password sign-in. */
@ApiTags('login')
@Controller('API/auth/v1/auth/webauthn')
export class PasskeyLoginController {
  constructor(
    private readonly signIn: PasskeySignIn,
    private readonly pending: PendingSignIn,
  ) {}

  @Route.post('options', {
    summary:
      'The WebAuthn request options of a passkey sign-in (for navigator.credentials.get()): for an email’s passkeys, usernameless without one, or (Temp-Auth-Token) the second step of a password sign-in',
    public: 'signin',
    ok: RequestOptionsDto,
    errors: [400, { 401: 'The Temp-Auth-Token is not a live temporary token' }],
  })
  @ApiHeader(TEMP_HEADER)
  async passkeyOptions(
    @Body() body: PasskeyOptionsRequestDto,
    @Req() req: Request,
  ): Promise<RequestOptionsDto> {
    return this.signIn.options(body, await this.pending.of(req));
  }

  @Route.post('login', {
    summary:
      'Signs in with a passkey (AuthenticationResponseJSON) → the Token form as a password sign-in answers; with Temp-Auth-Token, completes that sign-in → the chosen domain’s Token (is_mfa_authenticated)',
    public: 'signin',
    created: {
      description:
        'Alone: the Token form (LoginToken, as simple/login/); with Temp-Auth-Token: the chosen domain’s Token (as multidomain/login/)',
      schema: { anyOf: [{ $ref: getSchemaPath(LoginTokenDto) }, { $ref: getSchemaPath(TokenDto) }] },
    },
    errors: [400, { 401: 'Passkey not accepted (one answer for every refusal)' }],
  })
  @ApiHeader(TEMP_HEADER)
  @ApiExtraModels(LoginTokenDto, TokenDto)
  async passkeyLogin(@Body() body: PasskeyLoginDto, @Req() req: Request): Promise<LoginTokenDto | TokenDto> {
    const pending = await this.pending.of(req);
    const origin = fromRequest(req);
    if (pending) return this.signIn.completeSecondFactor(body, pending, origin);
    return this.signIn.signIn(body, origin);
  }
}
