import { EmailField, UuidField } from '../../../base/common/validation/fields.js';

/** Body of PUT /v1/users/{user_id}/saml/. */
export class UserSamlIdentityDto {
  @EmailField({
    description: 'The email the identity provider asserts for this user (NameID or email attribute)',
  })
  email!: string;
  @UuidField({ description: 'An identity provider of the caller’s domain' }) identity_provider_id!: string;
}
