import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
import { Route } from '../../base/common/http/route.js';
import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';

const signIn = ServiceRoutes<MfaService>('mfa');
const otp = ServiceRoutes<OtpConfigurationService>('otpConfig');
const enrolment = ServiceRoutes<MfaEnrolmentService>('mfa');
/** The body's code: the service takes the code alone. */
const code: RouteInput<string> = { ...input.body(OtpCodeDto), pick: (b: OtpCodeDto) => b.otp };

/** The end of a sign-in that owes a second factor: only the temporary token (Temp-Auth-Token) opens these. */
@ApiTags('login')
@Controller('API/auth/v1/auth')
export class MfaLoginController extends signIn.handlers({
  multidomainLogin: signIn.call(
    'multidomainLogin',
    Route.post('multidomain/login', {
      summary: 'Completes a sign-in with a second factor → the chosen domain’s Token (is_mfa_authenticated)',
      policy: { kinds: ['TEMP'], whileFrozen: true },
      created: TokenDto,
      errors: [400],
    }),
    input.caller,
    input.body(MultiDomainLoginDto),
  ),
  generateSignInOtp: signIn.call(
    'generateForSignIn',
    Route.post('otp/generate', {
      summary: 'Mails a sign-in code (MAIL_2SV) for a sign-in that owes a second factor',
      policy: { kinds: ['TEMP'], whileFrozen: true },
      created: { description: 'Mailed' },
      errors: [400],
    }),
    input.caller,
    input.body(MultiDomainLoginDto),
  ),
  generateCurrentOtp: signIn.call(
    'generateForCurrent',
    Route.post('current/otp/generate', {
      summary: 'Mails a code to the signed-in user (step-up; proves the mailbox for MAIL_2SV)',
      policy: { anyScope: true, whileFrozen: true },
      created: { description: 'Mailed' },
    }),
    input.caller,
  ),
}) {
  constructor(protected readonly mfa: MfaService) {
    super();
  }
}

/** The signed-in user's own second factors (users service paths). */
@ApiTags('users')
@Controller('API/users/v1/users/current')
export class MfaEnrolmentController extends enrolment.handlers(
  {
    configureTotp: enrolment.call(
      'startTotp',
      Route.post('totp/configure', {
        summary: 'Starts authenticator (TOTP) enrolment: the seed, its otpauth:// URI and a QR code',
        policy: { accountChange: true },
        created: TotpEnrolmentDto,
        errors: [409],
      }),
      input.caller,
    ),
    // 200, as the published clients declare (it confirms, it creates nothing addressable)
    validateTotpConfiguration: enrolment.call(
      'confirmTotp',
      Route.post('totp/validate_configuration', {
        summary: 'Confirms TOTP enrolment with a first code → recovery codes (shown once)',
        policy: { accountChange: true },
        ok: RecoveryCodesDto,
        errors: [400],
      }),
      input.caller,
      code,
    ),
    removeTotp: enrolment.handle(
      Route.delete('totp/configure', {
        summary: 'Removes the authenticator app; needs a current code of it or a recovery code',
        policy: { accountChange: true },
        noContent: 'Removed',
        errors: [400],
      }),
      (s, c, b) => s.removeTotp(c, b.otp, b.otp_type ?? 'TOTP'),
      input.caller,
      input.body(TotpRemoveDto),
    ),
  },
  // the user's mail codes, registered after the authenticator's routes
  otp.handlers({
    getOtpConfiguration: otp.call(
      'get',
      Route.get('otp/configure', {
        summary: 'The user’s second factors',
        policy: {},
        ok: OtpConfigurationDto,
      }),
      input.caller,
    ),
    // 200, as the published clients declare
    enableOtp: otp.call(
      'enable',
      Route.post('otp/configure', {
        summary: 'Turns on sign-in codes by mail (MAIL_2SV) with a code from current/otp/generate',
        policy: { accountChange: true },
        ok: OtpConfigurationDto,
        errors: [400],
      }),
      input.caller,
      code,
    ),
    updateOtp: otp.call(
      'update',
      Route.put('otp/configure', {
        summary:
          'Turns MAIL_2SV on or off (mfa_required, or its older name enabled), with a code from current/otp/generate',
        policy: { accountChange: true },
        ok: OtpConfigurationDto,
        errors: [400],
      }),
      input.caller,
      input.body(MailOtpUpdateDto),
    ),
  }),
) {
  constructor(
    protected readonly mfa: MfaEnrolmentService,
    protected readonly otpConfig: OtpConfigurationService,
  ) {
    super();
  }
}
