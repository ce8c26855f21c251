import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The unit specs of src/ run in a few batch files (test/batches/*.unit-batch.ts) when `npm test` runs them all,
 * for the reason the e2e suites do (test/utils/batches.ts): jest gives every test file a module registry of its
 * own, and most of a small spec's time went into loading its service's module graph again. A batch file
 * imports its specs one after another, so they share that work.
 *
 * A spec keeps a file of its own when it changes what another spec in the same registry would see: a module
 * mock, a spy on a shared object, the environment, fake timers; or when it runs long alone. jest.config.js
 * reads `unbatchedUnitSpecs` so that `npm test` runs those files themselves; `npm run test:unit` and
 * `npm run test:files` run every spec file, unbatched.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const UNIT_BATCH_COUNT = 4;

const OWN_FILE =
  /jest\.unstable_mockModule|jest\.mock\(|useFakeTimers|spyOn\(|process\.env|^(beforeAll|beforeEach|afterAll|afterEach)\(/m;
const LONG = ['src/base/database/pglite-serial-driver.spec.ts'];

function specsUnder(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return specsUnder(path);
    return e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every unit spec of src/, as paths relative to the repository. */
export function unitSpecs() {
  return specsUnder('src').sort();
}

function batchable(path) {
  return !LONG.includes(path) && !OWN_FILE.test(readFileSync(join(ROOT, path), 'utf8'));
}

/** The specs that keep a test file of their own (see above). */
export function unbatchedUnitSpecs() {
  return unitSpecs().filter((p) => !batchable(p));
}

/** The batched specs, batch by batch (index 0 is batch 1): each to the lightest batch so far, largest first. */
export function planUnitBatches(count = UNIT_BATCH_COUNT) {
  const size = new Map(
    unitSpecs()
      .filter(batchable)
      .map((p) => [p, statSync(join(ROOT, p)).size]),
  );
  const sizeOf = (p) => size.get(p);
  const specs = [...size.keys()].sort((a, b) => sizeOf(b) - sizeOf(a) || a.localeCompare(b));
  const batches = Array.from({ length: count }, () => ({ specs: [], weight: 0 }));
  for (const spec of specs) {
    const lightest = batches.reduce((min, b) => (b.weight < min.weight ? b : min));
    lightest.specs.push(spec);
    lightest.weight += sizeOf(spec);
  }
  return batches.map((b) => b.specs.sort());
}

/** The absolute paths of batch `n`'s specs (test/batches/<n>.unit-batch.ts imports them in this order). */
export function unitBatch(n) {
  if (!Number.isInteger(n) || n < 1 || n > UNIT_BATCH_COUNT) throw new Error(`no unit batch ${n}`);
  return planUnitBatches()[n - 1].map((p) => join(ROOT, p));
}
