import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Put, Res, type Type } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Principal } from './acl-entries.js';
import { AclBodyDto, ObjectAclDto, PermissionsDto, UserAclDto } from './dto/acl.dto.js';
import { PropagateQueryDto } from './dto/collection.dto.js';
import { GroupEntryRoutes } from './entity-acl-group.routes.js';
import { aclRouteParts, type EntityAclService, type EntityAclSpec, principal } from './entity-acl.js';

export type { EntityAclService, EntityAclSpec } from './entity-acl.js';

/**
 * The entity ACLs of one entity type (docs/interface.md's access lists): the caller's own permissions, the
 * whole ACL, and a user's or a group's entry (GET, PUT: 200 or 201 when new, DELETE). Assets and collections
 * are this one family, so their policies, answers and declared errors cannot drift apart; each names its own
 * operationIds. The rules themselves (what a caller may grant) are the services' (acl-entries.ts); the
 * groups' entries and the PUT of an entry are in entity-acl-group.routes.ts, which this extends.
 */
export function EntityAclController(spec: EntityAclSpec): Type {
  const { param, name } = spec;
  const { entity, acl, op, propagateQuery } = aclRouteParts(spec);
  const Noun = spec.noun[0].toUpperCase() + spec.noun.slice(1);
  const user = (id: string): Principal => ({ kind: 'user', id });

  @ApiTags('acls')
  @ApiErrors(400, { 404: `No such ${name.toLowerCase()} the caller may read, user, group or entry` })
  @Controller('API/acls/v1')
  class EntityAclRoutes extends GroupEntryRoutes(spec) {
    constructor(@Inject(spec.service) protected readonly acls: EntityAclService) {
      super();
    }

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
  }
  return EntityAclRoutes;
}
