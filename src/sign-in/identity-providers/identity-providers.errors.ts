import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const IdpErrors = defineErrors('identity_providers', {
  NOT_FOUND: message(404, 'Identity provider does not exist'),
  DOMAIN_NOT_FOUND: message(404, 'Does not exist'),
  NO_SAML_IDENTITY: message(404, 'The user has no single-sign-on identity in this domain'),
  SAML_IDENTITY_TAKEN: message(409, 'This identity provider already signs another user in with this email'),
  SAML_SHARED_ACCOUNT: message(
    403,
    'This account is not this domain’s alone (a super administrator, or a member of other domains): only its person may link it to an identity provider, from a sign-in of their own (PUT /v1/users/current/saml/)',
  ),
  SAML_SELF_LINK_SERVICE_SIGN_IN: message(
    403,
    'Link your account to an identity provider from a sign-in with the service’s own password (and second factor), not from a single sign-on',
  ),
  /** A settings field, or the body as a whole, that the DTO cannot judge alone. */
  INVALID: fields(),
  INVALID_XML: (() => ({ status: 400, body: (why: string) => ({ xml: why }) }))(),
  DOMAIN_TAKEN: message(409, 'This email domain is already bound to an identity provider'),
  DOMAIN_FOREIGN: message(409, 'This email domain belongs to another system domain'),
  DOMAIN_CONTESTED: message(
    409,
    'People of other system domains, or a super administrator, have email addresses under this domain: ' +
      'only a super administrator may bind it (force)',
  ),
  FORCE_FORBIDDEN: message(403, 'Only a super administrator may bind or verify an email domain by decision'),
  /** The TXT record is not there (yet): the record's name in the message. */
  NOT_VERIFIED: (() => ({
    status: 409,
    body: (name: string) => [
      `No TXT record at ${name} carries this binding's value: publish it as shown in verification, ` +
        'then try again (a new record can take a while to be seen)',
    ],
  }))(),
  DNS_UNAVAILABLE: message(
    503,
    'The DNS lookup did not complete (no answer in time, or the resolvers failed); try again later',
  ),
  NO_IDP_FOR_EMAIL: message(404, 'No identity provider serves this email domain'),
  NOT_CONFIGURED: message(400, 'The identity provider is not fully configured for single sign-on'),
  /** Every refused SAML response: one answer, whatever was wrong (the log says what). */
  REFUSED: message(401, 'The single sign-on response was refused'),
  BAD_RESPONSE: message(400, 'No valid SAMLResponse in the request'),
  CODE_INVALID: message(401, 'The sign-in code is invalid, expired or already used'),
});
