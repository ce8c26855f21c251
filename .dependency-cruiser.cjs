/**
 * The layers of src/ and the rules that hold them (issue 37 item 3), run by `npm run deps:layers` (and so by
 * .ci/run). ARCHITECTURE.md draws the same order. A layer may import only the layers before it in LAYERS
 * (and itself); src/main.ts, the entry point, may import anything.
 */
const LAYERS = ['base', 'delivery', 'credentials', 'accounts', 'auth', 'sign-in', 'platform', 'app'];

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-order:${layer}`,
  comment: `src/${layer}/ may import only ${LAYERS.slice(0, i).join(', ') || 'itself'} (the layers below it)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'common-imports-no-feature',
      comment:
        'src/base/common/ is what every feature builds on: it imports only itself, the base config and the model',
      severity: 'error',
      from: { path: '^src/base/common/' },
      to: { path: '^src/', pathNot: '^src/base/(common|config|model)/' },
    },
    {
      name: 'model-imports-only-model',
      comment: 'the entities (src/base/model/) are the schema: they import nothing of the service',
      severity: 'error',
      from: { path: '^src/base/model/' },
      to: { path: '^src/', pathNot: '^src/base/model/' },
    },
    {
      name: 'own-repository-only',
      comment: "a feature's repository is its own door to the database: another feature asks its services",
      severity: 'error',
      from: { path: '^src/([^/]+)/([^/]+)/' },
      to: { path: '[.]repository[.]ts$', pathNot: '^src/$1/$2/' },
    },
    {
      name: 'token-generators-only-in-the-mint',
      comment: 'credential material is made only by the CredentialMintService (src/credentials/mint/)',
      severity: 'error',
      from: { pathNot: '^src/credentials/mint/' },
      to: { path: '^src/credentials/mint/(token-issuer|secret-generator)[.]ts$' },
    },
    {
      name: 'no-folder-cycles',
      comment:
        'no two folders of src/ import each other, directly or through others (feature folders included)',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
