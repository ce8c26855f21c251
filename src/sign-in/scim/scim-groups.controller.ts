import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  ScimListQueryDto,
  ScimPatchDto,
  ScimResourceQueryDto,
  ScimGroupDto,
  ScimGroupListDto,
} from './dto/scim.dto.js';
import { resourceHeaders, SCIM_BASE, ScimRoute } from './scim-routes.js';
import { ScimGroupsService } from './scim-groups.service.js';

const group = new UuidParamPipe('Group');

/** RFC 7644 §3 over the token's domain's groups (docs/scim.md). */
@Controller('API/scim/v2/Groups')
export class ScimGroupsController {
  constructor(
    private readonly groups: ScimGroupsService,
    @Inject(SCIM_BASE) private readonly base: string,
  ) {}

  @Get()
  @ScimRoute({ status: 200, type: ScimGroupListDto }, 400)
  @ApiOperation({ summary: 'SCIM: the domain’s groups (filter, startIndex, count, attributes)' })
  listScimGroups(@Caller() auth: AuthContext, @Query() q: ScimListQueryDto) {
    return this.groups.list(auth, q, this.base);
  }

  @Post()
  @ScimRoute({ status: 201, type: ScimGroupDto }, 400, 409, 413)
  @ApiOperation({ summary: 'SCIM: creates a group (members: users the domain owns)' })
  @ApiBody({ type: ScimGroupDto })
  async createScimGroup(
    @Caller() auth: AuthContext,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    return resourceHeaders(res, await this.groups.create(auth, body, this.base), true);
  }

  @Get(':id')
  @ScimRoute({ status: 200, type: ScimGroupDto }, 400, 404)
  @ApiOperation({ summary: 'SCIM: one group' })
  async getScimGroup(
    @Caller() auth: AuthContext,
    @Param('id', group) id: string,
    @Query() q: ScimResourceQueryDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return resourceHeaders(res, await this.groups.get(auth, id, this.base, q));
  }

  @Put(':id')
  @ScimRoute({ status: 200, type: ScimGroupDto }, 400, 404, 409, 412, 413)
  @ApiOperation({ summary: 'SCIM: replaces a group and its members (If-Match honoured)' })
  @ApiBody({ type: ScimGroupDto })
  async replaceScimGroup(
    @Caller() auth: AuthContext,
    @Param('id', group) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return resourceHeaders(res, await this.groups.replace(auth, id, body, this.base, ifMatch));
  }

  @Patch(':id')
  @ScimRoute({ status: 200, type: ScimGroupDto }, 400, 404, 409, 412, 413)
  @ApiOperation({ summary: 'SCIM: changes a group with a PatchOp (members add, remove, replace)' })
  @ApiBody({ type: ScimPatchDto })
  async patchScimGroup(
    @Caller() auth: AuthContext,
    @Param('id', group) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return resourceHeaders(res, await this.groups.patch(auth, id, body, this.base, ifMatch));
  }

  @Delete(':id')
  @ScimRoute({ status: 204, description: 'Deleted' }, 400, 404, 412)
  @ApiOperation({ summary: 'SCIM: deletes a group' })
  deleteScimGroup(
    @Caller() auth: AuthContext,
    @Param('id', group) id: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.groups.remove(auth, id, this.base, ifMatch);
  }
}
