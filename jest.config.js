import { readFileSync } from 'node:fs';
import { unbatchedUnitSpecs } from './test/utils/unit-batches.mjs';

// Nest 12 ships ES modules only, so jest runs in native ESM mode (node --experimental-vm-modules).
const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // swc compiles each file alone (as tsc's isolatedModules would), with the decorator metadata Nest's DI and
  // TypeORM read; type errors are `npm run typecheck`'s
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
};

/**
 * Which e2e files a run takes, chosen by the npm script (its TEST_BATCHES and TEST_SUITES), never by reading
 * the command line:
 * - `npm test`, `npm run test:e2e` (TEST_BATCHES=1): the batch files (test/utils/batches.ts explains) and the
 *   suites that keep a file of their own;
 * - `npm run test:files -- <paths>` and plain `jest` (unset): every suite file, so paths and `-t` select them;
 * - `npm run test:postgres` (TEST_SUITES=postgres): the suites of test/postgres-suites.json, each with the
 *   reason it runs again on PostgreSQL and Redis.
 */
function e2eFiles() {
  const listed = (file) =>
    Object.keys(JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'))).map(
      (suite) => `<rootDir>/test/e2e/${suite}`,
    );
  if (process.env.TEST_SUITES === 'postgres') return listed('test/postgres-suites.json');
  if (process.env.TEST_BATCHES === '1')
    return ['<rootDir>/test/batches/*.e2e-batch.ts', ...listed('test/batches/alone.json')];
  return ['<rootDir>/test/**/*.e2e-spec.ts'];
}

/**
 * Which unit files a run takes: `npm test` (TEST_BATCHES=1) the batch files of the specs
 * (test/utils/unit-batches.mjs explains) and the specs that keep a file of their own; otherwise every spec file.
 */
function unitFiles() {
  if (process.env.TEST_BATCHES === '1')
    return [
      '<rootDir>/test/batches/*.unit-batch.ts',
      '<rootDir>/test/**/*.spec.ts',
      ...unbatchedUnitSpecs().map((spec) => `<rootDir>/${spec}`),
    ];
  return ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'];
}

export default {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: unitFiles(),
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: e2eFiles(),
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
