import { EmailField, IntField, PasswordField, StringField } from '../../../base/common/validation/fields.js';
import { CHECK_BOUNDS } from '../password-checks.js';

/** Body of POST /v1/password/forgot/ (the spec's ForgotPassword). */
export class ForgotPasswordDto {
  @EmailField({ description: 'The account’s email; the answer is the same whether or not it has one' })
  email!: string;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 200,
    description:
      'Accepted for compatibility and ignored: the link is always a new one, mailed to the account',
  })
  reset_hash?: string | null;
}

/** Body of PUT /v1/password/reset/{reset_hash}/ (the spec's ResetPassword). */
export class ResetPasswordDto {
  @PasswordField({ description: 'The new password; it must pass the PasswordChecks of the link' })
  password!: string;
  @PasswordField({ description: 'The same password again' })
  repeat_password!: string;
}

const count = (what: string) => ({
  required: false,
  nullable: true,
  min: CHECK_BOUNDS.count.min,
  max: CHECK_BOUNDS.count.max,
  description: `At least this many ${what}; null: no rule`,
});

/**
 * The spec's PasswordChecks. Every field null means no rule beyond the service's own: at least 8 characters
 * and not a common or easily guessed password.
 */
export class PasswordChecksDto {
  @IntField(count('digits')) digits!: number | null;
  @IntField(count('lowercase letters')) lowercase!: number | null;
  @IntField(count('characters that are neither letters nor digits')) special_symbols!: number | null;
  @IntField(count('uppercase letters')) uppercase!: number | null;
  @IntField({
    required: false,
    nullable: true,
    min: CHECK_BOUNDS.min_length.min,
    max: CHECK_BOUNDS.min_length.max,
    description: 'At least this many characters (Unicode code points); null: 8',
  })
  min_length!: number | null;
  @IntField({
    required: false,
    nullable: true,
    min: CHECK_BOUNDS.max_length.min,
    max: CHECK_BOUNDS.max_length.max,
    description: 'At most this many characters; not below min_length; null: no rule',
  })
  max_length!: number | null;
}
