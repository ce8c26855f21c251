import { EmailField, StringField } from '../../base/common/validation/fields.js';

/** The spec's EmailLogin: mails a single-use sign-in link to the address, if it belongs to an active user. */
export class EmailLoginDto {
  @EmailField() email!: string;
  @StringField({
    required: false,
    maxLength: 200,
    description: 'Name of the client signing in (recorded, informative)',
  })
  app_name?: string;
}
