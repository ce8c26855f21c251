// Fails when a document (README.md, ARCHITECTURE.md, docs/*.md) names a source file that does not exist or a
// route that openapi/openapi.json does not have: npm run docs:check (CI runs it; `--self-test` checks the rules).
//
// Files: a name with a source extension (.ts .mjs .js .cjs .json .sh .snap .yml) must be the tail of a path in
//   the repository (`guard/acl.step.ts` and `acl.step.ts` both name src/auth/guard/acl.step.ts); `*` in a
//   name is a wildcard. Left alone: URLs, names outside the repository (`../shared/…`, `/work/…`), build output
//   and installed code (`dist/`, `node_modules/`), templates (`x.module.ts`), and package names (`ipaddr.js`).
// Routes: only absolute ones are checked, written as `/API/…`, `/.well-known/…`, `/login/…`, a URL on
//   localhost, `$B/…` (relative to /API/auth, or to the path of the last `B=…` in the document) or `/v1/…`
//   (relative to /API/auth: write other services' routes in full, `/API/users/v1/…`). A route
//   relative to a table's base (`/{id}/`) is not a route of its own and is not checked. A segment written
//   `{x}`, `<x>`, `:x`, `$X`, `…` or `*` stands for a parameter of the document (never for a fixed segment);
//   a concrete segment matches the same fixed segment, or a parameter (an example id). Query strings and a trailing slash do not count. A route that is a prefix of
//   documented routes (`/API/acls/v1/`) names that group and passes. Pages outside the API (the consent page,
//   the OpenAPI document itself) are listed in NOT_IN_OPENAPI with where they are served.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

/** Routes served outside the OpenAPI document, each with the code that serves it. */
const NOT_IN_OPENAPI = {
  '/API/auth/spec': 'src/app/openapi.ts (the document itself)',
  '/API/auth/spec/ui': 'src/app/openapi.ts (Swagger UI)',
  '/API/auth/spec/json': 'src/app/openapi.ts',
  '/oauth/authorize': 'src/sign-in/oauth/consent/consent.controller.ts (HTML consent page)',
  '/oauth/authorize/decision': 'src/sign-in/oauth/consent/consent.controller.ts (HTML form post)',
};

const SOURCE_EXT = /\.(?:ts|mjs|cjs|js|json|sh|snap|ya?ml)$/;
const PLACEHOLDER = /^(?:\{[^}]*\}|<[^>]*>|:\w+|\$\{?\w+\}?|…|\.\.\.|\*)$/;

export function documents(root = ROOT) {
  const docs = ['README.md', 'ARCHITECTURE.md'].filter((f) => existsSync(join(root, f)));
  if (existsSync(join(root, 'docs')))
    for (const f of readdirSync(join(root, 'docs')).sort()) if (f.endsWith('.md')) docs.push(`docs/${f}`);
  return docs;
}

export function repositoryFiles(root = ROOT) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return out.split('\n').filter(Boolean);
}

/** File names a text mentions, as written. */
export function fileNames(text) {
  const names = new Set();
  const withoutUrls = text.replace(/\bhttps?:\/\/\S+/g, ' ');
  for (const m of withoutUrls.matchAll(/(?<![\w./-])((?:\.{1,2}\/)?[\w*@.-]+(?:\/[\w*@.-]+)*)(?![\w/-])/g)) {
    let name = m[1].replace(/[.,:;]+$/, '');
    if (!SOURCE_EXT.test(name)) continue;
    if (/^(?:\.\.\/|\/|dist\/|node_modules\/)/.test(name) || name.includes('/node_modules/')) continue;
    if (/^x\./.test(name.split('/').pop())) continue; // a template: x.module.ts, x.errors.ts
    if (/^[\w-]+\.json$/.test(name) && !name.includes('/') && name !== 'package.json') continue; // a media type or field
    names.add(name.replace(/^\.\//, ''));
  }
  return [...names];
}

export function fileExists(name, files) {
  const pattern = new RegExp(`(?:^|/)${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return files.some((f) => pattern.test(f));
}

/** Absolute routes a text mentions, normalised to a path under the service root; `$B` is `base`. */
export function routes(text, base = '/API/auth') {
  const found = new Set();
  const tail = String.raw`[^\s${'`'}'"|),\]]*`;
  const re = new RegExp(
    String.raw`(\$B)(\/${tail})|(?:https?:\/\/localhost(?::\d+)?|(?<![\w$}>)/.-]))(\/(?:API|v1|\.well-known|login|oauth)\/?${tail})`,
    'g',
  );
  for (const m of text.matchAll(re)) {
    let path = (m[2] ?? m[3]).split(/[?#]/)[0].replace(/[.,:;]+$/, '');
    if (m[1]) path = base + path;
    else if (path.startsWith('/v1/')) path = `/API/auth${path}`;
    else if (path.startsWith('/oauth/') || path === '/oauth') {
      // only the consent page lives at the root; /oauth/… elsewhere is relative to /API/auth/v1
      if (!/^\/oauth\/authorize(?:\/decision)?\/?$/.test(path)) continue;
    }
    found.add(path);
  }
  return [...found];
}

const segments = (p) => p.replace(/\/+$/, '').split('/').slice(1);

export function routeKnown(route, openapiPaths) {
  const doc = segments(route);
  const matches = (api, prefixOnly) => {
    const spec = segments(api);
    if (prefixOnly ? doc.length > spec.length : doc.length !== spec.length) return false;
    // a placeholder stands for a parameter, never for a fixed segment; an example id fills a parameter
    return doc.every((s, i) => /^\{.*\}$/.test(spec[i]) || (s === spec[i] && !PLACEHOLDER.test(s)));
  };
  const all = [...openapiPaths, ...Object.keys(NOT_IN_OPENAPI)];
  if (all.some((p) => matches(p, false))) return true;
  // a trailing … or * names the routes under a prefix; so does a prefix of documented routes
  const last = doc[doc.length - 1];
  if (last === '…' || last === '*' || last === '...') doc.pop();
  return all.some((p) => matches(p, true));
}

export function check(root = ROOT) {
  const files = repositoryFiles(root);
  const openapi = JSON.parse(readFileSync(join(root, 'openapi/openapi.json'), 'utf8'));
  const paths = Object.keys(openapi.paths);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const packages = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
  const problems = [];
  for (const doc of documents(root)) {
    const lines = readFileSync(join(root, doc), 'utf8').split('\n');
    let base = '/API/auth';
    lines.forEach((line, i) => {
      // an example that sets B=… names its own base for $B
      const assigned = /(?:^|[\s;])B=(?:https?:\/\/[^/\s;]+)?(\/[^\s;]*)/.exec(line);
      if (assigned) base = assigned[1].replace(/\/+$/, '');
      for (const name of fileNames(line))
        if (!packages.has(name) && !fileExists(name, files))
          problems.push(`${doc}:${i + 1}: no file ${name}`);
      for (const route of routes(line, base))
        if (!routeKnown(route, paths))
          problems.push(`${doc}:${i + 1}: no route ${route} in openapi/openapi.json`);
    });
  }
  return problems;
}

function selfTest() {
  const files = ['src/auth/guard/acl.step.ts', 'src/sign-in/mfa/mfa.service.ts', 'test/e2e/x.e2e-spec.ts'];
  const paths = [
    '/API/auth/v1/apps/{app_id}/token',
    '/API/users/v1/users/current',
    '/API/acls/v1/acl/assets/{asset_id}',
  ];
  const cases = [
    [
      fileNames('see `guard/acl.step.ts` and acl.step.ts').every((n) => fileExists(n, files)),
      'suffixes exist',
    ],
    [!fileExists('src/mfa/gone.service.ts', files), 'a missing file is reported'],
    [!fileExists('mfa/acl.step.ts', files), 'a file in another folder is reported'],
    [fileExists('test/e2e/*.e2e-spec.ts', files), 'wildcards'],
    [
      fileNames('x.module.ts, ../shared/a.ts, dist/src/main.js, https://h/x.js').length === 0,
      'templates, outside',
    ],
    [routeKnown('/API/auth/v1/apps/$APP/token/', paths), 'a variable segment'],
    [routeKnown('/API/auth/v1/apps/2f0c9a4e-1111-4222-8333-944445555666/token', paths), 'an example id'],
    [!routeKnown('/API/auth/v1/apps/{id}/secret', paths), 'a missing route is reported'],
    [!routeKnown('/API/users/v1/users/current/extra', paths), 'a longer route is reported'],
    [routeKnown('/API/acls/v1/', paths), 'a prefix names a group'],
    [
      !routeKnown('/API/users/v1/users/{id}/teams/', [
        ...paths,
        '/API/users/v1/users/invitations/{invitation_id}',
      ]),
      'a placeholder is not a fixed segment',
    ],
    [!routeKnown('/API/users/v1/users/current/extra/more', paths), 'longer than any route'],
    [routeKnown('/API/users/v1/users/', paths), 'a prefix of a route'],
    [
      routes('curl $B/v1/apps/ and `/v1/apps/{id}/token/`').join() ===
        '/API/auth/v1/apps,/API/auth/v1/apps/{id}/token/'.replace(
          '/API/auth/v1/apps,',
          '/API/auth/v1/apps/,',
        ),
      'relative forms',
    ],
    [routes('| `DELETE /{id}/` | x').length === 0, 'table-relative routes are not checked'],
    [routes('curl $B/idp/', '/API/auth/v1/auth/saml')[0] === '/API/auth/v1/auth/saml/idp/', 'B=… sets $B'],
    [
      routes('http://localhost:3000/API/users/v1/users/current/?x=1')[0] === '/API/users/v1/users/current/',
      'URLs',
    ],
  ];
  const failed = cases.filter(([ok]) => !ok).map(([, what]) => what);
  if (failed.length) {
    console.error(`docs:check self-test failed: ${failed.join('; ')}`);
    process.exit(1);
  }
  console.log(`docs:check self-test: ${cases.length} rules hold`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  if (process.argv.includes('--self-test')) selfTest();
  else {
    const problems = check();
    for (const p of problems) console.error(p);
    if (problems.length) {
      console.error(`docs:check: ${problems.length} reference(s) to files or routes that do not exist`);
      process.exit(1);
    }
    console.log(`docs:check: every file and route named in ${documents().length} documents exists`);
  }
}
