// The SQL statements of one request on each hot path (password sign-in, PAT validation, livez,
// client_credentials), as the service sends them to PostgreSQL: `npm run build && node
// dist/bench/trace-queries.js`. A development aid for issue 23's round-trip counts (docs/performance.md): it
// creates a database on DATABASE_URL's server (default postgresql://postgres@127.0.0.1:5432/postgres), runs
// the service in this process, wraps pg.Client#query while each request is served, and drops the database.
// Statements of background work (the webhook delivery poller) can show up between them.
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app/app.factory.js';
import { randomSecret } from '../src/base/config/config.js';
import { loadConfig } from '../src/app/config.js';
import { adminQuery, databaseUrl } from './scratch-database.js';
import { basic, FORM } from './http-client.js';

const dbName = `portcullis_trace_${randomBytes(6).toString('hex')}`;
await adminQuery(`CREATE DATABASE ${dbName}`);
const email = 'trace-admin@portcullis.test';
const password = randomSecret();
const app = await createApp(
  loadConfig({
    DATABASE_URL: databaseUrl(dbName),
    KEY_ENCRYPTION_SECRET: randomSecret(),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    PORT: '0',
    LOG_LEVEL: 'error',
    BOOTSTRAP_ADMIN_EMAIL: email,
    BOOTSTRAP_ADMIN_PASSWORD: password,
  }),
);
try {
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  let log: string[] | null = null;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: typeof query }).query = function (this: unknown, ...args) {
    const q = args[0];
    const text = typeof q === 'string' ? q : (q as { text?: string } | undefined)?.text;
    log?.push(String(text).replace(/\s+/g, ' ').trim().slice(0, 160));
    return query.apply(this, args);
  };
  const call = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const res = await fetch(base + path, { method, headers, body });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  /** Runs `request` once unrecorded (first-use work), then once recorded, and prints its statements. */
  const trace = async (name: string, request: () => Promise<Record<string, unknown>>) => {
    await request();
    log = [];
    const out = await request();
    await new Promise((r) => setTimeout(r, 50)); // fire-and-forget writes of the request
    console.log(`${name}: ${log.length} statements`);
    for (const q of log) console.log(`  ${q}`);
    log = null;
    return out;
  };
  const JSON_BODY = { 'Content-Type': 'application/json' };
  const login = await trace('password sign-in', () =>
    call('POST', '/API/auth/v1/auth/simple/login/', JSON_BODY, JSON.stringify({ email, password })),
  );
  const auth = { ...JSON_BODY, Authorization: `Bearer ${login.token as string}` };
  const body = (o: unknown) => JSON.stringify(o);
  const svc = await call(
    'POST',
    '/API/auth/v1/apps/',
    auth,
    body({ name: 's', type: 'PAT', default_user_id: login.user_id }),
  );
  const pat = (await call('POST', `/API/auth/v1/apps/${svc.id as string}/token/`, auth)).token as string;
  await trace('PAT validation', () =>
    call('GET', '/API/auth/v1/auth/token/', { Authorization: `Bearer ${pat}` }),
  );
  await trace('livez', () => call('GET', '/API/auth/livez/', {}));
  const client = await call(
    'POST',
    '/API/auth/v1/apps/',
    auth,
    body({
      name: 'c',
      type: 'OAUTH',
      oauth_client_type: 'confidential',
      default_user_id: login.user_id,
      allowed_scopes: ['assets:read'],
    }),
  );
  await trace('client_credentials', () =>
    call(
      'POST',
      '/API/auth/v1/oauth/token/',
      { Authorization: basic(client.id as string, client.client_secret as string), ...FORM },
      'grant_type=client_credentials&scope=assets%3Aread',
    ),
  );
} finally {
  await app.close();
  await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
}
process.exit(0);
