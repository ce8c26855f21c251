// Nest 12 ships ES modules only, so jest runs in native ESM mode (node --experimental-vm-modules).
const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
};

export default {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // every response the suites receive is checked against openapi/openapi.json (test/utils/contract/)
      setupFilesAfterEnv: ['<rootDir>/test/utils/contract/setup.ts'],
    },
  ],
  // an app start (PGlite, every migration) takes a few seconds alone and several times that on a loaded
  // 2-core machine: hooks that build apps need the room; tests that wait on purpose set their own limits
  testTimeout: 60000,
};
