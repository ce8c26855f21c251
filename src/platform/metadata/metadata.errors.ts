import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const MetadataErrors = defineErrors('metadata', {
  VIEW_NOT_FOUND: message(404, 'View not found'),
  CATEGORY_NAME_TAKEN: message(409, 'A category with this name already exists'),
  FIELD_NOT_FOUND: message(404, 'Field not found'),
  FIELD_NAME_TAKEN: message(409, 'A field with this name already exists'),
  /** `{field: "is named by the views: …"}`: a field views name is not deleted. */
  FIELD_IN_USE: fields(409),
  /** `{field_type: …}`: the type of a field objects have values of does not change. */
  FIELD_HAS_VALUES: fields(409),
  /** `{field: message}`: an unknown, read-only or missing required field, or a malformed value. */
  INVALID: fields(),
});
