// Refreshes test/batches/weights.json, the seconds each e2e suite takes, which test/utils/batches.ts uses
// to spread the suites evenly over the batch files. Give it the report of an unbatched run:
//   npm run test:files -- --selectProjects e2e --json --outputFile=/tmp/jest.json
//   node scripts/test-batch-weights.mjs /tmp/jest.json
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const report = process.argv[2];
if (!report) {
  console.error('usage: node scripts/test-batch-weights.mjs <jest --json report of an unbatched run>');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const weights = {};
for (const r of testResults) {
  const name = basename(r.name);
  if (!name.endsWith('.e2e-spec.ts')) continue;
  weights[name] = Math.round((r.endTime - r.startTime) / 100) / 10;
}
if (!Object.keys(weights).length) {
  console.error(`${report} has no e2e suite: run it with npm run test:files`);
  process.exit(1);
}
const sorted = Object.fromEntries(Object.entries(weights).sort(([a], [b]) => a.localeCompare(b)));
const file = new URL('../test/batches/weights.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} suites weighed into test/batches/weights.json`);
