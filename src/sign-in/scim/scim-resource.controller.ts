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
  type Type,
} from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { ScimListQueryDto, ScimPatchDto, ScimResourceQueryDto } from './dto/scim.dto.js';
import type { ScimListQuery } from './scim-query.js';
import type { Written } from './scim-resources.js';
import { resourceHeaders, SCIM_BASE, ScimRoute } from './scim-routes.js';

/** What a SCIM resource type's service answers: RFC 7644 §3's operations over the token's domain. */
export interface ScimResourceService {
  list(auth: AuthContext, q: ScimListQuery, base: string): Promise<unknown>;
  get(auth: AuthContext, id: string, base: string, q?: ScimListQuery): Promise<Written>;
  create(auth: AuthContext, body: unknown, base: string): Promise<Written>;
  replace(auth: AuthContext, id: string, body: unknown, base: string, ifMatch?: string): Promise<Written>;
  patch(auth: AuthContext, id: string, body: unknown, base: string, ifMatch?: string): Promise<Written>;
  remove(auth: AuthContext, id: string, base: string, ifMatch?: string): Promise<void>;
}

/** One SCIM resource type's routes: its endpoint, name, service, schemas and the summaries that differ. */
export interface ScimResourceSpec {
  /** The endpoint under /API/scim/v2 (RFC 7643 §6: `Users`, `Groups`). */
  endpoint: string;
  /** The resource type's name: the operation ids (`listScimUsers`, `getScimUser`, …) and the 400's wording. */
  name: string;
  plural: string;
  service: Type<ScimResourceService>;
  dto: Type;
  listDto: Type;
  summaries: { list: string; create: string; replace: string; patch: string };
  /** The 204's description on DELETE. */
  deleted: string;
}

/**
 * RFC 7644 §3 over one resource type of the token's domain (docs/scim.md): list, create, get, replace (PUT),
 * change (PATCH with a PatchOp) and delete, each a `ScimRoute` (provisioning token only, application/scim+json,
 * RFC 7644 errors). Users and Groups are this one family, so the two cannot drift apart in their headers
 * (ETag, Location), If-Match handling or declared errors; each names its own operation ids.
 */
export function ScimResourceController(spec: ScimResourceSpec): Type {
  const id = new UuidParamPipe(spec.name);
  const op = (verb: string, summary: string, plural = false) =>
    ApiOperation({ summary, operationId: `${verb}Scim${plural ? spec.plural : spec.name}` });

  @Controller(`API/scim/v2/${spec.endpoint}`)
  class ScimResourceRoutes {
    constructor(
      @Inject(spec.service) private readonly resources: ScimResourceService,
      @Inject(SCIM_BASE) private readonly base: string,
    ) {}

    @Get()
    @ScimRoute({ status: 200, type: spec.listDto }, 400)
    @op('list', spec.summaries.list, true)
    list(@Caller() auth: AuthContext, @Query() q: ScimListQueryDto) {
      return this.resources.list(auth, q, this.base);
    }

    @Post()
    @ScimRoute({ status: 201, type: spec.dto }, 400, 409, 413)
    @op('create', spec.summaries.create)
    @ApiBody({ type: spec.dto })
    async create(
      @Caller() auth: AuthContext,
      @Body() body: unknown,
      @Res({ passthrough: true }) res: Response,
    ) {
      return resourceHeaders(res, await this.resources.create(auth, body, this.base), true);
    }

    @Get(':id')
    @ScimRoute({ status: 200, type: spec.dto }, 400, 404)
    @op('get', `SCIM: one ${spec.name.toLowerCase()}`)
    async get(
      @Caller() auth: AuthContext,
      @Param('id', id) resourceId: string,
      @Query() q: ScimResourceQueryDto,
      @Res({ passthrough: true }) res: Response,
    ) {
      return resourceHeaders(res, await this.resources.get(auth, resourceId, this.base, q));
    }

    @Put(':id')
    @ScimRoute({ status: 200, type: spec.dto }, 400, 404, 409, 412, 413)
    @op('replace', spec.summaries.replace)
    @ApiBody({ type: spec.dto })
    async replace(
      @Caller() auth: AuthContext,
      @Param('id', id) resourceId: string,
      @Body() body: unknown,
      @Headers('if-match') ifMatch: string | undefined,
      @Res({ passthrough: true }) res: Response,
    ) {
      return resourceHeaders(res, await this.resources.replace(auth, resourceId, body, this.base, ifMatch));
    }

    @Patch(':id')
    @ScimRoute({ status: 200, type: spec.dto }, 400, 404, 409, 412, 413)
    @op('patch', spec.summaries.patch)
    @ApiBody({ type: ScimPatchDto })
    async patch(
      @Caller() auth: AuthContext,
      @Param('id', id) resourceId: string,
      @Body() body: unknown,
      @Headers('if-match') ifMatch: string | undefined,
      @Res({ passthrough: true }) res: Response,
    ) {
      return resourceHeaders(res, await this.resources.patch(auth, resourceId, body, this.base, ifMatch));
    }

    @Delete(':id')
    @ScimRoute({ status: 204, description: spec.deleted }, 400, 404, 412)
    @op('delete', `SCIM: deletes a ${spec.name.toLowerCase()}`)
    remove(
      @Caller() auth: AuthContext,
      @Param('id', id) resourceId: string,
      @Headers('if-match') ifMatch: string | undefined,
    ): Promise<void> {
      return this.resources.remove(auth, resourceId, this.base, ifMatch);
    }
  }
  return ScimResourceRoutes;
}
