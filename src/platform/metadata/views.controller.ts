import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
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

const uuid = new UuidParamPipe('View');
const viewAccess = { entity: 'metadata-view', param: 'view_id' };

/** Metadata views and asset categories (`/API/metadata/v1/`). */
@ApiTags('metadata')
@ApiErrors(400)
@Controller('API/metadata/v1')
export class ViewsController {
  constructor(private readonly views: ViewsService) {}

  @Get('views')
  @Authenticated({ roles: ['can_read_assets'] })
  @ApiOperation({ summary: 'Metadata views of the domain (page style; query filters the name)' })
  @ApiOkResponse({ type: ViewListDto })
  listViews(
    @Query() q: ViewListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<ViewListDto> {
    return this.views.list(caller, q, req.path);
  }

  @Post('views')
  @Authenticated({ roles: ['can_write_assets'] })
  @ApiOperation({
    summary:
      'Create a metadata view naming registered fields (an entry naming a field not registered yet registers it)',
  })
  @ApiCreatedResponse({ type: ViewDto })
  createView(@Body() body: ViewBodyDto, @Caller() caller: AuthContext): Promise<ViewDto> {
    return this.views.create(caller, body);
  }

  @Get('views/:view_id')
  @Authenticated({ roles: ['can_read_assets'], access: viewAccess })
  @ApiOperation({ summary: 'One metadata view' })
  @ApiOkResponse({ type: ViewDto })
  @ApiErrors(404)
  getView(@Param('view_id', uuid) id: string, @Caller() caller: AuthContext): Promise<ViewDto> {
    return this.views.getView(caller, id);
  }

  @Put('views/:view_id')
  @Authenticated({ roles: ['can_write_assets'], access: viewAccess })
  @ApiOperation({ summary: 'Replace a view (name, description, fields); values already set stay' })
  @ApiOkResponse({ type: ViewDto })
  @ApiErrors(404)
  replaceView(
    @Param('view_id', uuid) id: string,
    @Body() body: ViewBodyDto,
    @Caller() caller: AuthContext,
  ): Promise<ViewDto> {
    return this.views.replace(caller, id, body);
  }

  @Delete('views/:view_id')
  @HttpCode(204)
  @Authenticated({ roles: ['can_delete_assets'], access: viewAccess })
  @ApiOperation({ summary: 'Delete a view (categories stop naming it; values already set stay)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  deleteView(@Param('view_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.views.remove(caller, id);
  }

  @Get('assets/categories')
  @Authenticated({ roles: ['can_read_assets'] })
  @ApiOperation({ summary: 'Asset categories of the domain (page style)' })
  @ApiOkResponse({ type: CategoryListDto })
  listAssetCategories(
    @Query() q: PageQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<CategoryListDto> {
    return this.views.listCategories(caller, q, req.path);
  }

  @Post('assets/categories')
  @Authenticated({ roles: ['can_write_assets'] })
  @ApiOperation({ summary: 'Create an asset category naming its views' })
  @ApiCreatedResponse({ type: CategoryDto })
  @ApiErrors({ 409: 'The name is taken' })
  createAssetCategory(@Body() body: CreateCategoryDto, @Caller() caller: AuthContext): Promise<CategoryDto> {
    return this.views.createCategory(caller, body);
  }
}
