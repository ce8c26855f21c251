import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { CollectionEvents } from './collection-events.js';
import { CollectionPermissionsService } from './collection-permissions.js';
import { CollectionsErrors } from './collections.errors.js';
import { CollectionsRepository } from './collections.repository.js';
import { CollectionsService } from './collections.service.js';

/**
 * The delete queue of collections: the deleted collections of the caller's domain, restored (live again,
 * with their ACL, contents and parent as they were) or purged (gone for good, with their contents entries
 * and ACL; their children become roots). Each needs `delete` on every collection named (a deleted one the
 * caller may not read is a 404, one readable without `delete` a 403), checked before anything changes.
 */
@Injectable()
export class CollectionQueueService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly permissions: CollectionPermissionsService,
    private readonly collections: CollectionsService,
    private readonly events: CollectionEvents,
  ) {}

  restore(auth: AuthContext, ids: string[]): Promise<void> {
    return this.repo.transaction(async (em) => {
      await this.requireDeletable(em, auth, ids);
      for (const id of ids) {
        await this.repo.updateCollection(em, id, {
          status: 'ACTIVE',
          date_deleted: null,
          deleted_by_user: null,
        });
        const [row] = await this.repo.byIds(em, [id]);
        await this.events.record(em, auth, id, 'restore', {
          ...(await this.collections.bareView(em, auth, row!)),
        });
      }
    });
  }

  purge(auth: AuthContext, ids: string[]): Promise<void> {
    return this.repo.transaction(async (em) => {
      await this.requireDeletable(em, auth, ids);
      for (const row of await this.repo.byIds(em, ids)) {
        await this.events.record(em, auth, row.id, 'purge', {
          ...(await this.collections.bareView(em, auth, row)),
        });
      }
      await this.repo.purge(em, ids);
    });
  }

  /** Every deleted collection of the domain the caller holds `delete` on. */
  async all(auth: AuthContext): Promise<string[]> {
    const rows = await this.repo.readableQuery(auth, { deleted: true }).select(['c.id']).getMany();
    const found = await this.permissions.find(
      auth,
      rows.map((r) => r.id),
      undefined,
      true,
    );
    return found.filter((r) => r.permissions.includes('delete')).map((r) => r.id);
  }

  private async requireDeletable(em: EntityManager, auth: AuthContext, ids: string[]): Promise<void> {
    const found = await this.permissions.find(auth, ids, em, true);
    const readable = found.filter((r) => r.permissions.includes('read'));
    if (readable.length !== new Set(ids).size) throw CollectionsErrors.NOT_FOUND();
    if (readable.some((r) => !r.permissions.includes('delete'))) {
      throw CollectionsErrors.PERMISSION_DENIED('delete');
    }
  }
}
