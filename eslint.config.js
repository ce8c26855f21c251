import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const RAW_SQL = {
  // input.query(Dto) is a route table's query-string input (base/common/http/service-routes.ts), not SQL
  selector: "CallExpression[callee.property.name='query']:not([callee.object.name='input'])",
  message: 'Raw SQL belongs in the feature repository (x.repository.ts), with a line saying why it is raw.',
};
const REPOSITORY_ONLY =
  'Database access belongs in the feature repository (x.repository.ts): give it a method (a transaction: a repository method that takes a callback).';
const ORM_OUTSIDE_REPOSITORY = [
  { selector: "Decorator[expression.callee.name='InjectDataSource']", message: REPOSITORY_ONLY },
  {
    selector: 'CallExpression[callee.property.name=/^(getRepository|createQueryBuilder)$/]',
    message: REPOSITORY_ONLY,
  },
  {
    // an EntityManager handed to a service by a repository's transaction is passed on, never used
    selector:
      "CallExpression[callee.object.name='em'][callee.property.name=/^(find|findOne|findOneBy|findOneByOrFail|findBy|findAndCount|insert|update|delete|save|remove|exists|existsBy|count|countBy|upsert|increment|decrement|softDelete|restore|transaction)$/]",
    message: REPOSITORY_ONLY,
  },
  {
    selector: "MemberExpression[object.property.name='ds'][property.name=/^(transaction|manager)$/]",
    message: REPOSITORY_ONLY,
  },
];
// Lints src, test, scripts, bench and the config files themselves; formatting is prettier's job.
export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'openapi/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // a source file over 400 lines holds more than one responsibility: split it by responsibility (issue 18)
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // a controller is its routes' declarations and nothing else: at most 150 lines (issue 37 item 4); later
    // routes move to a routes file the controller extends, a family of alike resources to one spec
    files: ['src/**/*.controller.ts'],
    rules: { 'max-lines': ['error', { max: 150, skipBlankLines: false, skipComments: false }] },
  },
  {
    // the repository is the only door to the database (issue 37 item 1): raw SQL, the data source, the ORM's
    // repositories, query builders and entity-manager calls live in a feature's repository (x.repository.ts),
    // each raw statement with a line saying why it is raw; src/base/database/ is the infrastructure under them
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.repository.ts', 'src/base/database/**', 'src/**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', RAW_SQL, ...ORM_OUTSIDE_REPOSITORY] },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts'],
    languageOptions: { globals: { ...globals.jest } },
  },
);
