// Usage: npm run migration:generate -- Name. Writes src/base/database/migrations/<timestamp>-<name>.ts, a
// SqlMigration (src/base/database/sql-migration.ts) holding the statements TypeORM finds missing and the ones
// that undo them, and re-lists the folder in migrations/index.ts; both files as Prettier formats them, so the
// change passes `prettier --check` as written.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { pendingSchemaChanges } from './schema-diff.js';

/** Writes `source` to `path` formatted with the repository's Prettier settings. */
async function writeFormatted(path: string, source: string): Promise<void> {
  writeFileSync(path, await format(source, { ...(await resolveConfig(path)), filepath: path }));
}

const name = (process.argv[2] ?? '').replace(/[^A-Za-z0-9]/g, '');
if (!name) {
  console.error('usage: npm run migration:generate -- MigrationName');
  process.exit(2);
}
const { up, down } = await pendingSchemaChanges();
if (up.length === 0) {
  console.log('No changes: the entities match the migrations.');
  process.exit(0);
}
const ts = Date.now();
const cls = `${name}${ts}`;
const list = (statements: string[]) =>
  `[\n${statements.map((s) => `    ${JSON.stringify(s)},`).join('\n')}\n  ]`;
const dir = 'src/base/database/migrations';
const file = `${ts}-${name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}.ts`;
await writeFormatted(
  join(dir, file),
  `import { SqlMigration } from '../sql-migration.js';

export class ${cls} extends SqlMigration {
  name = '${cls}';

  protected readonly upStatements = ${list(up)};

  protected readonly downStatements = ${list(down)};
}
`,
);
const files = readdirSync(dir)
  .filter((f) => /^\d+-.*\.ts$/.test(f) && !f.endsWith('.spec.ts'))
  .sort();
const imports: string[] = [];
const names: string[] = [];
for (const f of files) {
  const src = (await import('node:fs')).readFileSync(join(dir, f), 'utf8');
  const m = /export class (\w+)/.exec(src);
  if (!m) continue;
  imports.push(`import { ${m[1]} } from './${f.replace(/\.ts$/, '.js')}';`);
  names.push(m[1]);
}
await writeFormatted(
  join(dir, 'index.ts'),
  `// Maintained by scripts/migration-generate.ts: every migration, oldest first.\n// Migrations are raw SQL by nature (DDL and data steps, the schema's own history): exempt from the one-raw-query-per-repository rule.\n${imports.join('\n')}\n\nexport const MIGRATIONS = [${names.join(', ')}];\n`,
);
console.log(`Wrote ${dir}/${file} (${up.length} statements)`);
