import { Body, Delete, Get, HttpCode, Param, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import type { Principal } from './acl-entries.js';
import { AclBodyDto, GroupAclDto, UserAclDto } from './dto/acl.dto.js';
import { PropagateQueryDto } from './dto/collection.dto.js';
import { aclRouteParts, type EntityAclService, type EntityAclSpec, principal } from './entity-acl.js';

/**
 * The group entries of one entity type's ACL (GET, PUT, DELETE), which its controller (entity-acl.controller.ts)
 * extends: Nest registers a controller's own routes first and inherited ones after, as the entries of groups
 * always came after those of users. Also the PUT of an entry, which users' entries share.
 */
export function GroupEntryRoutes(spec: EntityAclSpec) {
  const { param, name } = spec;
  const { entity, acl, op, propagateQuery } = aclRouteParts(spec);
  const group = (id: string): Principal => ({ kind: 'group', id });

  abstract class GroupEntries {
    protected abstract readonly acls: EntityAclService;

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
    protected async put(
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
  return GroupEntries as abstract new () => GroupEntries;
}
