import { loadConfig } from '../src/app/config.js';
import { createDataSource, runMigrations } from '../src/base/database/data-source.js';

/** SQL that would bring the migrated database in line with the entities (empty: no drift). */
export async function pendingSchemaChanges(): Promise<{ up: string[]; down: string[] }> {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: process.env.DATABASE_URL ? process.env.DATA_DIR : 'memory://',
  });
  const ds = createDataSource(config);
  await ds.initialize();
  try {
    await runMigrations(ds);
    const sql = await ds.driver.createSchemaBuilder().log();
    return {
      up: sql.upQueries.map((q) => q.query),
      down: sql.downQueries.map((q) => q.query).reverse(),
    };
  } finally {
    await ds.destroy();
  }
}
