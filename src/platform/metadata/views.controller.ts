import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import {
  CategoryDto,
  CategoryListDto,
  CreateCategoryDto,
  ViewBodyDto,
  ViewDto,
  ViewListDto,
  ViewListQueryDto,
} from './dto/view.dto.js';
import { ViewsService } from './views.service.js';
import { Route } from '../../base/common/http/route.js';

const id = input.uuidParam('view_id', 'View');
const viewAccess = { entity: 'metadata-view', param: 'view_id' };
const views = ServiceRoutes<ViewsService>('views');

/** Metadata views and asset categories (`/API/metadata/v1/`). */
@ApiTags('metadata')
@ApiErrors(400)
@Controller('API/metadata/v1')
export class ViewsController extends views.handlers({
  listViews: views.call(
    'list',
    Route.get('views', {
      summary: 'Metadata views of the domain (page style; query filters the name)',
      policy: { roles: ['can_read_assets'] },
      ok: ViewListDto,
    }),
    input.caller,
    input.query(ViewListQueryDto),
    input.path,
  ),
  createView: views.call(
    'create',
    Route.post('views', {
      summary:
        'Create a metadata view naming registered fields (an entry naming a field not registered yet registers it)',
      policy: { roles: ['can_write_assets'] },
      created: ViewDto,
    }),
    input.caller,
    input.body(ViewBodyDto),
  ),
  getView: views.call(
    'getView',
    Route.get('views/:view_id', {
      summary: 'One metadata view',
      policy: { roles: ['can_read_assets'], access: viewAccess },
      ok: ViewDto,
      errors: [404],
    }),
    input.caller,
    id,
  ),
  replaceView: views.call(
    'replace',
    Route.put('views/:view_id', {
      summary: 'Replace a view (name, description, fields); values already set stay',
      policy: { roles: ['can_write_assets'], access: viewAccess },
      ok: ViewDto,
      errors: [404],
    }),
    input.caller,
    id,
    input.body(ViewBodyDto),
  ),
  deleteView: views.call(
    'remove',
    Route.delete('views/:view_id', {
      summary: 'Delete a view (categories stop naming it; values already set stay)',
      policy: { roles: ['can_delete_assets'], access: viewAccess },
      noContent: 'Deleted',
      errors: [404],
    }),
    input.caller,
    id,
  ),
  listAssetCategories: views.call(
    'listCategories',
    Route.get('assets/categories', {
      summary: 'Asset categories of the domain (page style)',
      policy: { roles: ['can_read_assets'] },
      ok: CategoryListDto,
    }),
    input.caller,
    input.query(PageQueryDto),
    input.path,
  ),
  createAssetCategory: views.call(
    'createCategory',
    Route.post('assets/categories', {
      summary: 'Create an asset category naming its views',
      policy: { roles: ['can_write_assets'] },
      created: CategoryDto,
      errors: [{ 409: 'The name is taken' }],
    }),
    input.caller,
    input.body(CreateCategoryDto),
  ),
}) {
  constructor(protected readonly views: ViewsService) {
    super();
  }
}
