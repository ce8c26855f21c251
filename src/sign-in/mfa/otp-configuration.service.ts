import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { MailOtpUpdateDto, OtpConfigurationDto, UserFactorsDto } from './dto/mfa.dto.js';
import { MfaErrors } from './mfa.errors.js';
import { factorOwed, MFA_METHODS, type MfaMethod } from '../login/mfa-policy.js';
import { MfaEnrolmentService } from './mfa-enrolment.service.js';
import { MfaRepository } from './mfa.repository.js';

/**
 * users/current/otp/configure/ in the published form: the user's factors plus what the caller's domain asks
 * (`mfa_required`, `mfa_methods`), and the published PUT body (`otp`, `otp_type`, `mfa_required`).
 */
@Injectable()
export class OtpConfigurationService {
  constructor(
    private readonly repo: MfaRepository,
    private readonly mfa: MfaEnrolmentService,
  ) {}

  async get(auth: AuthContext): Promise<OtpConfigurationDto> {
    return this.withPolicy(auth, await this.mfa.otpConfiguration(auth.userId));
  }

  async enable(auth: AuthContext, otp: string): Promise<OtpConfigurationDto> {
    return this.withPolicy(auth, await this.mfa.setMailOtp(auth, true, otp));
  }

  /** `mfa_required` (published) or `enabled` (older): one of them says on or off; both must agree. */
  async update(auth: AuthContext, body: MailOtpUpdateDto): Promise<OtpConfigurationDto> {
    const on = body.mfa_required ?? body.enabled;
    if (on === undefined) throw MfaErrors.INVALID_CODE({ mfa_required: 'must be true or false' });
    if (body.enabled !== undefined && body.enabled !== on)
      throw MfaErrors.INVALID_CODE({ enabled: 'must agree with mfa_required' });
    return this.withPolicy(auth, await this.mfa.setMailOtp(auth, on, body.otp));
  }

  private async withPolicy(auth: AuthContext, factors: UserFactorsDto): Promise<OtpConfigurationDto> {
    const domain = await this.repo.domainPolicy(auth.systemDomainId);
    const configured = factors.mfa_methods_configured as MfaMethod[];
    return {
      ...factors,
      mfa_required: factorOwed({ mfa_required: domain?.mfa_required ?? false }, configured),
      mfa_methods: MFA_METHODS.filter((m) => (domain?.mfa_methods ?? []).includes(m)),
    };
  }
}
