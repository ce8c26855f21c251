import { type ExecutionContext, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { AuthErrors } from './auth.errors.js';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { allowOrigin } from '../http/cors.js';
import { ApiError } from '../errors/api-error.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { AccessService } from './access.service.js';
import type { AuthContext } from './auth-context.js';
import {
  AUTH_OPTIONS,
  type AuthenticatedOptions,
  IS_PUBLIC,
  type PublicBudget,
} from './authenticated.decorator.js';
import { AclStep } from './guard/acl.step.js';
import { AccountChangeStep } from './guard/account-change.step.js';
import { Clock } from '../clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { CredentialKindStep } from './guard/credential-kind.step.js';
import type { GuardStep } from './guard/guard-step.js';
import { RateLimitStep } from './guard/rate-limit.step.js';
import { RolesScopesStep } from './guard/roles-scopes.step.js';
import { TenantStatusStep } from './guard/tenant-status.step.js';
import { Metrics } from '../../metrics/metrics.service.js';

/**
 * The one guard, deny by default. Public routes pass; routes that declare nothing are refused. Otherwise:
 * authentication (passport-jwt + the token lookup, in `super.canActivate`), then the steps below, in this
 * order, each in its own file under guard/ with its own unit tests. A feature adds a check as a step here,
 * never inside a controller.
 */
@Injectable()
export class AuthGuard extends PassportAuthGuard('jwt') {
  private readonly logger = new Logger(AuthGuard.name);
  private readonly steps: readonly GuardStep[];

  constructor(
    private readonly reflector: Reflector,
    access: AccessService,
    private readonly limiter: RateLimiter,
    clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {
    super();
    this.steps = [
      new RateLimitStep(limiter),
      new CredentialKindStep(),
      new AccountChangeStep(() => clock.now(), config.auth.reauthWindowSeconds),
      new TenantStatusStep(),
      new RolesScopesStep(),
      new AclStep(access),
    ];
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const budget = this.reflector.getAllAndOverride<PublicBudget | undefined>(IS_PUBLIC, targets);
    if (budget) {
      // no verified caller: the client's address pays, from the route's own budget
      await this.limiter.enforce(budget, this.limiter.addressKey(req), res);
      return true;
    }
    const policy = this.reflector.getAllAndOverride<AuthenticatedOptions | undefined>(AUTH_OPTIONS, targets);
    if (!policy) {
      this.logger.error(
        `Route ${context.getClass().name}.${context.getHandler().name} declares no access policy`,
      );
      throw AuthErrors.NO_POLICY();
    }
    try {
      await super.canActivate(context);
      this.metrics?.tokenValidation(true);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) this.metrics?.tokenValidation(false);
      // a failed authentication is charged to the address: guessing tokens costs like any anonymous call
      if (e instanceof ApiError && e.status === 401) {
        await this.limiter.enforce('anonymous', this.limiter.addressKey(req), res);
      }
      throw e;
    }
    const auth = req.auth as AuthContext;
    allowOrigin(req, res, auth.app);
    const ctx = { req, res, policy, auth };
    for (const step of this.steps) {
      // most steps are synchronous: no microtask per step on every request
      const pending = step.run(ctx);
      if (pending) await pending;
    }
    return true;
  }

  /**
   * Passport hands us the lookup result; we keep it on `req.auth`. A credential that fails verification is a
   * 401. An error thrown by the lookup that is not one of our ApiErrors (the database is down, a bug) is the
   * server's fault and goes on to the filter as a 500: a 401 would tell clients to sign their users out.
   */
  override handleRequest<T>(err: unknown, user: T, info: unknown, context: ExecutionContext): T {
    if (err) throw err;
    if (!user) {
      const name = (info as { name?: string; message?: string } | undefined)?.name;
      const message = (info as { message?: string } | undefined)?.message;
      if (name === 'TokenExpiredError') throw AuthErrors.TOKEN_EXPIRED();
      if (message === 'No auth token') throw AuthErrors.NO_CREDENTIALS();
      throw AuthErrors.INVALID_TOKEN();
    }
    context.switchToHttp().getRequest<Request>().auth = user as unknown as AuthContext;
    return user;
  }
}
