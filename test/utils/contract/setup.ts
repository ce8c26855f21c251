import { appendFileSync } from 'node:fs';
import { coveredResponses, formatViolations, takeViolations } from './recorder.js';

// setupFilesAfterEnv of the e2e project: a suite fails when its app answered anything the committed OpenAPI
// document does not declare (recorder.ts). With CONTRACT_COVERAGE=<file>, each suite appends the declared
// responses (`operationId status`) it exercised, for `sort -u <file>` after a run.
afterAll(() => {
  if (process.env.CONTRACT_COVERAGE) {
    const covered = coveredResponses();
    if (covered.length) appendFileSync(process.env.CONTRACT_COVERAGE, covered.map((c) => `${c}\n`).join(''));
  }
  const violations = takeViolations();
  if (violations.length) throw new Error(formatViolations(violations));
});
