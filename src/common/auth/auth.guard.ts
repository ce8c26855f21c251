import { type ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { allowOrigin } from '../http/cors.js';
import { ApiError } from '../errors/api-error.js';
import { isUuid } from '../http/uuid-param.pipe.js';
import { AccessService } from './access.service.js';
import type { AuthContext } from './auth-context.js';
import { AUTH_OPTIONS, type AuthenticatedOptions, IS_PUBLIC } from './authenticated.decorator.js';
import { assertRoles } from './assert-roles.js';
import { rolesAllowedByScopes } from './scopes.js';

/**
 * The one guard, deny by default. In order: public routes pass; routes that declare nothing are refused;
 * then authentication (passport-jwt + token lookup), administrator flags, roles, OAuth scopes (tokens of
 * OAuth apps: the scopes must bundle every role the route needs), and the ACL of the entity the route names.
 */
@Injectable()
export class AuthGuard extends PassportAuthGuard('jwt') {
  private readonly logger = new Logger(AuthGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const options = this.reflector.getAllAndOverride<AuthenticatedOptions | undefined>(AUTH_OPTIONS, targets);
    if (!options) {
      this.logger.error(
        `Route ${context.getClass().name}.${context.getHandler().name} declares no access policy`,
      );
      throw ApiError.forbidden('This route declares no access policy');
    }
    await super.canActivate(context);
    const req = context.switchToHttp().getRequest<Request>();
    const auth = req.auth as AuthContext;
    allowOrigin(req, context.switchToHttp().getResponse<Response>(), auth.app);
    this.authorize(auth, options);
    if (options.access) {
      const { entity, param } = options.access;
      const id = req.params[param];
      // guards run before pipes: a malformed id is the client's mistake (400), not an unknown entity (404)
      if (!isUuid(id)) throw ApiError.badRequest({ [param]: 'must be a UUID' });
      await this.access.require(auth, entity, [id]);
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
      if (name === 'TokenExpiredError') throw ApiError.unauthorized('Token has expired');
      if (message === 'No auth token')
        throw ApiError.unauthorized('Authentication credentials were not provided');
      throw ApiError.unauthorized('Invalid token');
    }
    context.switchToHttp().getRequest<Request>().auth = user as unknown as AuthContext;
    return user;
  }

  private authorize(auth: AuthContext, options: AuthenticatedOptions): void {
    if (options.superAdmin && !auth.isSuperAdmin) throw ApiError.forbidden('Requires a super administrator');
    if (options.admin && !auth.isAdmin) throw ApiError.forbidden('Requires an administrator');
    const roles = options.roles ?? [];
    assertRoles(auth, roles);
    if (auth.kind === 'OAUTH' && rolesAllowedByScopes(auth.scopes ?? []) !== null) {
      const absent = (options.scopes ?? []).filter((s) => !(auth.scopes ?? []).includes(s));
      if (absent.length > 0) throw ApiError.forbidden(`Missing scope: ${absent.join(', ')}`);
      if (roles.length === 0 && !options.anyScope) {
        throw ApiError.forbidden('This route needs the user_impersonation scope');
      }
    }
  }
}
