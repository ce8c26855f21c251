import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessService } from '../../base/common/auth/access.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { CollectionAclEntity } from '../../base/model/collection.entity.js';
import { aclEntryOf, notHeld, objectAclOf, type Principal, principalColumns } from './acl-entries.js';
import { AssetPermissionsService, canonical } from './asset-permissions.js';
import { AssetsRepository } from './assets.repository.js';
import { type CollectionAclKey, CollectionAclsRepository } from './collection-acls.repository.js';
import { CollectionEvents } from './collection-events.js';
import { CollectionPermissionsService } from './collection-permissions.js';
import { CollectionsErrors } from './collections.errors.js';
import { CollectionsRepository } from './collections.repository.js';
import type { GroupAclDto, ObjectAclDto, PermissionsDto, UserAclDto } from './dto/acl.dto.js';

/** At most this many objects take a propagated grant (the rest keep their ACL). */
const MAX_PROPAGATION = 10_000;

/**
 * Entity ACLs of collections (`/API/acls/v1/…/collections/{id}/`), with the rules of assets' (acls.service.ts):
 * the route's access step checked read (to look) or change-acl (to change); a caller grants only permissions
 * they hold and changes or removes only entries whose permissions they hold; the principal must be a user or
 * group of the caller's domain (else 404). A grant stays on the collection unless the request asks for
 * `propagate`: then the same entry is set on every asset and collection it contains and every collection
 * nested under it (down the tree) on which the caller holds change-acl and every permission of the grant and
 * of the entry it replaces; the others are left as they were.
 */
@Injectable()
export class CollectionAclsService {
  constructor(
    private readonly repo: CollectionAclsRepository,
    private readonly collections: CollectionsRepository,
    private readonly assets: AssetsRepository,
    private readonly access: AccessService,
    private readonly permissions: CollectionPermissionsService,
    private readonly assetPermissions: AssetPermissionsService,
    private readonly events: CollectionEvents,
  ) {}

  async get(auth: AuthContext, id: string, who: Principal): Promise<UserAclDto | GroupAclDto> {
    await this.principalExists(auth, who);
    const entry = await this.repo.acl(this.repo.manager, key(id, who));
    if (!entry) throw CollectionsErrors.ACL_NOT_FOUND();
    return entryView(entry, who);
  }

  async put(
    auth: AuthContext,
    id: string,
    who: Principal,
    permissions: string[],
    propagate = false,
  ): Promise<{ entry: UserAclDto | GroupAclDto; created: boolean }> {
    await this.principalExists(auth, who);
    const wanted = canonical(permissions);
    return this.repo.transaction(async (em) => {
      const held = await this.held(em, auth, id);
      requireHeld(held, wanted);
      const existing = await this.repo.lockAcl(em, key(id, who));
      if (existing) {
        requireHeld(held, existing.permissions);
        await this.repo.setAclPermissions(em, existing.id, wanted);
      } else {
        await this.repo.insertAcl(em, { ...key(id, who), permissions: wanted });
      }
      if (propagate) await this.propagate(em, auth, id, who, wanted);
      const entry = entryView(await this.repo.aclOrFail(em, key(id, who)), who);
      await this.events.record(em, auth, id, 'acl_change', { ...entry, propagate });
      return { entry, created: !existing };
    });
  }

  async remove(auth: AuthContext, id: string, who: Principal): Promise<void> {
    await this.principalExists(auth, who);
    await this.repo.transaction(async (em) => {
      const held = await this.held(em, auth, id);
      const existing = await this.repo.lockAcl(em, key(id, who));
      if (!existing) throw CollectionsErrors.ACL_NOT_FOUND();
      requireHeld(held, existing.permissions);
      await this.repo.deleteAcl(em, existing.id);
      await this.events.record(em, auth, id, 'acl_change', { ...entryView(existing, who), permissions: [] });
    });
  }

  async list(id: string): Promise<ObjectAclDto> {
    return objectAclOf(await this.repo.aclsOf(this.repo.manager, id));
  }

  async mine(auth: AuthContext, id: string): Promise<PermissionsDto> {
    const [row] = await this.permissions.find(auth, [id]);
    if (!row?.permissions.includes('read')) throw CollectionsErrors.NOT_FOUND();
    return { permissions: row.permissions };
  }

  /** Copies the entry down: see the class comment. */
  private async propagate(
    em: EntityManager,
    auth: AuthContext,
    rootId: string,
    who: Principal,
    wanted: string[],
  ): Promise<void> {
    const { assetIds, collectionIds } = await this.below(em, auth, rootId);
    const mayChange = (rows: { id: string; permissions: string[] }[]) =>
      new Map(
        rows.filter((r) => r.permissions.includes('change-acl')).map((r) => [r.id, new Set(r.permissions)]),
      );
    const onCollections = mayChange(await this.permissions.find(auth, collectionIds, em));
    for (const [id, held] of onCollections) {
      const existing = await this.repo.lockAcl(em, key(id, who));
      if (!holds(held, wanted) || (existing && !holds(held, existing.permissions))) continue;
      if (existing) await this.repo.setAclPermissions(em, existing.id, wanted);
      else await this.repo.insertAcl(em, { ...key(id, who), permissions: wanted });
    }
    const onAssets = mayChange(await this.assetPermissions.find(auth, assetIds, em));
    for (const [id, held] of onAssets) {
      const assetKey = { asset_id: id, ...principalColumns(who) };
      const existing = await this.assets.lockAcl(em, assetKey);
      if (!holds(held, wanted) || (existing && !holds(held, existing.permissions))) continue;
      if (existing) await this.assets.setAclPermissions(em, existing.id, wanted);
      else await this.assets.insertAcl(em, { ...assetKey, permissions: wanted });
    }
  }

  /** The assets and collections under a collection: its contents and children, down the tree. */
  private async below(
    em: EntityManager,
    auth: AuthContext,
    rootId: string,
  ): Promise<{ assetIds: string[]; collectionIds: string[] }> {
    const assets = new Set<string>();
    const seen = new Set<string>([rootId]);
    let frontier = [rootId];
    while (frontier.length > 0 && assets.size + seen.size < MAX_PROPAGATION) {
      const next: string[] = [];
      const visit = (id: string) => {
        if (seen.has(id)) return;
        seen.add(id);
        next.push(id);
      };
      for (const id of frontier) {
        for (const c of await this.collections.contentsOf(em, id)) {
          if (c.object_type === 'asset') assets.add(c.object_id);
          else visit(c.object_id);
        }
        for (const child of await this.collections.childIds(em, id, auth.systemDomainId)) visit(child);
      }
      frontier = next;
    }
    seen.delete(rootId);
    return { assetIds: [...assets], collectionIds: [...seen] };
  }

  private async held(em: EntityManager, auth: AuthContext, id: string): Promise<Set<string>> {
    const [row] = await this.permissions.find(auth, [id], em);
    if (!row?.permissions.includes('read')) throw CollectionsErrors.NOT_FOUND();
    return new Set(row.permissions);
  }

  private principalExists(auth: AuthContext, who: Principal): Promise<void> {
    return this.access.require(auth, who.kind, [who.id]);
  }
}

const holds = (held: Set<string>, permissions: string[]) => permissions.every((p) => held.has(p));

function requireHeld(held: Set<string>, permissions: string[]): void {
  const missing = notHeld(held, permissions);
  if (missing.length > 0) throw CollectionsErrors.PERMISSIONS_NOT_HELD(missing);
}

function key(id: string, who: Principal): CollectionAclKey {
  return { collection_id: id, ...principalColumns(who) };
}

function entryView(e: CollectionAclEntity, who: Principal): UserAclDto | GroupAclDto {
  return aclEntryOf('collections', e.collection_id, e, who);
}
