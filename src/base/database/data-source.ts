import { DataSource, type DataSourceOptions } from 'typeorm';
import type { BaseConfig } from '../config/config.js';
import { ENTITIES } from '../model/entities.js';
import { MIGRATIONS } from './migrations/index.js';
import { createSerialPgliteDriver } from './pglite-serial-driver.js';
import { poolOptions } from './bounded-client.js';

/** `memory://` keeps PGlite in memory (tests); any other DATA_DIR persists it under `<dir>/pglite`. */
export function dataSourceOptions(config: BaseConfig): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    // PGlite has neither uuid-ossp nor pgcrypto; gen_random_uuid() is core since PostgreSQL 13.
    installExtensions: false,
    uuidExtension: 'pgcrypto' as const,
    logging: false,
  };
  if (config.database.url) {
    return { ...common, url: config.database.url, extra: poolOptions(config.database.pool) };
  }
  const dir = config.database.dataDir === 'memory://' ? undefined : `${config.database.dataDir}/pglite`;
  const driver = createSerialPgliteDriver(dir, dir ? undefined : config.database.pglite);
  return { ...common, driver } as DataSourceOptions;
}

export function createDataSource(config: BaseConfig): DataSource {
  return new DataSource(dataSourceOptions(config));
}

const MIGRATION_LOCK_KEY = 4_280_517_731; // arbitrary, fixed: "portcullis migrations"

/**
 * Applies pending migrations. On PostgreSQL an advisory lock makes instances that start together take
 * turns; the second finds nothing left to do. PGlite is single-process and needs no lock.
 * On PostgreSQL they run on a connection of their own without the requests' query and statement bounds
 * (a migration over a large table may rightly take minutes), closed when they are done.
 */
export async function runMigrations(app: DataSource): Promise<void> {
  const isPglite = !(app.options as { url?: string }).url;
  if (isPglite) {
    await app.runMigrations({ transaction: 'each' });
    return;
  }
  const extra: Record<string, unknown> = {
    ...(app.options as { extra?: Record<string, unknown> }).extra,
    max: 2,
  }; // the lock, the migrations
  delete extra.query_timeout;
  delete extra.statement_timeout;
  const ds = await new DataSource({ ...app.options, extra } as DataSourceOptions).initialize();
  try {
    await migrateLocked(ds);
  } finally {
    await ds.destroy();
  }
}

async function migrateLocked(ds: DataSource): Promise<void> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    // raw: a session advisory lock on the runner's one connection (no table; the query builder has none)
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    // raw: releases that session lock on the same connection
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
