import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app/app.factory.js';
import { type AppConfig, loadConfig } from '../../src/app/config.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { recordContract } from './contract/recorder.js';
import { createTestDatabase, seedPgliteDataDir } from './test-database.js';

export const ADMIN_EMAIL = 'admin@portcullis.test';
export const ADMIN_PASSWORD = 'bootstrap-password-1';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  ds: DataSource;
  config: AppConfig;
  /** The bootstrap super administrator and the first domain. */
  admin: UserEntity;
  domainId: string;
  get<T>(type: new (...args: never[]) => T): T;
  close(): Promise<void>;
}

const GENEROUS_ADDRESS_BUDGETS = Object.fromEntries(
  ['RATE_LIMIT_SIGNIN', 'RATE_LIMIT_OAUTH', 'RATE_LIMIT_ANONYMOUS', 'RATE_LIMIT_REGISTRATION'].flatMap(
    (p) => [
      [`${p}_BURST`, '1000000'],
      [`${p}_PER_SECOND`, '1000000'],
    ],
  ),
);

/**
 * The real application in-process, on a fresh database (PGlite in memory, or a new PostgreSQL database),
 * copied from the migrated template (test-database.ts) rather than migrated from zero.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    /** PostgreSQL: the URL the app connects with (the outage tests put a proxy in between). */
    databaseUrl?: (url: string) => string;
  } = {},
): Promise<TestApp> {
  const db = await createTestDatabase({ migrated: true });
  const appDbUrl = db.url && options.databaseUrl ? options.databaseUrl(db.url) : db.url;
  const config = loadConfig({
    DATA_DIR: 'memory://',
    BOOTSTRAP_ADMIN_EMAIL: ADMIN_EMAIL,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
    KEY_ENCRYPTION_SECRET: 'test-key-encryption-secret-0123456789',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(appDbUrl ? { DATABASE_URL: appDbUrl } : {}),
    // on PostgreSQL, as in production, with Redis when there is one (caches fan out their invalidations)
    ...(db.url && process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    // the suites' webhook receivers listen on 127.0.0.1 (webhooks-ssrf tests turn the rule back on)
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // the suites' directories (slapd) and OpenID providers (oidc-provider) listen on 127.0.0.1 over http
    FEDERATION_ALLOW_PRIVATE: 'true',
    OIDC_ALLOW_HTTP_ISSUERS: 'true',
    // every suite calls from 127.0.0.1: the per-address budgets would make suites throttle each other.
    // Callers' own buckets keep the spec's defaults; rate-limit.e2e-spec.ts sets small budgets itself.
    ...GENEROUS_ADDRESS_BUDGETS,
    // each test app its own buckets in a shared Redis (instances of one test pass the same namespace)
    RATE_LIMIT_NAMESPACE: `test-${randomUUID()}`,
    ...env,
  });
  if (db.pglite && !config.database.url && config.database.dataDir === 'memory://') {
    config.database.pglite = db.pglite;
  } else if (!config.database.url && config.database.dataDir !== 'memory://') {
    await seedPgliteDataDir(config.database.dataDir);
  }
  const app = await createApp(config);
  // every response is held against the committed OpenAPI document; a suite fails on any it does not declare
  recordContract(app.getHttpServer());
  const ds = app.get(DataSource);
  const admin = await ds.getRepository(UserEntity).findOneByOrFail({ email: ADMIN_EMAIL });
  return {
    app,
    http: request(app.getHttpServer()),
    ds,
    config,
    admin,
    domainId: admin.system_domain_id,
    get: (type) => app.get(type as never),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
