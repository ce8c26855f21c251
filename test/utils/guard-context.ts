import type { Request, Response } from 'express';
import type { AuthContext } from '../../src/base/common/auth/auth-context.js';
import type { AuthenticatedOptions } from '../../src/base/common/auth/authenticated.decorator.js';
import type { GuardContext } from '../../src/auth/guard/guard-step.js';
import { effectiveRoles } from '../../src/base/common/auth/roles.js';

/** A guard context for unit tests of the guard's steps: a plain user with no roles unless told. */
export function guardContext(
  o: {
    auth?: Partial<AuthContext>;
    policy?: AuthenticatedOptions;
    params?: Record<string, string>;
    roles?: string[];
    method?: string;
  } = {},
): GuardContext {
  const auth = {
    tokenId: 't',
    appId: 'a',
    userId: 'u',
    systemDomainId: 'd',
    kind: 'LOGIN',
    scopes: null,
    roles: effectiveRoles({ is_admin: false, is_super_admin: false }, o.roles ?? []),
    isAdmin: false,
    isSuperAdmin: false,
    rightsCap: null,
    domain: { status: 'ACTIVE' },
    requestId: 'r',
    ...o.auth,
  } as AuthContext;
  return {
    req: { params: o.params ?? {}, method: o.method ?? 'GET' } as unknown as Request,
    res: {} as Response,
    policy: o.policy ?? {},
    auth,
  };
}
