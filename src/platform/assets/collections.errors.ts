import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';
import { aclObjectErrors } from './acl-object-errors.js';

export const CollectionsErrors = defineErrors('collections', {
  ...aclObjectErrors('Collection'),
  CONTENT_NOT_FOUND: message(404, 'The object is not in this collection'),
  /** An object to add to a collection that the caller may not read, or not of the domain. */
  OBJECT_NOT_FOUND: message(404, 'Object not found'),
  INVALID: fields(),
});
