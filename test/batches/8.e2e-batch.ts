// One of the batch files of the e2e suites: which suites it runs, and why, is in test/utils/batches.ts.
import { runBatch } from '../utils/batches.js';

await runBatch(import.meta.url);
