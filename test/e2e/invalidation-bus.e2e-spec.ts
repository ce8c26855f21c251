import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { ClientRegistry } from '../../src/credentials/apps/client-registry.js';
import { loadConfig } from '../../src/app/config.js';
import { InvalidationBus } from '../../src/base/common/cache/invalidation-bus.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp } from '../utils/create-test-app.js';
import { waitFor } from '../utils/wait-for.js';

const config = (env: Record<string, string>) =>
  loadConfig({ KEY_ENCRYPTION_SECRET: 'bus-spec-key-encryption-secret-0123456789', ...env });

describe('InvalidationBus without Redis', () => {
  it('is coherent on the embedded database (one process owns it) and delivers locally', async () => {
    const bus = new InvalidationBus(config({ DATA_DIR: 'memory://' }));
    const seen: (string | null)[] = [];
    bus.subscribe('apps', (k) => seen.push(k));
    bus.subscribe('other', () => seen.push('wrong topic'));
    expect(bus.coherent).toBe(true);
    await bus.publish('apps', 'a');
    await bus.publish('apps', null);
    expect(seen).toEqual(['a', null]);
    await bus.onModuleDestroy();
  });

  it('is not coherent on PostgreSQL without Redis: another instance could not tell it of a change', async () => {
    const bus = new InvalidationBus(config({ DATABASE_URL: 'postgresql://nowhere.invalid/db' }));
    expect(bus.coherent).toBe(false);
    await bus.onModuleDestroy();
  });
});

/**
 * While Redis is down (a closed port) or silent (a server that accepts and never answers), a write that
 * publishes must not wait for it: the publisher fails fast (common/redis.ts), and the change still reaches
 * this instance's caches at once.
 */
describe('InvalidationBus while Redis is away or silent', () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  let silentUrl: string;
  let closedUrl: string;

  beforeAll(async () => {
    silent = createServer((s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentUrl = `redis://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closedUrl = `redis://127.0.0.1:${(probe.address() as { port: number }).port}`;
    await new Promise((r) => probe.close(r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  });

  /** How long `work` took, giving up at 5 s (the old publisher would have waited for ever). */
  const timed = async (work: () => Promise<unknown>): Promise<number> => {
    const started = Date.now();
    await Promise.race([work(), new Promise((r) => setTimeout(r, 5_000))]);
    return Date.now() - started;
  };

  it.each([
    ['a closed port', () => closedUrl],
    ['a server that never answers', () => silentUrl],
  ])('publish answers at once with %s, and the change is applied locally', async (_n, url) => {
    const bus = new InvalidationBus(
      config({ DATABASE_URL: 'postgresql://unused.invalid/db', REDIS_URL: url() }),
    );
    try {
      await new Promise((r) => setTimeout(r, 200)); // connecting (or refused) meanwhile
      const seen: (string | null)[] = [];
      bus.subscribe('apps', (k) => seen.push(k));
      expect(await timed(() => bus.publish('apps', 'app-1'))).toBeLessThan(1_000);
      expect(seen).toEqual(['app-1']);
      expect(bus.coherent).toBe(false); // not subscribed: the caches read through meanwhile
    } finally {
      await bus.onModuleDestroy();
    }
  });

  it('PATCH of an app answers within a second while Redis is silent, and the cached registration is fresh', async () => {
    const t = await createTestApp({ REDIS_URL: silentUrl });
    try {
      const h = bearer((await tokenFor(t, t.admin)).token);
      const created = await t.http
        .post('/API/auth/v1/apps/')
        .set(h)
        .send({
          name: 'before',
          type: 'OAUTH',
          oauth_client_type: 'confidential',
          redirect_uris: ['https://a.example/cb'],
        })
        .expect(201);
      const registry = t.get(ClientRegistry);
      expect((await registry.find(created.body.id))?.name).toBe('before'); // cached (PGlite: coherent)
      let status = 0;
      const took = await timed(async () => {
        status = (await t.http.patch(`/API/auth/v1/apps/${created.body.id}/`).set(h).send({ name: 'after' }))
          .status;
      });
      expect(status).toBe(200);
      expect(took).toBeLessThan(1_000);
      expect((await registry.find(created.body.id))?.name).toBe('after');
    } finally {
      await t.close();
    }
  });
});

/** Real fan-out between two instances' buses: needs Redis, so it runs in CI's PostgreSQL + Redis pass. */
const redisUrl = process.env.REDIS_URL;
(redisUrl ? describe : describe.skip)('InvalidationBus on Redis', () => {
  // a namespace of this suite's: the test apps of other suites on the same Redis publish on their own channels
  const namespace = `bus-spec-${randomUUID()}`;
  const channel = `${namespace}:invalidate`;
  const env = {
    DATABASE_URL: 'postgresql://unused.invalid/db',
    REDIS_URL: redisUrl as string,
    RATE_LIMIT_NAMESPACE: namespace,
  };
  let a: InvalidationBus;
  let b: InvalidationBus;
  const seenA: (string | null)[] = [];
  const seenB: (string | null)[] = [];

  beforeAll(async () => {
    a = new InvalidationBus(config(env));
    b = new InvalidationBus(config(env));
    a.subscribe('apps', (k) => seenA.push(k));
    b.subscribe('apps', (k) => seenB.push(k));
    expect(await a.ready()).toBe(true);
    expect(await b.ready()).toBe(true);
  });
  afterAll(async () => {
    await a.onModuleDestroy();
    await b.onModuleDestroy();
  });
  beforeEach(() => {
    seenA.length = 0;
    seenB.length = 0;
  });

  const until = (check: () => boolean) => waitFor(() => check(), 2_000, 10, 'the message').then(() => true);

  it('delivers a change to the other instance once, and to the publisher once (locally)', async () => {
    await a.publish('apps', 'app-1');
    expect(seenA).toEqual(['app-1']);
    expect(await until(() => seenB.length > 0)).toBe(true);
    // Redis delivers one channel's messages in order: once a later one arrives, a duplicate of the first would have
    await a.publish('apps', 'later');
    expect(await until(() => seenB.includes('later'))).toBe(true);
    expect(seenB).toEqual(['app-1', 'later']);
    expect(seenA).toEqual(['app-1', 'later']);
  });

  it('hears nothing from a deployment of another namespace on the same Redis', async () => {
    const other = new InvalidationBus(config({ ...env, RATE_LIMIT_NAMESPACE: `${namespace}-other` }));
    const seenOther: (string | null)[] = [];
    other.subscribe('apps', (k) => seenOther.push(k));
    try {
      expect(await other.ready()).toBe(true);
      seenOther.length = 0; // subscribing cleared its caches (a null for every topic)
      await other.publish('apps', 'theirs');
      await a.publish('apps', 'ours');
      expect(await until(() => seenB.length > 0)).toBe(true);
      // 'theirs' was published first on the same Redis: had it crossed namespaces, it would have arrived first
      expect(seenB).toEqual(['ours']);
      expect(seenOther).toEqual(['theirs']); // its own, locally; not ours
    } finally {
      await other.onModuleDestroy();
    }
  });

  it('ignores malformed messages on its channel', async () => {
    const raw = new Redis(redisUrl as string);
    try {
      await raw.publish(channel, 'not json');
      await raw.publish(channel, JSON.stringify({ i: 'x', t: 'apps', k: 'ok' }));
      expect(await until(() => seenB.includes('ok'))).toBe(true);
      expect(seenB).toEqual(['ok']);
    } finally {
      raw.disconnect();
    }
  });

  it('goes incoherent when its subscription drops, and clears every cache when it is back', async () => {
    const raw = new Redis(redisUrl as string);
    try {
      // b's subscriber connection, by its name
      const clients = (await raw.client('LIST')) as string;
      const line = clients.split('\n').find((l) => l.includes(` name=portcullis-sub-${b.instance} `));
      const id = line && /id=(\d+)/.exec(line)?.[1];
      expect(id).toEqual(expect.any(String));
      await raw.client('KILL', 'ID', id as string);
      expect(await until(() => !b.coherent)).toBe(true);
      // back: ioredis reconnects by itself, the bus re-subscribes and clears (a null key)
      expect(await b.ready()).toBe(true);
      expect(seenB).toContain(null);
      expect(seenA).not.toContain(null); // a's subscription never dropped
      // and the re-subscribed bus hears changes again
      await a.publish('apps', 'after');
      expect(await until(() => seenB.includes('after'))).toBe(true);
    } finally {
      raw.disconnect();
    }
  });
});
