import { defineErrors, message } from '../base/common/errors/error-codes.js';

export const StaticErrors = defineErrors('static', {
  NOT_FOUND: message(404, 'No such asset'),
});
