import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Put,
  Query,
  Res,
  type Type,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated, type AuthenticatedOptions } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import type { Principal } from './acl-entries.js';
import { AclBodyDto, GroupAclDto, ObjectAclDto, PermissionsDto, UserAclDto } from './dto/acl.dto.js';
import { PropagateQueryDto } from './dto/collection.dto.js';

/** What an entity's ACL service answers (assets: AclsService; collections: CollectionAclsService). */
export interface EntityAclService {
  mine(auth: AuthContext, id: string): Promise<PermissionsDto>;
  list(id: string): Promise<ObjectAclDto>;
  get(auth: AuthContext, id: string, who: Principal): Promise<UserAclDto | GroupAclDto>;
  put(
    auth: AuthContext,
    id: string,
    who: Principal,
    permissions: string[],
    propagate?: boolean,
  ): Promise<{ entry: UserAclDto | GroupAclDto; created: boolean }>;
  remove(auth: AuthContext, id: string, who: Principal): Promise<void>;
}

/** One entity type's ACL routes under /API/acls/v1. */
export interface EntityAclSpec {
  /** The path segment (`acl/{segment}/{param}`) and the name in the operationIds (`getUserAssetAcl`). */
  segment: string;
  name: string;
  param: string;
  /** The entity with its article, as the summaries say it: `an asset`. */
  noun: string;
  service: Type<EntityAclService>;
  /** Reading the ACL (and one's own permissions), and changing it. */
  read: AuthenticatedOptions;
  change: AuthenticatedOptions;
  /** What the PUT of an entry needs and does, for its summary. */
  putRules: string;
  /** The PUT of an entry takes `?propagate=true` (collections: down to their contents). */
  propagate: boolean;
}

const principal = { user: new UuidParamPipe('User'), group: new UuidParamPipe('Group') };

/**
 * The entity ACLs of one entity type (docs/interface.md's access lists): the caller's own permissions, the
 * whole ACL, and a user's or a group's entry (GET, PUT: 200 or 201 when new, DELETE). Assets and collections
 * are this one family, so their policies, answers and declared errors cannot drift apart; each names its own
 * operationIds. The rules themselves (what a caller may grant) are the services' (acl-entries.ts).
 */
export function EntityAclController(spec: EntityAclSpec): Type {
  const { param, name } = spec;
  const entity = new UuidParamPipe(name);
  const acl = `acl/${spec.segment}/:${param}`;
  const Noun = spec.noun[0].toUpperCase() + spec.noun.slice(1);
  const op = (operationId: string, summary: string) => ApiOperation({ operationId, summary });
  // the propagate flag is a query parameter of the collections' PUT only: on the assets' PUT the parameter
  // is not bound (undefined), so neither the pipes nor the OpenAPI document see it
  const propagateQuery: ParameterDecorator = spec.propagate ? Query() : () => undefined;
  const user = (id: string): Principal => ({ kind: 'user', id });
  const group = (id: string): Principal => ({ kind: 'group', id });

  @ApiTags('acls')
  @ApiErrors(400, { 404: `No such ${name.toLowerCase()} the caller may read, user, group or entry` })
  @Controller('API/acls/v1')
  class EntityAclRoutes {
    constructor(@Inject(spec.service) private readonly acls: EntityAclService) {}

    @Get(`${acl}/permissions`)
    @Authenticated(spec.read)
    @op(`get${name}Permissions`, `The caller’s own permissions on ${spec.noun}`)
    @ApiOkResponse({ type: PermissionsDto })
    permissions(@Param(param, entity) id: string, @Caller() caller: AuthContext): Promise<PermissionsDto> {
      return this.acls.mine(caller, id);
    }

    @Get(acl)
    @Authenticated(spec.read)
    @op(`get${name}Acl`, `${Noun}’s whole ACL: the users’ and the groups’ entries`)
    @ApiOkResponse({ type: ObjectAclDto })
    whole(@Param(param, entity) id: string): Promise<ObjectAclDto> {
      return this.acls.list(id);
    }

    @Get(`users/:user_id/${acl}`)
    @Authenticated(spec.read)
    @op(`getUser${name}Acl`, `A user’s entry in ${spec.noun}’s ACL`)
    @ApiOkResponse({ type: UserAclDto })
    getUser(
      @Param('user_id', principal.user) userId: string,
      @Param(param, entity) id: string,
      @Caller() caller: AuthContext,
    ): Promise<UserAclDto> {
      return this.acls.get(caller, id, user(userId)) as Promise<UserAclDto>;
    }

    @Put(`users/:user_id/${acl}`)
    @Authenticated(spec.change)
    @op(
      `putUser${name}Acl`,
      `Set a user’s permissions on ${spec.noun} (200, or 201 when the entry is new); ${spec.putRules}`,
    )
    @ApiOkResponse({ type: UserAclDto })
    @ApiCreatedResponse({ type: UserAclDto })
    putUser(
      @Param('user_id', principal.user) userId: string,
      @Param(param, entity) id: string,
      @Body() body: AclBodyDto,
      @propagateQuery q: PropagateQueryDto,
      @Caller() caller: AuthContext,
      @Res({ passthrough: true }) res: Response,
    ): Promise<UserAclDto> {
      return this.put(caller, id, user(userId), body, q, res) as Promise<UserAclDto>;
    }

    @Delete(`users/:user_id/${acl}`)
    @HttpCode(204)
    @Authenticated(spec.change)
    @op(`deleteUser${name}Acl`, `Remove a user’s entry from ${spec.noun}’s ACL; needs change-acl`)
    @ApiNoContentResponse({ description: 'Removed' })
    deleteUser(
      @Param('user_id', principal.user) userId: string,
      @Param(param, entity) id: string,
      @Caller() caller: AuthContext,
    ): Promise<void> {
      return this.acls.remove(caller, id, user(userId));
    }

    @Get(`groups/:group_id/${acl}`)
    @Authenticated(spec.read)
    @op(`getGroup${name}Acl`, `A group’s entry in ${spec.noun}’s ACL`)
    @ApiOkResponse({ type: GroupAclDto })
    getGroup(
      @Param('group_id', principal.group) groupId: string,
      @Param(param, entity) id: string,
      @Caller() caller: AuthContext,
    ): Promise<GroupAclDto> {
      return this.acls.get(caller, id, group(groupId)) as Promise<GroupAclDto>;
    }

    @Put(`groups/:group_id/${acl}`)
    @Authenticated(spec.change)
    @op(
      `putGroup${name}Acl`,
      `Set a group’s permissions on ${spec.noun} (200, or 201 when the entry is new); ${spec.putRules}`,
    )
    @ApiOkResponse({ type: GroupAclDto })
    @ApiCreatedResponse({ type: GroupAclDto })
    putGroup(
      @Param('group_id', principal.group) groupId: string,
      @Param(param, entity) id: string,
      @Body() body: AclBodyDto,
      @propagateQuery q: PropagateQueryDto,
      @Caller() caller: AuthContext,
      @Res({ passthrough: true }) res: Response,
    ): Promise<GroupAclDto> {
      return this.put(caller, id, group(groupId), body, q, res) as Promise<GroupAclDto>;
    }

    @Delete(`groups/:group_id/${acl}`)
    @HttpCode(204)
    @Authenticated(spec.change)
    @op(`deleteGroup${name}Acl`, `Remove a group’s entry from ${spec.noun}’s ACL; needs change-acl`)
    @ApiNoContentResponse({ description: 'Removed' })
    deleteGroup(
      @Param('group_id', principal.group) groupId: string,
      @Param(param, entity) id: string,
      @Caller() caller: AuthContext,
    ): Promise<void> {
      return this.acls.remove(caller, id, group(groupId));
    }

    /** The PUT of an entry: 201 when the entry is new. */
    private async put(
      caller: AuthContext,
      id: string,
      who: Principal,
      body: AclBodyDto,
      q: PropagateQueryDto | undefined,
      res: Response,
    ): Promise<UserAclDto | GroupAclDto> {
      const { entry, created } = await this.acls.put(
        caller,
        id,
        who,
        body.permissions,
        q?.propagate === true,
      );
      res.status(created ? 201 : 200);
      return entry;
    }
  }
  return EntityAclRoutes;
}
