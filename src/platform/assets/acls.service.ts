import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessService } from '../../base/common/auth/access.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AssetAclEntity } from '../../base/model/asset-acl.entity.js';
import { aclEntryOf, notHeld, objectAclOf, type Principal, principalColumns } from './acl-entries.js';
import { AssetPermissionsService, canonical } from './asset-permissions.js';
import { AssetsErrors } from './assets.errors.js';
import { type AclKey, AssetsRepository } from './assets.repository.js';
import type { GroupAclDto, ObjectAclDto, PermissionsDto, UserAclDto } from './dto/acl.dto.js';

/** Whose entry: a user's or a group's. */
export type { Principal } from './acl-entries.js';

/**
 * Entity ACLs of assets (`/API/acls/v1/`). The route's access step has checked the caller's permission on
 * the asset (read to look, change-acl to change). Against escalation, a caller grants only permissions they
 * hold, and changes or removes only entries whose permissions they hold (administrators hold all); the
 * principal must be a user or group of the caller's domain (else 404).
 */
@Injectable()
export class AclsService {
  constructor(
    private readonly repo: AssetsRepository,
    private readonly access: AccessService,
    private readonly permissions: AssetPermissionsService,
  ) {}

  async get(auth: AuthContext, assetId: string, who: Principal): Promise<UserAclDto | GroupAclDto> {
    await this.principalExists(auth, who);
    const entry = await this.repo.acl(this.repo.manager, this.key(assetId, who));
    if (!entry) throw AssetsErrors.ACL_NOT_FOUND();
    return this.entryView(entry, who);
  }

  /** Sets the entry's permissions; `created` tells the controller to answer 201. */
  async put(
    auth: AuthContext,
    assetId: string,
    who: Principal,
    permissions: string[],
  ): Promise<{ entry: UserAclDto | GroupAclDto; created: boolean }> {
    await this.principalExists(auth, who);
    const wanted = canonical(permissions);
    return this.repo.transaction(async (em) => {
      const held = await this.held(em, auth, assetId);
      this.requireHeld(held, wanted);
      const existing = await this.repo.lockAcl(em, this.key(assetId, who));
      if (existing) {
        this.requireHeld(held, existing.permissions);
        await this.repo.setAclPermissions(em, existing.id, wanted);
      } else {
        await this.repo.insertAcl(em, { ...this.key(assetId, who), permissions: wanted });
      }
      const entry = await this.repo.aclOrFail(em, this.key(assetId, who));
      return { entry: this.entryView(entry, who), created: !existing };
    });
  }

  async remove(auth: AuthContext, assetId: string, who: Principal): Promise<void> {
    await this.principalExists(auth, who);
    await this.repo.transaction(async (em) => {
      const held = await this.held(em, auth, assetId);
      const existing = await this.repo.lockAcl(em, this.key(assetId, who));
      if (!existing) throw AssetsErrors.ACL_NOT_FOUND();
      this.requireHeld(held, existing.permissions);
      await this.repo.deleteAcl(em, existing.id);
    });
  }

  async list(assetId: string): Promise<ObjectAclDto> {
    return objectAclOf(await this.repo.aclsOf(this.repo.manager, assetId));
  }

  async mine(auth: AuthContext, assetId: string): Promise<PermissionsDto> {
    const [row] = await this.permissions.find(auth, [assetId]);
    if (!row) throw AssetsErrors.NOT_FOUND();
    return { permissions: row.permissions };
  }

  private async held(em: EntityManager, auth: AuthContext, assetId: string): Promise<Set<string>> {
    const [row] = await this.permissions.find(auth, [assetId], em);
    if (!row) throw AssetsErrors.NOT_FOUND();
    return new Set(row.permissions);
  }

  private requireHeld(held: Set<string>, permissions: string[]): void {
    const missing = notHeld(held, permissions);
    if (missing.length > 0) throw AssetsErrors.PERMISSIONS_NOT_HELD(missing);
  }

  private principalExists(auth: AuthContext, who: Principal): Promise<void> {
    return this.access.require(auth, who.kind, [who.id]);
  }

  private key(assetId: string, who: Principal): AclKey {
    return { asset_id: assetId, ...principalColumns(who) };
  }

  private entryView(e: AssetAclEntity, who: Principal): UserAclDto | GroupAclDto {
    return aclEntryOf('assets', e.asset_id, e, who);
  }
}
