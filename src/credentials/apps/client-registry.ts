import { Injectable } from '@nestjs/common';
import { InvalidationBus } from '../../base/common/cache/invalidation-bus.js';
import { APPS_TOPIC } from '../../base/common/cache/topics.js';
import { AppEntity } from '../../base/model/app.entity.js';
import { AppsRepository } from './apps.repository.js';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Application records as OAuth clients see them (token, revocation and introspection endpoints), read
 * through an in-process cache: a grant then needs no round-trip to find its client. Every change to an app
 * (update, deletion, a user deletion that clears acting users) is published on the invalidation bus by the
 * code that commits it, and drops the entry on every instance; the cache answers only while the bus is
 * coherent (see InvalidationBus) and never holds an entry longer than a minute. A read that was in flight
 * while an invalidation arrived does not store what it read: it may predate the change. Unknown ids are
 * never cached. Entries are frozen: callers share them.
 */
@Injectable()
export class ClientRegistry {
  private readonly entries = new Map<string, { app: Readonly<AppEntity>; at: number }>();
  private epoch = 0;

  constructor(
    private readonly repo: AppsRepository,
    private readonly bus: InvalidationBus,
  ) {
    bus.subscribe(APPS_TOPIC, (id) => {
      this.epoch++;
      if (id === null) this.entries.clear();
      else this.entries.delete(id);
    });
  }

  /** The app (client secret hash included), or null when there is none with this id. */
  async find(id: string): Promise<Readonly<AppEntity> | null> {
    const coherent = this.bus.coherent;
    const hit = this.entries.get(id);
    if (hit && coherent && Date.now() - hit.at < TTL_MS) return hit.app;
    const epoch = this.epoch;
    const row = await this.repo.client(id);
    if (!row) return null;
    for (const list of [
      row.allowed_scopes,
      row.redirect_uris,
      row.allowed_origins,
      row.post_logout_redirect_uris,
    ]) {
      Object.freeze(list);
    }
    const app = Object.freeze(Object.assign(new AppEntity(), row));
    if (coherent && this.bus.coherent && epoch === this.epoch) {
      this.entries.delete(id);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(id, { app, at: Date.now() });
    }
    return app;
  }

  /** Call after a change to the app has committed (null: any app may have changed). */
  changed(id: string | null): Promise<void> {
    return this.bus.publish(APPS_TOPIC, id);
  }
}
