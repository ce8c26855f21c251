import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { TokenDto } from '../../credentials/tokens/dto/token.dto.js';
import {
  MailOtpUpdateDto,
  MultiDomainLoginDto,
  OtpCodeDto,
  OtpConfigurationDto,
  RecoveryCodesDto,
  TotpEnrolmentDto,
  TotpRemoveDto,
} from './dto/mfa.dto.js';
import { MfaEnrolmentService } from './mfa-enrolment.service.js';
import { MfaService } from './mfa.service.js';
import { OtpConfigurationService } from './otp-configuration.service.js';

/** The end of a sign-in that owes a second factor: only the temporary token (Temp-Auth-Token) opens these. */
@ApiTags('login')
@Controller('API/auth/v1/auth')
export class MfaLoginController {
  constructor(private readonly mfa: MfaService) {}

  @Post('multidomain/login')
  @HttpCode(201)
  @Authenticated({ kinds: ['TEMP'], whileFrozen: true })
  @ApiOperation({
    summary: 'Completes a sign-in with a second factor → the chosen domain’s Token (is_mfa_authenticated)',
  })
  @ApiCreatedResponse({ type: TokenDto })
  @ApiErrors(400)
  multidomainLogin(@Caller() caller: AuthContext, @Body() body: MultiDomainLoginDto): Promise<TokenDto> {
    return this.mfa.multidomainLogin(caller, body);
  }

  @Post('otp/generate')
  @HttpCode(201)
  @Authenticated({ kinds: ['TEMP'], whileFrozen: true })
  @ApiOperation({ summary: 'Mails a sign-in code (MAIL_2SV) for a sign-in that owes a second factor' })
  @ApiCreatedResponse({ description: 'Mailed' })
  @ApiErrors(400)
  generateSignInOtp(@Caller() caller: AuthContext, @Body() body: MultiDomainLoginDto): Promise<void> {
    return this.mfa.generateForSignIn(caller, body);
  }

  @Post('current/otp/generate')
  @HttpCode(201)
  @Authenticated({ anyScope: true, whileFrozen: true })
  @ApiOperation({ summary: 'Mails a code to the signed-in user (step-up; proves the mailbox for MAIL_2SV)' })
  @ApiCreatedResponse({ description: 'Mailed' })
  generateCurrentOtp(@Caller() caller: AuthContext): Promise<void> {
    return this.mfa.generateForCurrent(caller);
  }
}

/** The signed-in user's own second factors (users service paths). */
@ApiTags('users')
@Controller('API/users/v1/users/current')
export class MfaEnrolmentController {
  constructor(
    private readonly mfa: MfaEnrolmentService,
    private readonly otpConfig: OtpConfigurationService,
  ) {}

  @Post('totp/configure')
  @HttpCode(201)
  @Authenticated({ accountChange: true })
  @ApiOperation({
    summary: 'Starts authenticator (TOTP) enrolment: the seed, its otpauth:// URI and a QR code',
  })
  @ApiCreatedResponse({ type: TotpEnrolmentDto })
  @ApiErrors(409)
  configureTotp(@Caller() caller: AuthContext): Promise<TotpEnrolmentDto> {
    return this.mfa.startTotp(caller);
  }

  // 200, as the published clients declare (it confirms, it creates nothing addressable)
  @Post('totp/validate_configuration')
  @HttpCode(200)
  @Authenticated({ accountChange: true })
  @ApiOperation({ summary: 'Confirms TOTP enrolment with a first code → recovery codes (shown once)' })
  @ApiOkResponse({ type: RecoveryCodesDto })
  @ApiErrors(400)
  validateTotpConfiguration(
    @Caller() caller: AuthContext,
    @Body() body: OtpCodeDto,
  ): Promise<RecoveryCodesDto> {
    return this.mfa.confirmTotp(caller, body.otp);
  }

  @Delete('totp/configure')
  @HttpCode(204)
  @Authenticated({ accountChange: true })
  @ApiOperation({ summary: 'Removes the authenticator app; needs a current code of it or a recovery code' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(400)
  removeTotp(@Caller() caller: AuthContext, @Body() body: TotpRemoveDto): Promise<void> {
    return this.mfa.removeTotp(caller, body.otp, body.otp_type ?? 'TOTP');
  }

  @Get('otp/configure')
  @Authenticated()
  @ApiOperation({ summary: 'The user’s second factors' })
  @ApiOkResponse({ type: OtpConfigurationDto })
  getOtpConfiguration(@Caller() caller: AuthContext): Promise<OtpConfigurationDto> {
    return this.otpConfig.get(caller);
  }

  // 200, as the published clients declare
  @Post('otp/configure')
  @HttpCode(200)
  @Authenticated({ accountChange: true })
  @ApiOperation({
    summary: 'Turns on sign-in codes by mail (MAIL_2SV) with a code from current/otp/generate',
  })
  @ApiOkResponse({ type: OtpConfigurationDto })
  @ApiErrors(400)
  enableOtp(@Caller() caller: AuthContext, @Body() body: OtpCodeDto): Promise<OtpConfigurationDto> {
    return this.otpConfig.enable(caller, body.otp);
  }

  @Put('otp/configure')
  @Authenticated({ accountChange: true })
  @ApiOperation({
    summary:
      'Turns MAIL_2SV on or off (mfa_required, or its older name enabled), with a code from current/otp/generate',
  })
  @ApiOkResponse({ type: OtpConfigurationDto })
  @ApiErrors(400)
  updateOtp(@Caller() caller: AuthContext, @Body() body: MailOtpUpdateDto): Promise<OtpConfigurationDto> {
    return this.otpConfig.update(caller, body);
  }
}
