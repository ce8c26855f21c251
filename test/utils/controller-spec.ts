import 'reflect-metadata';
import type { INestApplication, Provider, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import express, { type Request } from 'express';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { AccessRepository } from '../../src/base/common/auth/access.repository.js';
import { AccessService } from '../../src/base/common/auth/access.service.js';
import type { AuthContext } from '../../src/base/common/auth/auth-context.js';
import { AuthErrors } from '../../src/base/common/auth/auth.errors.js';
import { AuthGuard } from '../../src/auth/auth.guard.js';
import { Authenticator } from '../../src/auth/authenticator.js';
import { applyCap } from '../../src/base/common/auth/rights.js';
import { effectiveRoles, type Role } from '../../src/base/common/auth/roles.js';
import { Clock } from '../../src/base/common/clock.js';
import type { ApiError } from '../../src/base/common/errors/api-error.js';
import { ApiExceptionFilter } from '../../src/base/common/filters/api-exception.filter.js';
import { RateLimiter } from '../../src/base/common/rate-limit/rate-limiter.js';
import { globalPipes } from '../../src/base/common/validation/global-pipes.js';
import { APP_CONFIG } from '../../src/base/config/config.js';
import { provideConfig } from '../../src/base/config/namespace.js';
import { FEATURE_CONFIGS, loadConfig } from '../../src/app/config.js';
import type { TokenKind } from '../../src/base/model/token.entity.js';

/** The caller's domain, and another tenant's (for the ACL's cross-tenant 404). */
export const DOMAIN = '0d0d0d0d-0000-4000-8000-000000000001';
export const OTHER_DOMAIN = '0d0d0d0d-0000-4000-8000-000000000002';
/** A well-formed id that no entity has. */
export const UNKNOWN_ID = '0e0e0e0e-0000-4000-8000-00000000ffff';

/** Who a fake caller is: a LOGIN token of a plain user in DOMAIN, unless told. */
export interface CallerSpec {
  kind?: TokenKind;
  domain?: string;
  admin?: boolean;
  superAdmin?: boolean;
  /** Roles from the caller's groups (administrators hold every domain role anyway). */
  roles?: Role[];
  /** OAuth tokens: the granted scopes. */
  scopes?: string[];
  /** The token's ceiling (rights.ts): the caller's rights are cut to it, as the token lookup does. */
  cap?: string[];
  status?: 'ACTIVE' | 'WARNING' | 'FROZEN' | 'DEACTIVATED';
  userId?: string;
}

/**
 * The callers every spec has (`Authorization: Bearer <name>`): `user` (no roles), `admin` (domain
 * administrator), `super` (super administrator), `otherAdmin` (an administrator of OTHER_DOMAIN), `oauth` (an
 * OAuth token of the administrator with `assets:read` only), `impersonation` (the administrator's OAuth token
 * with user_impersonation), `pat` (the administrator's PAT capped to a plain user's rights), `temp` (the
 * temporary sign-in token).
 */
export const DEFAULT_CALLERS = {
  user: {},
  admin: { admin: true },
  super: { superAdmin: true, admin: true },
  otherAdmin: { admin: true, domain: OTHER_DOMAIN },
  oauth: { kind: 'OAUTH', admin: true, scopes: ['assets:read'] },
  impersonation: { kind: 'OAUTH', admin: true, scopes: ['user_impersonation'] },
  pat: { kind: 'PAT', admin: true, cap: [] },
  temp: { kind: 'TEMP' },
} satisfies Record<string, CallerSpec>;

let serial = 0;

/** An AuthContext as the token lookup builds it (the rights cut to the token's ceiling). */
export function fakeAuth(name: string, o: CallerSpec): AuthContext {
  serial++;
  const userId = o.userId ?? `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`;
  const domain = o.domain ?? DOMAIN;
  const isSuperAdmin = o.superAdmin ?? false;
  const isAdmin = (o.admin ?? false) || isSuperAdmin;
  const rights = applyCap(
    {
      isSuperAdmin,
      isAdmin,
      roles: effectiveRoles({ is_admin: isAdmin, is_super_admin: isSuperAdmin }, o.roles ?? []),
    },
    o.cap ?? null,
  );
  return {
    tokenId: `token-${name}`,
    appId: 'app',
    userId,
    systemDomainId: domain,
    kind: o.kind ?? 'LOGIN',
    scopes: o.kind === 'OAUTH' ? (o.scopes ?? []) : null,
    roles: new Set(rights.roles),
    isAdmin: rights.isAdmin,
    isSuperAdmin: rights.isSuperAdmin,
    rightsCap: o.cap ?? null,
    user: { id: userId, system_domain_id: domain } as AuthContext['user'],
    domain: { id: domain, status: o.status ?? 'ACTIVE' } as AuthContext['domain'],
    expires: new Date(Date.now() + 3600_000),
    record: {
      id: `token-${name}`,
      auth_time: new Date(),
      is_mfa_authenticated: false,
    } as AuthContext['record'],
    systemDomains: [domain],
    tenantOwnsAccount: false,
    app: { oauth_client_type: null, allowed_origins: [] },
    requestId: 'request',
  };
}

/**
 * An entity type for the guard's ACL step (AccessService), as its feature registers it: `label` for the 404
 * ("App not found") unless `notFound` gives the feature's own; `ids` exist in DOMAIN (another domain's
 * caller gets the 404), `otherIds` in OTHER_DOMAIN.
 */
export interface FakeEntity {
  label: string;
  ids: string[];
  otherIds?: string[];
  notFound?: () => ApiError;
  /** Owner-only entities (tokens): each id's owner, by caller name; others but administrators get the 404. */
  owners?: Record<string, string>;
}

export interface ControllerSpecOptions<C extends string> {
  controllers: Type[];
  providers?: Provider[];
  /** Callers beyond (or replacing) DEFAULT_CALLERS. */
  callers?: Record<C, CallerSpec>;
  /** The entities the routes' `access` names. */
  entities?: Record<string, FakeEntity>;
}

export interface ControllerSpec<C extends string> {
  app: INestApplication;
  /** supertest over the app. */
  http: TestAgent;
  /** The header that authenticates as `name`. */
  as(name: C | keyof typeof DEFAULT_CALLERS): Record<string, string>;
  /** The AuthContext the guard hands the controller for `name` (the same object on every request). */
  callers: Record<C | keyof typeof DEFAULT_CALLERS, AuthContext>;
  close(): Promise<void>;
}

/**
 * One controller over faked services, with what the HTTP layer really does: the real AuthGuard and every
 * step of it (credential kind, account change, tenant status, roles and scopes, ACL through the real
 * AccessService), the real global pipes (`globalPipes()`: HostileInputPipe, then ValidationPipe with
 * createApp's options), the real ApiExceptionFilter, and Express's JSON and form body parsers as createApp
 * mounts them. Faked: who the caller is (a fake Authenticator: `Authorization: Bearer <name>` is the caller
 * of that name; no header is NO_CREDENTIALS, an unknown name INVALID_TOKEN), the entities the ACL finds
 * (`entities`, instead of the feature's SQL), and whatever the spec passes in `providers`. Rate limiting is
 * the real RateLimiter on its in-memory buckets (no Redis in the config), so every answer carries
 * RateLimit-Remaining. No database: a spec runs in milliseconds once the module graph is loaded.
 */
export async function controllerSpec<C extends string = never>(
  o: ControllerSpecOptions<C>,
): Promise<ControllerSpec<C>> {
  const specs: Record<string, CallerSpec> = { ...DEFAULT_CALLERS, ...o.callers };
  const callers = Object.fromEntries(
    Object.entries(specs).map(([name, s]) => [name, fakeAuth(name, s)]),
  ) as Record<C | keyof typeof DEFAULT_CALLERS, AuthContext>;
  const authenticator = {
    fromHeaders(req: Request): Promise<AuthContext> {
      const header = req.headers.authorization;
      if (!header) return Promise.reject(AuthErrors.NO_CREDENTIALS());
      const name = /^Bearer (.+)$/.exec(header)?.[1] ?? '';
      const auth = (callers as Record<string, AuthContext>)[name];
      return auth ? Promise.resolve(auth) : Promise.reject(AuthErrors.INVALID_TOKEN());
    },
  };
  const config = loadConfig({
    DATA_DIR: 'memory://',
    KEY_ENCRYPTION_SECRET: 'controller-spec-key-encryption-secret-0123',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_NAMESPACE: `controller-spec-${++serial}`,
  });
  const moduleRef = await Test.createTestingModule({
    controllers: o.controllers,
    providers: [
      { provide: APP_CONFIG, useValue: config },
      // each feature's namespace, as its module registers it
      ...FEATURE_CONFIGS.map(provideConfig),
      { provide: Authenticator, useValue: authenticator },
      { provide: AccessRepository, useValue: {} },
      AccessService,
      RateLimiter,
      Clock,
      { provide: APP_GUARD, useClass: AuthGuard },
      { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ...(o.providers ?? []),
    ],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
  app.use(express.urlencoded({ extended: false }), express.json());
  app.useGlobalPipes(...globalPipes());
  const access = app.get(AccessService);
  for (const [entity, e] of Object.entries(o.entities ?? {})) {
    access.register(entity, {
      label: e.label,
      notFound: e.notFound,
      ownerOnly: e.owners !== undefined,
      find: (auth, ids) =>
        Promise.resolve(
          ids
            .filter((id) =>
              (auth.systemDomainId === DOMAIN
                ? e.ids
                : auth.systemDomainId === OTHER_DOMAIN
                  ? (e.otherIds ?? [])
                  : []
              ).includes(id),
            )
            .map((id) => {
              const owner = e.owners?.[id];
              return { id, owner_id: owner && (callers as Record<string, AuthContext>)[owner]?.userId };
            }),
        ),
    });
  }
  await app.init();
  return {
    app,
    http: request(app.getHttpServer()),
    as: (name) => ({ Authorization: `Bearer ${name}` }),
    callers,
    close: () => app.close(),
  };
}
