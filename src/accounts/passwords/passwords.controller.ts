import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { ForgotPasswordDto, PasswordChecksDto, ResetPasswordDto } from './dto/password.dto.js';
import { PasswordsService } from './passwords.service.js';
import { Route } from '../../base/common/http/route.js';

const UNKNOWN_LINK = 'No such reset link';
const expired = (text: string) => `The link expired, was used, or a newer one replaced it: ${text}`;
const passwords = ServiceRoutes<PasswordsService>('passwords');

/** Password reset through a mailed link (no credentials: the link's secret is one) and PasswordChecks. */
@ApiTags('passwords')
@ApiErrors(400)
@Controller('API/auth/v1/password')
export class PasswordsController extends passwords.handlers({
  forgotPassword: passwords.call(
    'forgot',
    Route.post('forgot', {
      summary:
        'Mail a single-use password reset link; the same answer, after about the same time, whether or not the email has an account',
      public: 'signin',
      created: { description: 'No body' },
    }),
    input.body(ForgotPasswordDto),
  ),
  resetPassword: passwords.call(
    'reset',
    Route.put('reset/:reset_hash', {
      summary: 'Set a new password through a reset link (once); every token of the account is revoked',
      public: 'signin',
      ok: { description: 'No body' },
      errors: [{ 404: UNKNOWN_LINK, 419: expired('"Authentication token expired"') }],
    }),
    input.param('reset_hash'),
    input.body(ResetPasswordDto),
    input.requestId,
  ),
  // the fixed path before /{reset_hash}/checks
  getPasswordChecks: passwords.call(
    'checks',
    Route.get('checks', {
      summary: 'The PasswordChecks of the caller’s domain',
      policy: { anyScope: true },
      ok: PasswordChecksDto,
    }),
    input.caller,
  ),
  setPasswordChecks: passwords.call(
    'setChecks',
    Route.put('checks', {
      summary:
        'Replace the PasswordChecks of the caller’s domain (administrators); omitted fields become null, no rule',
      policy: { admin: true },
      ok: PasswordChecksDto,
    }),
    input.caller,
    input.body(PasswordChecksDto),
  ),
  getResetPasswordChecks: passwords.call(
    'linkChecks',
    Route.get(':reset_hash/checks', {
      summary:
        'The PasswordChecks a password set through this reset link must pass (the strictest of every domain of the account)',
      public: 'signin',
      ok: PasswordChecksDto,
      errors: [{ 404: UNKNOWN_LINK, 419: expired('"Reset password token expired"') }],
    }),
    input.param('reset_hash'),
  ),
}) {
  constructor(protected readonly passwords: PasswordsService) {
    super();
  }
}
