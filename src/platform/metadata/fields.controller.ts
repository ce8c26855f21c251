import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  CreateFieldDto,
  FieldDto,
  FieldListDto,
  FieldListQueryDto,
  UpdateFieldDto,
} from './dto/field.dto.js';
import { FieldsService } from './fields.service.js';
import { Route } from '../../base/common/http/route.js';

const UPDATE =
  'Change a field’s properties (those given; the name stays). Its field_type changes only while no object has values of it (409)';
const edit = PutAndPatch({
  path: 'fields/:field_name',
  policy: { roles: ['can_write_assets'] },
  ok: FieldDto,
  errors: [{ 404: 'No such field in the domain', 409: 'Objects have values of the field: its type stays' }],
  put: `${UPDATE}. The same as PATCH`,
  patch: UPDATE,
});
const name = input.param('field_name');
const fields = ServiceRoutes<FieldsService>('fields');

/** The domain's metadata field registry (`/API/metadata/v1/fields/`); writes as for views. */
@ApiTags('metadata')
@ApiErrors(400)
@Controller('API/metadata/v1')
export class FieldsController extends fields.handlers({
  listFields: fields.call(
    'list',
    Route.get('fields', {
      summary: 'The domain’s metadata fields (page style; query filters name and label)',
      policy: { roles: ['can_read_assets'] },
      ok: FieldListDto,
    }),
    input.caller,
    input.query(FieldListQueryDto),
    input.path,
  ),
  createField: fields.call(
    'create',
    Route.post('fields', {
      summary: 'Register a metadata field (name, label and field_type required)',
      policy: { roles: ['can_write_assets'] },
      created: FieldDto,
      errors: [{ 409: 'The domain has a field of this name' }],
    }),
    input.caller,
    input.body(CreateFieldDto),
  ),
  getField: fields.call(
    'get',
    Route.get('fields/:field_name', {
      summary: 'One metadata field',
      policy: { roles: ['can_read_assets'] },
      ok: FieldDto,
      errors: [{ 404: 'No such field in the domain' }],
    }),
    input.caller,
    name,
  ),
  updateField: fields.call('update', edit.patch, input.caller, name, input.body(UpdateFieldDto)),
  deleteField: fields.call(
    'remove',
    Route.delete('fields/:field_name', {
      summary:
        'Delete a field no view names (409 naming the views otherwise); its values go from every object of the domain',
      policy: { roles: ['can_delete_assets'] },
      noContent: 'Deleted',
      errors: [{ 404: 'No such field in the domain', 409: 'Views name the field' }],
    }),
    input.caller,
    name,
  ),
  replaceField: fields.call('update', edit.put, input.caller, name, input.body(UpdateFieldDto)),
}) {
  constructor(protected readonly fields: FieldsService) {
    super();
  }
}
