import { defineErrors, fields } from '../../base/common/errors/error-codes.js';

export const SearchErrors = defineErrors('search', {
  INVALID: fields(),
});
