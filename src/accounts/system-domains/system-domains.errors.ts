import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';
import { LOGO_MAX_BYTES } from './logo.js';

export const SystemDomainsErrors = defineErrors('system_domains', {
  /** The published wording; also what another tenant's domain answers (its id is not confirmed). */
  NOT_FOUND: message(404, 'System domain does not exist'),
  OWN_DOMAIN: message(
    400,
    'You cannot delete the system domain your own token belongs to: sign in to another domain first',
  ),
  LAST_DOMAIN_OF_SUPER_ADMIN: message(
    400,
    'This system domain is the only domain of a super administrator, whose account would be deleted with it: add them to another domain first',
  ),
  LOGO_MISSING: message(
    400,
    'Send the image as multipart/form-data, one file in a field named "logo" (or "file")',
  ),
  LOGO_TYPE: message(
    400,
    'The logo must be a PNG, JPEG, GIF or WebP image (SVG and other types are refused)',
  ),
  LOGO_TOO_LARGE: message(413, `The logo must be at most ${LOGO_MAX_BYTES / 1024 / 1024} MiB`),
  NO_LOGO: message(404, 'This system domain has no logo'),
  NOT_E2E: message(
    409,
    'This system domain was not created as an end-to-end test domain (is_e2e): delete it with DELETE /v1/system_domains/{id}/ instead',
  ),
  INVALID: fields(),
});
