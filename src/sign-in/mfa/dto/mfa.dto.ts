import { ApiProperty } from '@nestjs/swagger';
import {
  BoolField,
  EmailField,
  EnumField,
  StringArrayField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import { MFA_METHODS, OTP_TYPES } from '../../login/mfa-policy.js';

/** MultiDomainLogin: completes a sign-in that owes a factor (with Temp-Auth-Token), or asks for a mailed code. */
export class MultiDomainLoginDto {
  @EmailField() email!: string;
  @UuidField() system_domain_id!: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) app_name?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 500 }) marketplace_signup_nonce?: string | null;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 64,
    description: 'The code: from the authenticator app (TOTP), the mail (MAIL_2SV), or a recovery code',
  })
  otp?: string | null;
  @EnumField(OTP_TYPES, {
    required: false,
    nullable: true,
    description: 'Which kind of code `otp` is; default: the first method the domain accepts from the user',
  })
  otp_type?: (typeof OTP_TYPES)[number] | null;
}

export class OtpCodeDto {
  @StringField({ maxLength: 64, description: 'A current code' }) otp!: string;
}

export class TotpRemoveDto {
  @StringField({ maxLength: 64, description: 'A current authenticator code, or a recovery code' })
  otp!: string;
  @EnumField(['TOTP', 'RECOVERY'], { required: false, nullable: true, description: 'Default TOTP' })
  otp_type?: 'TOTP' | 'RECOVERY' | null;
}

/** The published body (otp, otp_type, mfa_required); `enabled` is this service's older name of mfa_required. */
export class MailOtpUpdateDto {
  @StringField({ maxLength: 64, description: 'A code from POST /v1/auth/current/otp/generate/' })
  otp!: string;
  @EnumField(['MAIL_2SV'] as const, {
    required: false,
    description: 'The factor turned on or off: MAIL_2SV (an authenticator app has totp/configure)',
  })
  otp_type?: 'MAIL_2SV';
  @BoolField({
    required: false,
    description: 'Whether mailed codes (MAIL_2SV) are a second factor of this user (one of this and enabled)',
  })
  mfa_required?: boolean;
  @BoolField({ required: false, description: 'Older name of mfa_required' })
  enabled?: boolean;
}

export class TotpEnrolmentDto {
  @ApiProperty({
    readOnly: true,
    description: 'The seed (base32), shown once; type it in if the QR code cannot be scanned',
  })
  secret!: string;
  @ApiProperty({ readOnly: true, description: 'otpauth://totp/… for authenticator apps' }) uri!: string;
  @ApiProperty({ readOnly: true, description: 'The URI as a QR code: a data: URL of a PNG image' })
  qr_code!: string;
}

export class RecoveryCodesDto {
  @ApiProperty({
    type: [String],
    readOnly: true,
    description: 'Single-use recovery codes (otp_type RECOVERY), shown once: keep them safe',
  })
  recovery_codes!: string[];
}

export class OtpConfigurationDto {
  @ApiProperty({ readOnly: true }) mail_2sv_enabled!: boolean;
  @ApiProperty({ readOnly: true }) totp_enabled!: boolean;
  @ApiProperty({ readOnly: true }) recovery_codes_remaining!: number;
  @ApiProperty({ readOnly: true, type: [String], enum: MFA_METHODS }) mfa_methods_configured!: string[];
  @ApiProperty({
    readOnly: true,
    description:
      'Whether signing in to this domain owes this user a second factor (one configured, or the domain requires one)',
  })
  mfa_required!: boolean;
  @ApiProperty({
    readOnly: true,
    type: [String],
    enum: MFA_METHODS,
    description: 'The methods the domain accepts as a second factor',
  })
  mfa_methods!: string[];
}

/** The user's own factors, before the domain's policy is added (MfaService answers this). */
export type UserFactorsDto = Omit<OtpConfigurationDto, 'mfa_required' | 'mfa_methods'>;

export class DomainMfaPolicyDto {
  @BoolField({ required: false, description: 'Every member must pass a second factor to sign in' })
  mfa_required?: boolean;
  @StringArrayField({ required: false, in: MFA_METHODS, maxItems: 3, description: 'Methods that count' })
  mfa_methods?: string[];
}

export class DomainMfaPolicyOutDto {
  @ApiProperty({ readOnly: true }) mfa_required!: boolean;
  @ApiProperty({ readOnly: true, type: [String], enum: MFA_METHODS }) mfa_methods!: string[];
}
