// Fails when the entities and the committed migrations disagree (run by CI on an empty database).
import { pendingSchemaChanges } from './schema-diff.js';

const { up } = await pendingSchemaChanges();
if (up.length > 0) {
  console.error(`Schema drift: the entities need ${up.length} statement(s) the migrations do not have:`);
  for (const s of up) console.error(`  ${s}`);
  console.error('Run: npm run migration:generate -- DescribeTheChange');
  process.exit(1);
}
console.log('migrations: no drift between entities and migrations');
