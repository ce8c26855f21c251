// Signing key administration, against the configured database (DATABASE_URL, or the PGlite under DATA_DIR).
//   npm run keys:rotate              new signing key; the previous one keeps verifying issued tokens
//   npm run keys:rotate -- list      kid, status, created
//   npm run keys:rotate -- retire K  stop key K verifying (after a compromise): its tokens are refused
// Running instances pick the change up within a minute (and at once when they meet an unknown kid).
import { loadConfig } from '../src/app/config.js';
import { createDataSource, runMigrations } from '../src/base/database/data-source.js';
import { SigningKeyEntity } from '../src/base/model/signing-key.entity.js';
import { KeysRepository } from '../src/base/keys/keys.repository.js';
import { SigningKeysService } from '../src/base/keys/signing-keys.service.js';

const [command = 'rotate', arg] = process.argv.slice(2);
const config = loadConfig();
const ds = createDataSource(config);
await ds.initialize();
try {
  await runMigrations(ds);
  const keys = new SigningKeysService(new KeysRepository(ds), config);
  if (command === 'list') {
    const rows = await ds.getRepository(SigningKeyEntity).find({ order: { date_created: 'DESC' } });
    for (const r of rows) console.log(`${r.id}  ${r.status.padEnd(8)}  ${r.date_created.toISOString()}`);
  } else if (command === 'rotate') {
    await keys.init();
    const before = keys.currentKid();
    const kid = await keys.rotate();
    console.log(`rotated: new signing key ${kid}; previous ${before ?? '(none)'} still verifies`);
  } else if (command === 'retire' && arg) {
    await keys.init();
    const ok = await keys.retire(arg);
    console.log(
      ok
        ? `retired ${arg}: tokens signed with it are refused`
        : `no PREVIOUS key ${arg} (the active key cannot be retired; rotate first)`,
    );
    if (!ok) process.exitCode = 1;
  } else {
    console.error('usage: npm run keys:rotate [-- list | -- retire <kid>]');
    process.exitCode = 2;
  }
  keys.onModuleDestroy();
} finally {
  await ds.destroy();
}
