import { defineErrors, fields, message } from '../common/errors/error-codes.js';

export const IdpErrors = defineErrors('identity_providers', {
  NOT_FOUND: message(404, 'Identity provider does not exist'),
  DOMAIN_NOT_FOUND: message(404, 'Does not exist'),
  NO_SAML_IDENTITY: message(404, 'The user has no single-sign-on identity in this domain'),
  SAML_IDENTITY_TAKEN: message(409, 'This identity provider already signs another user in with this email'),
  SAML_SHARED_ACCOUNT: message(
    403,
    'This user also belongs to other domains: only a super administrator may set their single-sign-on identity',
  ),
  /** A settings field, or the body as a whole, that the DTO cannot judge alone. */
  INVALID: fields(),
  INVALID_XML: (() => ({ status: 400, body: (why: string) => ({ xml: why }) }))(),
  DOMAIN_TAKEN: message(409, 'This email domain is already bound to an identity provider'),
  DOMAIN_FOREIGN: message(409, 'This email domain belongs to another system domain'),
  NO_IDP_FOR_EMAIL: message(404, 'No identity provider serves this email domain'),
  NOT_CONFIGURED: message(400, 'The identity provider is not fully configured for single sign-on'),
  /** Every refused SAML response: one answer, whatever was wrong (the log says what). */
  REFUSED: message(401, 'The single sign-on response was refused'),
  BAD_RESPONSE: message(400, 'No valid SAMLResponse in the request'),
  CODE_INVALID: message(401, 'The sign-in code is invalid, expired or already used'),
});
