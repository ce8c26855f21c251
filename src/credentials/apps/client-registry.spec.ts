import { jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { InvalidationBus, InvalidationHandler } from '../../base/common/cache/invalidation-bus.js';
import { APPS_TOPIC } from '../../base/common/cache/topics.js';
import { AppsRepository } from './apps.repository.js';
import { ClientRegistry } from './client-registry.js';

/** A stand-in bus: coherence set by the test, published keys delivered to the subscribed handlers. */
class FakeBus {
  coherent = true;
  handlers: InvalidationHandler[] = [];
  subscribe(topic: string, h: InvalidationHandler) {
    expect(topic).toBe(APPS_TOPIC);
    this.handlers.push(h);
  }
  async publish(_topic: string, key: string | null) {
    this.handlers.forEach((h) => h(key));
  }
}

const ID = '5b0c6a3e-8f43-4a8e-9a51-2f0e8a1f3c11';
const OTHER = '0d9f3b7c-1e2a-4c5d-8e9f-a0b1c2d3e4f5';

function setup() {
  const rows = new Map<string, Record<string, unknown>>([
    [
      ID,
      {
        id: ID,
        name: 'one',
        allowed_scopes: ['assets:read'],
        redirect_uris: [],
        allowed_origins: [],
        post_logout_redirect_uris: ['https://one.example/bye'],
      },
    ],
    [
      OTHER,
      {
        id: OTHER,
        name: 'two',
        allowed_scopes: [],
        redirect_uris: [],
        allowed_origins: [],
        post_logout_redirect_uris: [],
      },
    ],
  ]);
  // the next query waits on this gate when set (a read in flight)
  let gate: Promise<void> | null = null;
  const query = jest.fn(async (_sql: string, params: unknown[]) => {
    const row = rows.get(params[0] as string); // the snapshot the read sees
    if (gate) await gate;
    return row ? [{ ...row }] : [];
  });
  // no pg pool on the driver: preparedQuery takes the plain ds.query path
  const ds = { query, driver: {}, options: {} } as unknown as DataSource;
  const bus = new FakeBus();
  const registry = new ClientRegistry(new AppsRepository(ds), bus as unknown as InvalidationBus);
  return { registry, bus, query, rows, hold: (p: Promise<void> | null) => (gate = p) };
}

describe('ClientRegistry', () => {
  afterEach(() => jest.restoreAllMocks());

  it('reads a registration once, then answers from memory', async () => {
    const { registry, query } = setup();
    const first = await registry.find(ID);
    const second = await registry.find(ID);
    expect(first?.name).toBe('one');
    expect(second).toBe(first);
    expect(query).toHaveBeenCalledTimes(1);
  });

  it('hands out frozen records (callers share them)', async () => {
    const { registry } = setup();
    const app = await registry.find(ID);
    expect(Object.isFrozen(app)).toBe(true);
    expect(Object.isFrozen(app?.allowed_scopes)).toBe(true);
  });

  it('keeps the post-logout redirect URIs, frozen like the other lists', async () => {
    const { registry } = setup();
    const app = await registry.find(ID);
    expect(app?.post_logout_redirect_uris).toEqual(['https://one.example/bye']);
    expect(Object.isFrozen(app?.post_logout_redirect_uris)).toBe(true);
    expect(() => (app?.post_logout_redirect_uris as string[]).push('https://evil.example/')).toThrow();
  });

  it('re-reads an app after its change is published, and everything after a null key', async () => {
    const { registry, query, rows } = setup();
    await registry.find(ID);
    await registry.find(OTHER);
    rows.set(ID, { ...rows.get(ID), name: 'renamed' });
    await registry.changed(ID);
    expect((await registry.find(ID))?.name).toBe('renamed');
    await registry.find(OTHER);
    expect(query).toHaveBeenCalledTimes(3); // OTHER still cached
    await registry.changed(null);
    await registry.find(ID);
    await registry.find(OTHER);
    expect(query).toHaveBeenCalledTimes(5);
  });

  it('never caches an unknown id', async () => {
    const { registry, query } = setup();
    const unknown = '11111111-2222-4333-8444-555555555555';
    expect(await registry.find(unknown)).toBeNull();
    expect(await registry.find(unknown)).toBeNull();
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('reads through, and keeps nothing, while the bus is not coherent (no fan-out)', async () => {
    const { registry, bus, query } = setup();
    bus.coherent = false;
    await registry.find(ID);
    await registry.find(ID);
    expect(query).toHaveBeenCalledTimes(2);
    bus.coherent = true;
    await registry.find(ID);
    await registry.find(ID);
    expect(query).toHaveBeenCalledTimes(3);
    // an entry cached while coherent is not served once coherence is lost
    bus.coherent = false;
    await registry.find(ID);
    expect(query).toHaveBeenCalledTimes(4);
  });

  it('does not store a read that was in flight when an invalidation arrived (it may predate the change)', async () => {
    const { registry, query, rows, hold } = setup();
    let release!: () => void;
    hold(new Promise<void>((r) => (release = r)));
    const inFlight = registry.find(ID);
    await Promise.resolve();
    rows.set(ID, { ...rows.get(ID), name: 'changed meanwhile' });
    await registry.changed(ID);
    hold(null);
    release();
    expect((await inFlight)?.name).toBe('one'); // what it read
    expect((await registry.find(ID))?.name).toBe('changed meanwhile'); // not served from memory
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('holds an entry at most a minute', async () => {
    const { registry, query } = setup();
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    await registry.find(ID);
    now.mockReturnValue(1_000_000 + 59_000);
    await registry.find(ID);
    expect(query).toHaveBeenCalledTimes(1);
    now.mockReturnValue(1_000_000 + 61_000);
    await registry.find(ID);
    expect(query).toHaveBeenCalledTimes(2);
  });
});
