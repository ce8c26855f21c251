import { readFileSync } from 'node:fs';

// Nest 12 ships ES modules only, so jest runs in native ESM mode (node --experimental-vm-modules).
const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
};

// jest's options that take their value as the next argument (`--selectProjects e2e`): that value is not a
// test path
const VALUED = new Set([
  '-c',
  '--config',
  '-t',
  '--testNamePattern',
  '--selectProjects',
  '--ignoreProjects',
  '--outputFile',
  '--shard',
  '--seed',
  '--maxWorkers',
  '-w',
  '--testTimeout',
  '--workerIdleMemoryLimit',
  '--reporters',
  '--coverageDirectory',
  '--testPathIgnorePatterns',
  '--cacheDirectory',
]);
const SELECTING = [
  '--testPathPatterns',
  '--testPathPattern',
  '--findRelatedTests',
  '--onlyChanged',
  '-o',
  '--changedSince',
  '--listTests',
];

/**
 * Whether this run is of the whole suite (batched, test/utils/batches.ts explains) or of chosen files: a
 * test path or pattern on the command line (`npm test -- test/e2e/login.e2e-spec.ts`) selects suite files,
 * and a batch file named after none of them would run nothing. TEST_BATCHES=0 or 1 decides it outright.
 */
function batched() {
  if (process.env.TEST_BATCHES === '0') return false;
  if (process.env.TEST_BATCHES === '1') return true;
  const bin = process.argv.findIndex((a) => /jest(\.js)?$/.test(a));
  const args = bin >= 0 ? process.argv.slice(bin + 1) : [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (SELECTING.some((s) => a === s || a.startsWith(`${s}=`))) return false;
    if (VALUED.has(a)) i++;
    else if (!a.startsWith('-')) return false;
  }
  return true;
}

export default {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: batched()
        ? [
            '<rootDir>/test/batches/*.e2e-batch.ts',
            // the suites that keep a file of their own, with the reasons (test/utils/batches.ts)
            ...Object.keys(
              JSON.parse(readFileSync(new URL('test/batches/alone.json', import.meta.url), 'utf8')),
            ).map((suite) => `<rootDir>/test/e2e/${suite}`),
          ]
        : ['<rootDir>/test/**/*.e2e-spec.ts'],
      // every response the suites receive is checked against openapi/openapi.json (test/utils/contract/)
      setupFilesAfterEnv: ['<rootDir>/test/utils/contract/setup.ts'],
    },
  ],
  // an app start (PGlite, every migration) takes a few seconds alone and several times that on a loaded
  // 2-core machine: hooks that build apps need the room; tests that wait on purpose set their own limits
  testTimeout: 60000,
  // longest first, also on a fresh clone with no recorded durations (test/utils/test-sequencer.mjs)
  testSequencer: '<rootDir>/test/utils/test-sequencer.mjs',
};
