import { defineErrors, message } from '../../base/common/errors/error-codes.js';

export const AuditErrors = defineErrors('audit', {
  OTHER_DOMAIN: message(403, 'Only super administrators may list another domain’s audit records'),
});
