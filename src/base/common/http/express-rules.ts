/**
 * Two rules of Express 5's router that the front middleware (in-sequence.ts) and the route index
 * (route-index.ts) follow where they stand in for it.
 */

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
