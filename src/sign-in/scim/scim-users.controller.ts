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
  ScimUserDto,
  ScimUserListDto,
} from './dto/scim.dto.js';
import { resourceHeaders, SCIM_BASE, ScimRoute } from './scim-routes.js';
import { ScimUsersService } from './scim-users.service.js';

const user = new UuidParamPipe('User');

/** RFC 7644 §3 over the accounts the token's domain owns (docs/scim.md). */
@Controller('API/scim/v2/Users')
export class ScimUsersController {
  constructor(
    private readonly users: ScimUsersService,
    @Inject(SCIM_BASE) private readonly base: string,
  ) {}

  @Get()
  @ScimRoute({ status: 200, type: ScimUserListDto }, 400)
  @ApiOperation({ summary: 'SCIM: the users the domain owns (filter, startIndex, count, attributes)' })
  listScimUsers(@Caller() auth: AuthContext, @Query() q: ScimListQueryDto) {
    return this.users.list(auth, q, this.base);
  }

  @Post()
  @ScimRoute({ status: 201, type: ScimUserDto }, 400, 409, 413)
  @ApiOperation({ summary: 'SCIM: provisions a user (userName: the email) as the domain’s own account' })
  @ApiBody({ type: ScimUserDto })
  async createScimUser(
    @Caller() auth: AuthContext,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    return resourceHeaders(res, await this.users.create(auth, body, this.base), true);
  }

  @Get(':id')
  @ScimRoute({ status: 200, type: ScimUserDto }, 400, 404)
  @ApiOperation({ summary: 'SCIM: one user' })
  async getScimUser(
    @Caller() auth: AuthContext,
    @Param('id', user) id: string,
    @Query() q: ScimResourceQueryDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return resourceHeaders(res, await this.users.get(auth, id, this.base, q));
  }

  @Put(':id')
  @ScimRoute({ status: 200, type: ScimUserDto }, 400, 404, 409, 412, 413)
  @ApiOperation({ summary: 'SCIM: replaces a user (If-Match honoured)' })
  @ApiBody({ type: ScimUserDto })
  async replaceScimUser(
    @Caller() auth: AuthContext,
    @Param('id', user) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return resourceHeaders(res, await this.users.replace(auth, id, body, this.base, ifMatch));
  }

  @Patch(':id')
  @ScimRoute({ status: 200, type: ScimUserDto }, 400, 404, 409, 412, 413)
  @ApiOperation({ summary: 'SCIM: changes a user with a PatchOp (active: false deactivates)' })
  @ApiBody({ type: ScimPatchDto })
  async patchScimUser(
    @Caller() auth: AuthContext,
    @Param('id', user) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return resourceHeaders(res, await this.users.patch(auth, id, body, this.base, ifMatch));
  }

  @Delete(':id')
  @ScimRoute(
    { status: 204, description: 'Deleted (the account, which the domain owned alone)' },
    400,
    404,
    412,
  )
  @ApiOperation({ summary: 'SCIM: deletes a user' })
  deleteScimUser(
    @Caller() auth: AuthContext,
    @Param('id', user) id: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.users.remove(auth, id, this.base, ifMatch);
  }
}
