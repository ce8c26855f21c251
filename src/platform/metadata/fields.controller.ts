import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
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

/** The domain's metadata field registry (`/API/metadata/v1/fields/`); writes as for views. */
@ApiTags('metadata')
@ApiErrors(400)
@Controller('API/metadata/v1')
export class FieldsController {
  constructor(private readonly fields: FieldsService) {}

  @Route.get('fields', {
    summary: 'The domain’s metadata fields (page style; query filters name and label)',
    policy: { roles: ['can_read_assets'] },
    ok: FieldListDto,
  })
  listFields(
    @Query() q: FieldListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<FieldListDto> {
    return this.fields.list(caller, q, req.path);
  }

  @Route.post('fields', {
    summary: 'Register a metadata field (name, label and field_type required)',
    policy: { roles: ['can_write_assets'] },
    created: FieldDto,
    errors: [{ 409: 'The domain has a field of this name' }],
  })
  createField(@Body() body: CreateFieldDto, @Caller() caller: AuthContext): Promise<FieldDto> {
    return this.fields.create(caller, body);
  }

  @Route.get('fields/:field_name', {
    summary: 'One metadata field',
    policy: { roles: ['can_read_assets'] },
    ok: FieldDto,
    errors: [{ 404: 'No such field in the domain' }],
  })
  getField(@Param('field_name') name: string, @Caller() caller: AuthContext): Promise<FieldDto> {
    return this.fields.get(caller, name);
  }

  @edit.both('replaceField')
  updateField(
    @Param('field_name') name: string,
    @Body() body: UpdateFieldDto,
    @Caller() caller: AuthContext,
  ): Promise<FieldDto> {
    return this.fields.update(caller, name, body);
  }

  @Route.delete('fields/:field_name', {
    summary:
      'Delete a field no view names (409 naming the views otherwise); its values go from every object of the domain',
    policy: { roles: ['can_delete_assets'] },
    noContent: 'Deleted',
    errors: [{ 404: 'No such field in the domain', 409: 'Views name the field' }],
  })
  deleteField(@Param('field_name') name: string, @Caller() caller: AuthContext): Promise<void> {
    return this.fields.remove(caller, name);
  }
}
