import { IntField, StringField, UuidField } from '../validation/fields.js';

export class PageQueryDto {
  @IntField({ min: 1, max: 10000, required: false, description: 'Page number, 1 to 10000', example: 1 })
  page: number = 1;
  @IntField({ min: 1, max: 1000, required: false, description: 'Items per page, 1 to 1000', example: 10 })
  per_page: number = 10;
  @StringField({
    required: false,
    description: 'field,order pairs separated by ";" (e.g. name,asc;date_created,desc)',
  })
  sort?: string;
}

export class CursorQueryDto {
  @IntField({ min: 1, max: 1000, required: false, description: 'Items per page, 1 to 1000', example: 10 })
  per_page: number = 10;
  @UuidField({ required: false, description: 'id of the last item of the previous page' })
  last_id?: string;
}
