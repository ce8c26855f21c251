import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
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

const uuid = new UuidParamPipe('View');
const viewAccess = { entity: 'metadata-view', param: 'view_id' };

/** Metadata views and asset categories (`/API/metadata/v1/`). */
@ApiTags('metadata')
@ApiErrors(400)
@Controller('API/metadata/v1')
export class ViewsController {
  constructor(private readonly views: ViewsService) {}

  @Route.get('views', {
    summary: 'Metadata views of the domain (page style; query filters the name)',
    policy: { roles: ['can_read_assets'] },
    ok: ViewListDto,
  })
  listViews(
    @Query() q: ViewListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<ViewListDto> {
    return this.views.list(caller, q, req.path);
  }

  @Route.post('views', {
    summary:
      'Create a metadata view naming registered fields (an entry naming a field not registered yet registers it)',
    policy: { roles: ['can_write_assets'] },
    created: ViewDto,
  })
  createView(@Body() body: ViewBodyDto, @Caller() caller: AuthContext): Promise<ViewDto> {
    return this.views.create(caller, body);
  }

  @Route.get('views/:view_id', {
    summary: 'One metadata view',
    policy: { roles: ['can_read_assets'], access: viewAccess },
    ok: ViewDto,
    errors: [404],
  })
  getView(@Param('view_id', uuid) id: string, @Caller() caller: AuthContext): Promise<ViewDto> {
    return this.views.getView(caller, id);
  }

  @Route.put('views/:view_id', {
    summary: 'Replace a view (name, description, fields); values already set stay',
    policy: { roles: ['can_write_assets'], access: viewAccess },
    ok: ViewDto,
    errors: [404],
  })
  replaceView(
    @Param('view_id', uuid) id: string,
    @Body() body: ViewBodyDto,
    @Caller() caller: AuthContext,
  ): Promise<ViewDto> {
    return this.views.replace(caller, id, body);
  }

  @Route.delete('views/:view_id', {
    summary: 'Delete a view (categories stop naming it; values already set stay)',
    policy: { roles: ['can_delete_assets'], access: viewAccess },
    noContent: 'Deleted',
    errors: [404],
  })
  deleteView(@Param('view_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.views.remove(caller, id);
  }

  @Route.get('assets/categories', {
    summary: 'Asset categories of the domain (page style)',
    policy: { roles: ['can_read_assets'] },
    ok: CategoryListDto,
  })
  listAssetCategories(
    @Query() q: PageQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<CategoryListDto> {
    return this.views.listCategories(caller, q, req.path);
  }

  @Route.post('assets/categories', {
    summary: 'Create an asset category naming its views',
    policy: { roles: ['can_write_assets'] },
    created: CategoryDto,
    errors: [{ 409: 'The name is taken' }],
  })
  createAssetCategory(@Body() body: CreateCategoryDto, @Caller() caller: AuthContext): Promise<CategoryDto> {
    return this.views.createCategory(caller, body);
  }
}
