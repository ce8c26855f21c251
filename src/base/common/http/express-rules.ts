import { createRequire } from 'node:module';

/**
 * Two rules of Express 5's router that the front middleware (in-sequence.ts) and the route index
 * (route-index.ts) follow where they stand in for it.
 */

/**
 * The Express and router versions whose internals the route index reads (router 2.x `lib/layer.js`:
 * `match`, `handleRequest`; `lib/route.js`: `_handlesMethod`) and whose dispatch rules in-sequence.ts and the
 * index follow. `express-version.spec.ts` fails on any other installed version, so an upgrade is re-verified
 * (route-index.spec, in-sequence.spec, test/e2e/route-index.e2e-spec.ts) before this line changes; at run time
 * the index stands aside on any other router version (`installedRouterVerified`).
 */
export const VERIFIED_AGAINST = { express: '5.3.0', router: '2.3.0' } as const;

/** The versions of Express and of the router Express itself loads, as installed. */
export function installedVersions(): { express: string; router: string } {
  const fromApp = createRequire(import.meta.url);
  const fromExpress = createRequire(fromApp.resolve('express/package.json'));
  return {
    express: (fromApp('express/package.json') as { version: string }).version,
    router: (fromExpress('router/package.json') as { version: string }).version,
  };
}

/** Whether the installed router is the one the route index was verified against. */
export function installedRouterVerified(): boolean {
  return installedVersions().router === VERIFIED_AGAINST.router;
}

/**
 * Whether a handler's `next(arg)` leaves a run of handlers: an error or `'router'` does (the router then runs
 * only what handles errors, or leaves); nothing and `'route'` go on to the next handler.
 */
export const leavesRun = (arg: unknown): boolean => arg !== undefined && arg !== null && arg !== 'route';

/**
 * Whether `text` holds `lower` (lower-case ASCII) at `at`, with A–Z folded as Express's case-insensitive
 * matching folds them (a non-ASCII character never matches an ASCII one). Allocates nothing.
 */
export function holdsAsciiLower(text: string, at: number, lower: string): boolean {
  if (text.length < at + lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    let c = text.charCodeAt(at + i);
    if (c >= 65 && c <= 90) c += 32; // A-Z
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}
