// Validates the committed OpenAPI document against the OpenAPI 3.0 schema and resolves every $ref:
// npm run openapi:validate [file]. Exits 1 on any error.
import { readFile } from 'node:fs/promises';
import SwaggerParser from '@apidevtools/swagger-parser';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const file = process.argv[2] ?? 'openapi/openapi.json';

try {
  // Parse ourselves: validate() dereferences its argument in place, and a path would also accept YAML.
  const doc = JSON.parse(await readFile(file, 'utf8'));
  if (doc.openapi !== '3.0.3')
    throw new Error(`expected "openapi": "3.0.3", got ${JSON.stringify(doc.openapi)}`);
  const paths = Object.keys(doc.paths ?? {});
  const operations = paths.reduce(
    (n, p) => n + Object.keys(doc.paths[p]).filter((m) => METHODS.includes(m)).length,
    0,
  );
  await SwaggerParser.validate(structuredClone(doc));
  console.log(`openapi: valid (${paths.length} paths, ${operations} operations)`);
} catch (err) {
  console.error(`openapi: INVALID ${file}`);
  // swagger-parser's message lists every schema violation (JSON pointer + reason) or the unresolved $ref.
  console.error(
    `  ${String(err?.message ?? err)
      .trimEnd()
      .replace(/\n/g, '\n  ')}`,
  );
  process.exit(1);
}
