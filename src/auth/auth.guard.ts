import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  Logger,
  Optional,
} from '@nestjs/common';
import { AuthErrors } from '../base/common/auth/auth.errors.js';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { allowOrigin } from '../base/common/http/cors.js';
import { ApiError } from '../base/common/errors/api-error.js';
import { RateLimiter } from '../base/common/rate-limit/rate-limiter.js';
import { AccessService } from '../base/common/auth/access.service.js';
import { Authenticator } from './authenticator.js';
import {
  AUTH_OPTIONS,
  type AuthenticatedOptions,
  IS_PUBLIC,
  type PublicBudget,
} from '../base/common/auth/authenticated.decorator.js';
import { AclStep } from './guard/acl.step.js';
import { AccountChangeStep } from './guard/account-change.step.js';
import { Clock } from '../base/common/clock.js';
import { APP_CONFIG, type BaseConfig } from '../base/config/config.js';
import { CredentialKindStep } from './guard/credential-kind.step.js';
import type { GuardStep } from './guard/guard-step.js';
import { RateLimitStep } from './guard/rate-limit.step.js';
import { RolesScopesStep } from './guard/roles-scopes.step.js';
import { TenantStatusStep } from './guard/tenant-status.step.js';
import { Metrics } from '../base/common/metrics/metrics.service.js';

/** What a route declares: a public budget (`@Public`), or who may call it (`@Authenticated`), or neither. */
interface Declared {
  budget: PublicBudget | undefined;
  policy: AuthenticatedOptions | undefined;
}

/**
 * The one guard, deny by default. Public routes pass; routes that declare nothing are refused. Otherwise:
 * authentication (the Authenticator: the header source the request presents, read and verified by the one
 * passport-jwt strategy, and the token
 * lookup), then the steps below, in this order, each in its own file under guard/ with its own unit tests.
 * A feature adds a check as a step here, never inside a controller.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger(AuthGuard.name);
  private readonly steps: readonly GuardStep[];

  constructor(
    private readonly reflector: Reflector,
    access: AccessService,
    private readonly limiter: RateLimiter,
    clock: Clock,
    @Inject(APP_CONFIG) config: BaseConfig,
    private readonly authenticator: Authenticator,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.steps = [
      new RateLimitStep(limiter),
      new CredentialKindStep(),
      new AccountChangeStep(() => clock.now(), config.auth.reauthWindowSeconds),
      new TenantStatusStep(),
      new RolesScopesStep(),
      new AclStep(access),
    ];
  }

  /**
   * Each route's declared policy, read once from its decorators (handler first, then class): metadata is
   * fixed once the application is built, and the reflector's lookups were per request. Keyed by class, then
   * handler: controllers sharing an inherited handler may declare different class-level policies.
   */
  private readonly declared = new WeakMap<object, WeakMap<object, Declared>>();

  private declaredFor(context: ExecutionContext): Declared {
    const handler = context.getHandler();
    const cls = context.getClass();
    let byHandler = this.declared.get(cls);
    if (!byHandler) this.declared.set(cls, (byHandler = new WeakMap()));
    let found = byHandler.get(handler);
    if (!found) {
      const targets = [handler, cls];
      found = {
        budget: this.reflector.getAllAndOverride<PublicBudget | undefined>(IS_PUBLIC, targets),
        policy: this.reflector.getAllAndOverride<AuthenticatedOptions | undefined>(AUTH_OPTIONS, targets),
      };
      byHandler.set(handler, found);
    }
    return found;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // the arguments themselves: switchToHttp() builds three closures per call
    const req = context.getArgByIndex<Request>(0);
    const res = context.getArgByIndex<Response>(1);
    const { budget, policy } = this.declaredFor(context);
    if (budget) {
      // no verified caller: the client's address pays, from the route's own budget
      await this.limiter.enforce(budget, this.limiter.addressKey(req), res);
      return true;
    }
    if (!policy) {
      this.logger.error(
        `Route ${context.getClass().name}.${context.getHandler().name} declares no access policy`,
      );
      throw AuthErrors.NO_POLICY();
    }
    let auth;
    try {
      // a failure that is no verdict on the credential (the database down, a bug) is thrown on as it is: the
      // filter answers 503 (or a logged 500), never a 401, which would tell clients to sign their users out
      auth = req.auth = await this.authenticator.fromHeaders(req);
      this.metrics?.tokenValidation(true);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) this.metrics?.tokenValidation(false);
      // a failed authentication is charged to the address: guessing tokens costs like any anonymous call
      if (e instanceof ApiError && e.status === 401) {
        await this.limiter.enforce('anonymous', this.limiter.addressKey(req), res);
      }
      throw e;
    }
    allowOrigin(req, res, auth.app);
    const ctx = { req, res, policy, auth };
    for (const step of this.steps) {
      // most steps are synchronous: no microtask per step on every request
      const pending = step.run(ctx);
      if (pending) await pending;
    }
    return true;
  }
}
