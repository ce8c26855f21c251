import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { freePortBelowEphemeralRange } from '../utils/ports.js';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app/app.factory.js';
import { loadConfig } from '../../src/app/config.js';
import { WebhookDeliveryEntity } from '../../src/base/model/webhook-delivery.entity.js';
import { WebhookEventsService } from '../../src/delivery/events/webhook-events.service.js';
import { WebhookSecrets } from '../../src/delivery/webhooks/webhook-secrets.js';
import { WebhookWorker } from '../../src/delivery/webhooks/webhook-worker.service.js';
import { createTestDatabase } from '../utils/test-database.js';
import { WebhookReceiver } from '../utils/webhook-receiver.js';
import { waitFor } from '../utils/wait-for.js';

/**
 * Several instances on one database, and an instance killed between the commit and the delivery. Both need a
 * database server other processes can reach, so they run in CI's PostgreSQL pass (DATABASE_URL set), as
 * multi-instance.e2e-spec.ts does; embedded PGlite is one process's database.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const FAST = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '10',
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_RETRY_MAX_MS: '200',
  WEBHOOK_TIMEOUT_MS: '1000',
};

(onPostgres ? describe : describe.skip)('webhook delivery across instances (PostgreSQL)', () => {
  describe('two instances on one database', () => {
    let a: NestExpressApplication;
    let b: NestExpressApplication;
    let drop: () => Promise<void>;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      const db = await createTestDatabase();
      drop = db.drop;
      const config = loadConfig({
        DATABASE_URL: db.url as string,
        KEY_ENCRYPTION_SECRET: 'shared-key-encryption-secret-0123456789',
        BOOTSTRAP_ADMIN_EMAIL: 'admin@webhooks.test',
        BOOTSTRAP_ADMIN_PASSWORD: 'webhooks-instances-password',
        LOG_LEVEL: 'silent',
        ...FAST,
      });
      [a, b] = await Promise.all([createApp(config), createApp(config)]);
      receiver = await WebhookReceiver.start();
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await receiver?.close();
      await drop?.();
    });

    it('each delivery is claimed by one instance only: every event reaches the receiver exactly once', async () => {
      const ds = a.get(DataSource);
      const [{ system_domain_id: domainId }] = (await ds.query(
        'SELECT system_domain_id FROM users LIMIT 1',
      )) as { system_domain_id: string }[];
      // two webhooks (so each event is two deliveries), registered directly: the HTTP side is tested elsewhere
      const secrets = a.get(WebhookSecrets);
      for (const path of ['/one', '/two']) {
        await ds.query(
          `INSERT INTO webhooks (system_domain_id, url, event_type, secret_sealed)
           VALUES ($1, $2, 'assets', $3)`,
          [domainId, receiver.url(path), secrets.seal(secrets.newSecret())],
        );
      }
      const record = (app: NestExpressApplication, n: number) =>
        app.get(DataSource).transaction(async (em) => {
          for (let i = 0; i < n; i++) {
            await app.get(WebhookEventsService).record(em, {
              systemDomainId: domainId,
              objectId: null,
              realm: null,
              operation: 'update',
              eventType: 'assets',
              data: { i },
              requestId: null,
            });
          }
        });
      // both instances record (and are nudged), and both poll every 10 ms: they compete for every batch
      await Promise.all([record(a, 25), record(b, 25), record(a, 10), record(b, 10)]);
      const total = 2 * 70;
      await receiver.waitFor((r) => r.length >= total, 30_000);
      // both instances have looked again since: a duplicate claim would have been sent by now
      await Promise.all([a.get(WebhookWorker).afterRounds(2), b.get(WebhookWorker).afterRounds(2)]);
      const ids = receiver.received.map((r) => r.headers['webhook-id'] as string);
      expect(ids).toHaveLength(total);
      expect(new Set(ids).size).toBe(total);
      const deliveries = await ds.getRepository(WebhookDeliveryEntity).find();
      expect(deliveries).toHaveLength(total);
      expect(deliveries.every((d) => d.status === 'DELIVERED' && d.attempts === 1)).toBe(true);
    });
  });

  describe('an instance killed (SIGKILL) after the commit and before the delivery', () => {
    let drop: () => Promise<void>;
    let dbUrl: string;
    let receiver: WebhookReceiver;
    const children: ChildProcess[] = [];
    const email = 'admin@crash.test';
    const password = 'crash-test-password-1';

    beforeAll(async () => {
      await buildIfStale();
      const db = await createTestDatabase();
      drop = db.drop;
      dbUrl = db.url as string;
      receiver = await WebhookReceiver.start();
    }, 180_000);
    afterAll(async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await receiver?.close();
      await drop?.();
    });

    /** The compiled service (`npm run build`) in a process of its own, on the test database. */
    async function startService(): Promise<{ child: ChildProcess; base: string }> {
      const port = await freePortBelowEphemeralRange();
      const env: NodeJS.ProcessEnv = { ...process.env, ...FAST };
      delete env.REDIS_URL; // the instance limits and caches in process: the test needs nothing shared but the database
      const child = spawn(process.execPath, ['dist/src/main.js'], {
        env: {
          ...env,
          DATABASE_URL: dbUrl,
          KEY_ENCRYPTION_SECRET: 'crash-test-key-encryption-secret-0123456789',
          BOOTSTRAP_ADMIN_EMAIL: email,
          BOOTSTRAP_ADMIN_PASSWORD: password,
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'error',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
      children.push(child);
      const base = `http://127.0.0.1:${port}`;
      await waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}): ${stderr}`);
          return fetch(`${base}/API/auth/readyz`)
            .then((r) => r.ok)
            .catch(() => false);
        },
        60_000,
        100,
      );
      return { child, base };
    }

    it('after a restart every committed event is delivered, exactly the committed ones', async () => {
      receiver.statusByPath.set('/crash', 503); // the receiver is down: nothing is delivered before the kill
      const first = await startService();
      const login = await fetch(`${first.base}/API/auth/v1/auth/simple/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(login.status).toBe(201);
      const auth = {
        authorization: `Bearer ${((await login.json()) as { token: string }).token}`,
        'content-type': 'application/json',
      };
      const post = (body: Record<string, unknown>) =>
        fetch(`${first.base}/API/notifications/v1/webhooks/`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify(body),
        });
      // the watcher hears every webhook change of the domain, its own creation included
      const watcher = await post({ url: receiver.url('/crash'), event_type: 'webhooks', status: 'ENABLED' });
      expect(watcher.status).toBe(201);
      const committed = [((await watcher.json()) as { id: string }).id];
      for (let i = 0; i < 5; i++) {
        const res = await post({ url: receiver.url(`/other-${i}`), event_type: 'assets', status: 'ENABLED' });
        expect(res.status).toBe(201);
        committed.push(((await res.json()) as { id: string }).id);
      }
      // a refused change commits nothing, so emits nothing
      expect((await post({ url: 'ftp://nope/', event_type: 'assets', status: 'ENABLED' })).status).toBe(400);
      // the instance is retrying (every attempt answered 503) when it is killed
      await receiver.waitFor((r) => r.filter((x) => x.path === '/crash').length >= committed.length);
      const killed = new Promise((resolve) => first.child.once('exit', resolve));
      first.child.kill('SIGKILL');
      await killed;
      expect(receiver.delivered('/crash')).toHaveLength(0);

      receiver.statusByPath.set('/crash', 200); // the receiver is back
      const second = await startService();
      await receiver.waitFor(
        (r) =>
          new Set(
            r.filter((x) => x.path === '/crash' && x.status === 200).map((x) => x.headers['webhook-id']),
          ).size >= committed.length,
        30_000,
      );
      // each delivery is marked DELIVERED once sent: when every one is, nothing is left that could be sent again
      const c = new pg.Client({ connectionString: dbUrl });
      await c.connect();
      try {
        const rows = await waitFor(async () => {
          const r = (
            await c.query('SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status')
          ).rows as { status: string; n: number }[];
          return r.length === 1 && r[0].status === 'DELIVERED' && r[0].n === committed.length ? r : undefined;
        }, 30_000);
        expect(rows).toEqual([{ status: 'DELIVERED', n: committed.length }]);
      } finally {
        await c.end();
      }
      const delivered = receiver
        .delivered('/crash')
        .map((r) => JSON.parse(r.body) as { object_id: string; operation: string });
      // exactly the committed changes, each once (one instance runs now, and it marks each one done)
      expect(delivered.map((m) => m.object_id).sort()).toEqual([...committed].sort());
      expect(delivered.every((m) => m.operation === 'create')).toBe(true);
      // and it stops cleanly on SIGTERM: Nest's shutdown hooks run (the worker stops before the data source
      // closes), then Nest raises the signal again, so the process ends by SIGTERM, promptly
      const exited = new Promise<[number | null, string | null]>((resolve) =>
        second.child.once('exit', (code, signal) => resolve([code, signal])),
      );
      second.child.kill('SIGTERM');
      expect(await exited).toEqual([null, 'SIGTERM']);
    }, 120_000);
  });
});

/**
 * `npm run build` when the build is missing or older than any source file (about 20 s). The build is
 * incremental, so its info file, rewritten by every build, dates it (an unchanged main.js keeps its date).
 */
async function buildIfStale(): Promise<void> {
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const p = join(dir, e.name);
      return Math.max(m, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }, 0);
  let built = 0;
  try {
    statSync('dist/src/main.js');
    built = statSync('dist/.tsbuildinfo').mtimeMs;
  } catch {
    built = 0;
  }
  if (built > newest('src')) return;
  await new Promise<void>((resolve, reject) =>
    execFile('npm', ['run', 'build'], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(new Error(`npm run build failed: ${stdout.slice(-2000)}`)) : resolve(),
    ),
  );
}
