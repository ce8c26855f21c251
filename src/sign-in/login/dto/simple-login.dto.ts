import { EmailField, PasswordField, StringField } from '../../../base/common/validation/fields.js';

export class SimpleLoginDto {
  @EmailField() email!: string;
  @PasswordField() password!: string;
  @StringField({
    required: false,
    maxLength: 200,
    description: 'Name of the client signing in (recorded, informative)',
  })
  app_name?: string;
  @StringField({ required: false, maxLength: 500 }) marketplace_signup_nonce?: string;
}
