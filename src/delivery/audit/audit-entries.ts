import type { EntityManager } from 'typeorm';
import { AuditRepository } from './audit.repository.js';
import type { AuditEntry } from './audit.service.js';

/** The record of a revoked token: its kind, never its value or hash. */
export function tokenRevoked(t: { id: string; system_domain_id: string; kind: string }): AuditEntry {
  return {
    systemDomainId: t.system_domain_id,
    action: 'token.revoked',
    targetType: 'token',
    targetId: t.id,
    outcome: 'success',
    details: { kind: t.kind },
  };
}

/** The record of a minted token (not sign-ins: `signin.success` names those): kind, app and expiry only. */
export function tokenMinted(r: {
  id: string;
  system_domain_id: string;
  kind: string;
  app_id: string;
  user_id: string;
  expires: Date;
}): AuditEntry {
  return {
    systemDomainId: r.system_domain_id,
    action: 'token.minted',
    targetType: 'token',
    targetId: r.id,
    outcome: 'success',
    details: { kind: r.kind, app_id: r.app_id, user_id: r.user_id, expires: r.expires.toISOString() },
  };
}

/** A sign-in: the login token given (its id names it; never its value), or the temporary one while a factor is owed. */
export function signInEntry(
  r: {
    id: string;
    system_domain_id: string;
    user_id: string;
    is_mfa_authenticated: boolean;
    vouched_by_tenant?: boolean;
  },
  action: 'signin.success' | 'signin.second_factor_owed',
  how: { method: string },
): AuditEntry {
  return {
    systemDomainId: r.system_domain_id,
    action,
    targetType: 'user',
    targetId: r.user_id,
    outcome: 'success',
    details: {
      credential_id: r.id,
      second_factor: r.is_mfa_authenticated,
      method: how.method,
      vouched_by: r.vouched_by_tenant ? 'tenant' : 'service',
    },
  };
}

/**
 * A password set through a reset (mailed link or the admin command), in the account's home domain (read in
 * the reset's transaction `em`, through a repository made over its connection).
 */
export async function passwordReset(em: EntityManager, userId: string): Promise<AuditEntry> {
  return {
    systemDomainId: await new AuditRepository(em.connection).homeDomainOf(em, userId),
    action: 'password.reset',
    targetType: 'user',
    targetId: userId,
    outcome: 'success',
  };
}
