import type { NextFunction, Request, Response } from 'express';
import { holdsAsciiLower, leavesRun } from './express-rules.js';

export type Middleware = (req: Request, res: Response, next: NextFunction) => unknown;

/**
 * Middlewares that every request passes through, run one after the other as one Express layer (issue 23):
 * for each layer of its own the router pays a match, a params step and its bookkeeping, about 1.5 kB of
 * allocation per request. The rules are Express's: a step that throws, rejects or calls `next(err)` ends the
 * sequence with that error (the router then runs only the error handlers); `next()` and `next('route')` go on
 * to the next step; once all have run, the router goes on to its next layer.
 */
export function inSequence(...steps: Middleware[]): Middleware {
  return (req, res, out) => {
    let i = 0;
    const next = (err?: unknown): void => {
      if (leavesRun(err)) return out(err);
      if (i === steps.length) return out();
      const step = steps[i++];
      try {
        const ran = step(req, res, next);
        if (ran instanceof Promise) ran.catch((e: unknown) => out(e ?? new Error('Rejected promise')));
      } catch (e) {
        out(e);
      }
    };
    next();
  };
}

/**
 * `step` for the requests whose path is `prefix` or lies under it, as `app.use(prefix, step)` would mount it
 * (ASCII case-insensitive, at a segment boundary), without a layer of its own. The request's URL is not cut
 * down to the part below the prefix: the step must not depend on it.
 */
export function underPath(prefix: string, step: Middleware): Middleware {
  const lower = prefix.toLowerCase();
  return (req, res, next) => (isUnder(req.path, lower) ? step(req, res, next) : next());
}

function isUnder(path: string, lowerPrefix: string): boolean {
  const n = lowerPrefix.length;
  // the prefix, then the path's end or a '/'
  return holdsAsciiLower(path, 0, lowerPrefix) && (path.length === n || path.charCodeAt(n) === 47);
}
