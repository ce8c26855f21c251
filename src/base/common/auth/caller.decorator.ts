import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthContext } from './auth-context.js';

/**
 * The caller as the guard authenticated it, for routes declared `@Authenticated`: a typed parameter instead
 * of reading `req.auth` and casting. On a route without a credential it is a programming error, not a 401.
 */
export const Caller = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<Request>().auth;
  if (!auth) throw new Error('@Caller() used on a route the guard did not authenticate');
  return auth;
});
