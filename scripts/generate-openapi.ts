// Writes openapi/openapi.json from the decorators: npm run openapi:generate (test/e2e/openapi.e2e-spec.ts
// fails when the served document and the committed file differ).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createApp } from '../src/app/app.factory.js';
import { randomSecret } from '../src/base/config/config.js';
import { loadConfig } from '../src/app/config.js';
import { buildOpenApiDocument } from '../src/app/openapi.js';

// A throwaway in-memory app: the document depends on the routes and DTOs only, never on the environment,
// so nothing of the caller's environment (DATABASE_URL, PUBLIC_BASE_URL...) is read.
const config = loadConfig({
  DATA_DIR: 'memory://',
  LOG_LEVEL: 'silent',
  KEY_ENCRYPTION_SECRET: randomSecret(),
  BOOTSTRAP_ADMIN_PASSWORD: randomSecret(),
});
const app = await createApp(config);
try {
  const doc = buildOpenApiDocument(app);
  const out = resolve(process.argv[2] ?? 'openapi/openapi.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  const operations = Object.values(doc.paths).reduce(
    (n, item) => n + Object.keys(item).filter((k) => methods.includes(k)).length,
    0,
  );
  console.log(`wrote ${out} (${Object.keys(doc.paths).length} paths, ${operations} operations)`);
} finally {
  await app.close();
}
