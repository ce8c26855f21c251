import { defineErrors, fields } from '../../base/common/errors/error-codes.js';
import { aclObjectErrors } from './acl-object-errors.js';

export const AssetsErrors = defineErrors('assets', {
  ...aclObjectErrors('Asset'),
  INVALID: fields(),
});
