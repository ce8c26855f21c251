import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const MetadataErrors = defineErrors('metadata', {
  VIEW_NOT_FOUND: message(404, 'View not found'),
  CATEGORY_NAME_TAKEN: message(409, 'A category with this name already exists'),
  /** `{field: message}`: an unknown, read-only or missing required field, or a malformed value. */
  INVALID: fields(),
});
