import { defineErrors, fields } from '../common/errors/error-codes.js';

export const SearchErrors = defineErrors('search', {
  INVALID: fields(),
});
