import { appendFileSync } from 'node:fs';
import { drainDatabasePools, prepareTemplate } from '../test-database.js';
import { coveredResponses, formatViolations, takeViolations } from './recorder.js';

// setupFilesAfterEnv of the e2e project.
// The migrated template every test app's database is copied from (test-database.ts): built by the first
// suite of a run that finds none, here rather than in that suite's own hook, with room for initdb and every
// migration on a loaded machine.
beforeAll(() => prepareTemplate(), 10 * 60_000);
// the in-memory databases kept for the next app of this test file (pglite-pool.ts)
afterAll(() => drainDatabasePools());

// A suite fails when its app answered anything the committed OpenAPI document does not declare
// (recorder.ts). With CONTRACT_COVERAGE=<file>, each suite appends the declared
// responses (`operationId status`) it exercised, for `sort -u <file>` after a run.
afterAll(() => {
  if (process.env.CONTRACT_COVERAGE) {
    const covered = coveredResponses();
    if (covered.length) appendFileSync(process.env.CONTRACT_COVERAGE, covered.map((c) => `${c}\n`).join(''));
  }
  const violations = takeViolations();
  if (violations.length) throw new Error(formatViolations(violations));
});
