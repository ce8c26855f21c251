import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated, Public } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { ListEnvelopeDto } from '../../base/common/http/list-envelope.dto.js';
import { type ListEnvelope, pageEnvelope } from '../../base/common/http/list-envelope.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { LoginTokenDto, TokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { fromRequest } from '../../delivery/audit/audit-origin.js';
import {
  CreationOptionsDto,
  PasskeyDto,
  PasskeyLoginDto,
  PasskeyOptionsRequestDto,
  PasskeyRegistrationDto,
  PasskeyRenameDto,
  RequestOptionsDto,
} from './dto/passkeys.dto.js';
import { PendingSignIn } from './pending-sign-in.js';
import { PasskeySignIn } from './passkey-sign-in.service.js';
import { PasskeysService } from './passkeys.service.js';

const uuid = new UuidParamPipe();
const userAccess = { entity: 'user' as const, param: 'user_id' };

class PasskeyListDto extends ListEnvelopeDto(PasskeyDto) {}

/** One page of a person's passkeys (a handful: read whole, cut here). */
function page(all: PasskeyDto[], q: PageQueryDto, req: Request): ListEnvelope<PasskeyDto> {
  const start = (q.page - 1) * q.per_page;
  return pageEnvelope(all.slice(start, start + q.per_page), all.length, q.page, q.per_page, req.path, {});
}

/** The signed-in user's own passkeys (users service paths): registering one is an account change. */
@ApiTags('users')
@Controller('API/users/v1/users/current/webauthn')
export class CurrentPasskeysController {
  constructor(private readonly passkeys: PasskeysService) {}

  @Post('registration/options')
  @HttpCode(200)
  @Authenticated({ accountChange: true })
  @ApiOperation({
    summary:
      'The WebAuthn creation options of a new passkey (for navigator.credentials.create()); the challenge is single-use, for 5 minutes',
  })
  @ApiOkResponse({ type: CreationOptionsDto })
  @ApiErrors({ 409: 'The account holds the most passkeys it may (25): remove one first' })
  passkeyRegistrationOptions(@Caller() caller: AuthContext): Promise<CreationOptionsDto> {
    return this.passkeys.registrationOptions(caller);
  }

  @Post('registration')
  @HttpCode(201)
  @Authenticated({ accountChange: true })
  @ApiOperation({
    summary:
      'Registers a passkey: the authenticator’s answer (RegistrationResponseJSON) to this account’s creation options',
  })
  @ApiCreatedResponse({ type: PasskeyDto })
  @ApiErrors(400, { 409: 'The passkey is registered already, or the account holds the most passkeys it may' })
  registerPasskey(@Caller() caller: AuthContext, @Body() body: PasskeyRegistrationDto): Promise<PasskeyDto> {
    return this.passkeys.register(caller, body);
  }

  @Get()
  @Authenticated({ anyScope: true })
  @ApiOperation({ summary: 'The signed-in user’s passkeys' })
  @ApiOkResponse({ type: PasskeyListDto })
  @ApiErrors(400)
  async listCurrentPasskeys(
    @Caller() caller: AuthContext,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<ListEnvelope<PasskeyDto>> {
    return page(await this.passkeys.list(caller.userId), q, req);
  }

  @Patch(':id')
  @Authenticated({ accountChange: true })
  @ApiOperation({ summary: 'Renames one of the signed-in user’s passkeys' })
  @ApiOkResponse({ type: PasskeyDto })
  @ApiErrors(400, 404)
  renamePasskey(
    @Caller() caller: AuthContext,
    @Param('id', uuid) id: string,
    @Body() body: PasskeyRenameDto,
  ): Promise<PasskeyDto> {
    return this.passkeys.rename(caller, id, body.name);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ accountChange: true })
  @ApiOperation({ summary: 'Removes one of the signed-in user’s passkeys' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(400, 404)
  removePasskey(@Caller() caller: AuthContext, @Param('id', uuid) id: string): Promise<void> {
    return this.passkeys.remove(caller, id);
  }
}

/** An administrator's view of a user's passkeys: list them, remove a lost or cloned one. */
@ApiTags('users')
@Controller('API/users/v1/users')
export class UserPasskeysController {
  constructor(private readonly passkeys: PasskeysService) {}

  @Get(':user_id/webauthn')
  @Authenticated({ roles: ['can_read_users'], access: userAccess })
  @ApiOperation({ summary: 'A user’s passkeys' })
  @ApiOkResponse({ type: PasskeyListDto })
  @ApiErrors(400, 404)
  async listUserPasskeys(
    @Caller() caller: AuthContext,
    @Param('user_id', uuid) userId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<ListEnvelope<PasskeyDto>> {
    return page(await this.passkeys.listFor(caller, userId), q, req);
  }

  @Delete(':user_id/webauthn/:id')
  @HttpCode(204)
  @Authenticated({ roles: ['can_write_users'], access: userAccess })
  @ApiOperation({
    summary:
      'Removes a user’s passkey (lost or cloned). The passkeys are the account’s: only an administrator of the user’s only domain, or a super administrator, may remove them',
  })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(400, 404, {
    403: 'The caller is not an administrator, the user is a super administrator, or the user also belongs to other domains (only a super administrator may then)',
  })
  removeUserPasskey(
    @Caller() caller: AuthContext,
    @Param('user_id', uuid) userId: string,
    @Param('id', uuid) id: string,
  ): Promise<void> {
    return this.passkeys.removeFor(caller, userId, id);
  }
}

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

  @Post('options')
  @HttpCode(200)
  @Public('signin')
  @ApiHeader(TEMP_HEADER)
  @ApiOperation({
    summary:
      'The WebAuthn request options of a passkey sign-in (for navigator.credentials.get()): for an email’s passkeys, usernameless without one, or (Temp-Auth-Token) the second step of a password sign-in',
  })
  @ApiOkResponse({ type: RequestOptionsDto })
  @ApiErrors(400, { 401: 'The Temp-Auth-Token is not a live temporary token' })
  async passkeyOptions(
    @Body() body: PasskeyOptionsRequestDto,
    @Req() req: Request,
  ): Promise<RequestOptionsDto> {
    return this.signIn.options(body, await this.pending.of(req));
  }

  @Post('login')
  @HttpCode(201)
  @Public('signin')
  @ApiHeader(TEMP_HEADER)
  @ApiOperation({
    summary:
      'Signs in with a passkey (AuthenticationResponseJSON) → the Token form as a password sign-in answers; with Temp-Auth-Token, completes that sign-in → the chosen domain’s Token (is_mfa_authenticated)',
  })
  @ApiExtraModels(LoginTokenDto, TokenDto)
  @ApiCreatedResponse({
    description:
      'Alone: the Token form (LoginToken, as simple/login/); with Temp-Auth-Token: the chosen domain’s Token (as multidomain/login/)',
    schema: { anyOf: [{ $ref: getSchemaPath(LoginTokenDto) }, { $ref: getSchemaPath(TokenDto) }] },
  })
  @ApiErrors(400, { 401: 'Passkey not accepted (one answer for every refusal)' })
  async passkeyLogin(@Body() body: PasskeyLoginDto, @Req() req: Request): Promise<LoginTokenDto | TokenDto> {
    const pending = await this.pending.of(req);
    const origin = fromRequest(req);
    if (pending) return this.signIn.completeSecondFactor(body, pending, origin);
    return this.signIn.signIn(body, origin);
  }
}
