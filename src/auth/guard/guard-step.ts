import type { Request, Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AuthenticatedOptions } from '../../base/common/auth/authenticated.decorator.js';

/** What every step of the guard sees: the request, the route's declared policy and the authenticated caller. */
export interface GuardContext {
  req: Request;
  res: Response;
  policy: AuthenticatedOptions;
  auth: AuthContext;
}

/**
 * One check of the guard. Steps run in a fixed order after authentication (see AuthGuard); a step refuses by
 * throwing an ApiError and passes by returning.
 */
export interface GuardStep {
  readonly name: string;
  run(ctx: GuardContext): void | Promise<void>;
}
