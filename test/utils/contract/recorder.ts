import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ContractChecker, type Exchange, type Violation } from './contract-checker.js';

/**
 * Records every response an HTTP server sends and holds it against the committed OpenAPI document
 * (ContractChecker). Installed on the app's HTTP server by createTestApp, so every request of every e2e
 * suite is checked, whichever client sent it (supertest, fetch, a browser); `setup.ts` fails the suite in
 * an `afterAll` when any violation was recorded. Nothing in `src/` knows about it.
 *
 * The listener runs before Express's (prependListener) and wraps `res.write`/`res.end`, so the check runs
 * inside `res.end`: before the client can have the response, hence before the test's next line.
 */

interface Store {
  checker?: ContractChecker;
  violations: (Violation & { test?: string })[];
  /** Declared responses (`operationId status`) the suite's requests got. */
  covered: Set<string>;
}

const STORE = Symbol.for('portcullis.contract');
const INSTALLED = Symbol.for('portcullis.contract.installed');
/** Bodies larger than this are not checked (none of the API's JSON answers comes close). */
const MAX_BODY = 1 << 20;

/** The current test file's store (jest gives each test file its own global). */
function store(): Store {
  const g = globalThis as unknown as Record<symbol, Store | undefined>;
  return (g[STORE] ??= { violations: [], covered: new Set() });
}

/** The checker of the committed document, built once per test file; its validators compile on first use. */
export function contractChecker(): ContractChecker {
  const s = store();
  return (s.checker ??= ContractChecker.fromCommittedDocument());
}

/** Checks every response `server` sends from now on; violations go to this test file's list. */
export function recordContract(server: Server, checker: ContractChecker = contractChecker()): void {
  const marked = server as unknown as Record<symbol, boolean>;
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;
  const sink = store();
  const currentTest = () =>
    (globalThis as { expect?: { getState(): { currentTestName?: string } } }).expect?.getState()
      .currentTestName;

  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    if (!checker.isChecked(url)) return;
    const preflight =
      method === 'OPTIONS' && !!req.headers.origin && !!req.headers['access-control-request-method'];
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_BODY) return;
      const buf =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      size += buf.length;
      chunks.push(buf);
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: ServerResponse, ...args: unknown[]) {
      if (!done) {
        done = true;
        keep(args[0], args[1]);
        const exchange: Exchange = {
          method,
          url,
          preflight,
          status: res.statusCode,
          contentType: String(res.getHeader('content-type') ?? ''),
          body: Buffer.concat(chunks),
          truncated: size > MAX_BODY,
        };
        let found: Violation[];
        try {
          const result = checker.inspect(exchange);
          found = result.violations;
          if (result.covered) sink.covered.add(result.covered);
        } catch (err) {
          found = [
            {
              method,
              path: url.split('?')[0],
              status: res.statusCode,
              problems: [`the contract check failed: ${(err as Error).stack ?? String(err)}`],
            },
          ];
        }
        if (found.length) {
          const test = currentTest();
          sink.violations.push(...found.map((v) => ({ ...v, ...(test ? { test } : {}) })));
        }
      }
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.end;
  });
}

/**
 * Takes the violations recorded so far in this test file (those `match` accepts; all without it) off the
 * list. A test that provokes an undeclared answer on purpose (an injected bug) takes exactly that one, so
 * the suite's check still sees everything else.
 */
export function takeViolations(match?: (v: Violation) => boolean): (Violation & { test?: string })[] {
  const list = store().violations;
  if (!match) return list.splice(0);
  const taken = list.filter((v) => match(v));
  const kept = list.filter((v) => !match(v));
  list.splice(0, list.length, ...kept);
  return taken;
}

/** The declared responses (`operationId status`) this test file's requests got so far. */
export function coveredResponses(): string[] {
  return [...store().covered].sort();
}

/** Violations, deduplicated (same operation, status and problems), with how often and in which tests. */
export function formatViolations(violations: (Violation & { test?: string })[]): string {
  const groups = new Map<string, { v: Violation; paths: Set<string>; tests: Set<string>; count: number }>();
  for (const v of violations) {
    const key = `${v.method} ${v.operation ?? v.path} ${v.status}\n${v.problems.join('\n')}`;
    const g = groups.get(key) ?? { v, paths: new Set(), tests: new Set(), count: 0 };
    g.count++;
    g.paths.add(v.path);
    if (v.test) g.tests.add(v.test);
    groups.set(key, g);
  }
  const blocks = [...groups.values()].map(({ v, paths, tests, count }) => {
    const where = v.operation ? `${v.operation} (${v.method} ${[...paths][0]})` : `${v.method} ${v.path}`;
    const lines = [
      `${where} → ${v.status}${count > 1 ? ` (${count}×)` : ''}`,
      ...v.problems.map((p) => `    ${p}`),
    ];
    if (tests.size)
      lines.push(
        `    in: ${[...tests].slice(0, 3).join(' | ')}${tests.size > 3 ? ` (+${tests.size - 3})` : ''}`,
      );
    return lines.join('\n');
  });
  return (
    `${groups.size} response(s) the OpenAPI document does not declare ` +
    `(openapi/openapi.json; see test/utils/contract/):\n\n${blocks.join('\n\n')}`
  );
}
