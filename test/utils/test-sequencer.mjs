import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import TestSequencer from '@jest/test-sequencer';

/**
 * The order jest starts the test files in, longest first so that neither worker is left with a long file at
 * the end. jest's own order does that from the durations of the last run in its cache; without them (a fresh
 * clone: CI) it orders by file size, which put the five batch files, three lines each but a minute or more of
 * tests, last. Here a file without a recorded duration is estimated from `test/batches/weights.json`: a batch
 * as its share of the batched suites' seconds, a suite as its own, a unit batch as ten seconds, a unit spec as a
 * second.
 */
const weights = JSON.parse(readFileSync(new URL('../batches/weights.json', import.meta.url), 'utf8'));
const alone = Object.keys(
  JSON.parse(readFileSync(new URL('../batches/alone.json', import.meta.url), 'utf8')),
);
const batchFiles = readFileSync(new URL('./batches.ts', import.meta.url), 'utf8').match(
  /export const BATCH_COUNT = (\d+);/,
);
const BATCH_COUNT = Number(batchFiles?.[1] ?? 1);
const batchedSeconds = Object.entries(weights)
  .filter(([suite]) => !alone.includes(suite))
  .reduce((sum, [, s]) => sum + s, 0);

function estimatedMs(path) {
  const name = basename(path);
  if (name.endsWith('.e2e-batch.ts')) return (batchedSeconds / BATCH_COUNT) * 1000;
  // a quarter of the batched unit specs, about 30 (a second each alone, a third of that batched)
  if (name.endsWith('.unit-batch.ts')) return 10_000;
  if (name in weights) return weights[name] * 1000;
  return 1000;
}

const Base = TestSequencer.default ?? TestSequencer;

export default class LongestFirstSequencer extends Base {
  sort(tests) {
    const recorded = (test) => this._getCache(test)[test.path]?.[1];
    if (tests.every((t) => typeof recorded(t) === 'number')) return super.sort(tests);
    const ms = (t) => recorded(t) ?? estimatedMs(t.path);
    return [...tests].sort((a, b) => ms(b) - ms(a));
  }
}
