import { IntField } from '../../../base/common/validation/fields.js';

export class PatQueryDto {
  @IntField({
    required: false,
    min: 1,
    description: 'Lifetime in seconds; default and cap ten years (larger values are capped)',
  })
  expires_in?: number;
}
