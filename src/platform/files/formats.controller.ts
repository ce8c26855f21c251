import { Controller } from '@nestjs/common';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input } from '../../base/common/http/service-routes.js';
import { CreateFormatDto, FormatDto, FormatListDto, UpdateFormatDto } from './dto/file.dto.js';
import { FormatsService } from './formats.service.js';
import { param, READ, WRITE, DELETE, FileSetRoutes, formats } from './file-set.routes.js';
import { Route } from '../../base/common/http/route.js';

const asset = input.uuidParam(param, 'Asset');
const format = input.uuidParam('format_id', 'Format');
const edit = PutAndPatch({
  path: 'formats/:format_id',
  policy: WRITE,
  ok: FormatDto,
  put: 'Change a format (the same as PATCH: the fields given change, the others stay)',
  patch: 'Change a format',
});

/** Formats and file sets of an asset: the asset's ACL governs them (read, write, delete per route). */
@ApiTags('files')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such row under it' })
@Controller('API/files/v1/assets/:asset_id')
export class FormatsController extends formats.handlers(
  {
    createFormat: formats.call(
      'createFormat',
      Route.post('formats', { summary: 'Create a format of the asset', policy: WRITE, created: FormatDto }),
      input.caller,
      asset,
      input.body(CreateFormatDto),
    ),
    listFormats: formats.call(
      'listFormats',
      Route.get('formats', { summary: 'Formats of the asset', policy: READ, ok: FormatListDto }),
      asset,
      input.query(PageQueryDto),
      input.path,
    ),
    getFormat: formats.call(
      'getFormat',
      Route.get('formats/:format_id', { summary: 'One format', policy: READ, ok: FormatDto }),
      asset,
      format,
    ),
    updateFormat: formats.call('updateFormat', edit.patch, asset, format, input.body(UpdateFormatDto)),
    deleteFormat: formats.call(
      'deleteFormat',
      Route.delete('formats/:format_id', {
        summary: 'Delete a format that has no files left',
        policy: DELETE,
        noContent: 'Deleted',
      }),
      asset,
      format,
    ),
    replaceFormat: formats.call('updateFormat', edit.put, asset, format, input.body(UpdateFormatDto)),
  },
  FileSetRoutes,
) {
  constructor(protected readonly formats: FormatsService) {
    super();
  }
}
