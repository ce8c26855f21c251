// One of the batch files of the unit specs: which specs it runs, and why, is in test/utils/unit-batches.mjs.
import { pathToFileURL } from 'node:url';
import { unitBatch } from '../utils/unit-batches.mjs';

for (const spec of unitBatch(3)) await import(pathToFileURL(spec).href);
