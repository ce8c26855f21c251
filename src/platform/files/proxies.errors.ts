import { defineErrors, message } from '../../base/common/errors/error-codes.js';

/** The proxies' own answers (the rest are the files' codes: their bytes are a file's). */
export const ProxiesErrors = defineErrors('files', {
  PROXY_NOT_FOUND: message(404, 'Proxy not found'),
});
