import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The e2e suites run in a few batch files (test/batches/*.e2e-batch.ts) rather than one jest test file
 * each, when `npm test` runs them all.
 *
 * Why: jest gives every test file a module registry of its own, so each file compiled again the ~1,900
 * modules the application loads (TypeORM, Nest, the SAML and AWS libraries…) and PGlite's 9 MB of
 * WebAssembly: about half of a worker's CPU went there, not into tests. A batch file imports several suites
 * one after another, so they share that work. Every suite keeps its own test app, built in its own
 * `beforeAll` and closed in its own `afterAll` (no suite has hooks outside a `describe`; the batch checks).
 *
 * Which suite goes where: the suites sorted by name, each given to the batch with the least weight so far,
 * heaviest first, by the seconds in `test/batches/weights.json` (`scripts/test-batch-weights.mjs` refreshes it
 * from the report of an unbatched run; a suite not listed counts as the median). The suites of `ALONE` keep a test file of their own.
 *
 * The script chooses (jest.config.js): `npm test` and `npm run test:e2e` run the batch files;
 * `npm run test:files -- test/e2e/login.e2e-spec.ts` runs the suite files themselves, chosen by path or `-t`.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const E2E_DIR = join(ROOT, 'test/e2e');
const WEIGHTS_FILE = join(ROOT, 'test/batches/weights.json');

/**
 * Suites that keep their own test file (they match a snapshot named after their file, or run long alone),
 * each with the reason: `test/batches/alone.json`, which jest.config.js reads too.
 */
export const ALONE = Object.keys(
  JSON.parse(readFileSync(join(ROOT, 'test/batches/alone.json'), 'utf8')) as Record<string, string>,
);

/** How many batch files test/batches/ holds (test/utils/batches.spec.ts checks it). */
export const BATCH_COUNT = 5;

/** The batched suites' file names, batch by batch (index 0 is batch 1). */
export function planBatches(
  suites: string[] = readdirSync(E2E_DIR).filter((f) => f.endsWith('.e2e-spec.ts')),
  weights: Record<string, number> = JSON.parse(readFileSync(WEIGHTS_FILE, 'utf8')) as Record<string, number>,
  count = BATCH_COUNT,
): string[][] {
  const batched = suites.filter((f) => !ALONE.includes(f)).sort();
  const known = Object.values(weights).sort((a, b) => a - b);
  const fallback = known.length ? known[Math.floor(known.length / 2)] : 1;
  const weightOf = (f: string) => weights[f] ?? fallback;
  const byWeight = [...batched].sort((a, b) => weightOf(b) - weightOf(a) || a.localeCompare(b));
  const batches = Array.from({ length: count }, () => ({ suites: [] as string[], weight: 0 }));
  for (const suite of byWeight) {
    const lightest = batches.reduce((min, b) => (b.weight < min.weight ? b : min));
    lightest.suites.push(suite);
    lightest.weight += weightOf(suite);
  }
  return batches.map((b) => b.suites.sort());
}

/**
 * Imports the suites of the batch file `batchFileUrl` (`test/batches/<n>.e2e-batch.ts`), one after another:
 * each registers its `describe` blocks, and jest runs them in that order.
 */
export async function runBatch(batchFileUrl: string): Promise<void> {
  const n = Number(/^(\d+)\.e2e-batch\.ts$/.exec(basename(fileURLToPath(batchFileUrl)))?.[1]);
  if (!Number.isInteger(n) || n < 1 || n > BATCH_COUNT) {
    throw new Error(`${batchFileUrl} is not a batch file 1..${BATCH_COUNT}`);
  }
  for (const suite of planBatches()[n - 1]) {
    await import(`../e2e/${suite}`);
  }
}
