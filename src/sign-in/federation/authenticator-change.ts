import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { FeatureRepository } from '../../base/database/feature-repository.js';
import type { AuditService } from '../../delivery/audit/audit.service.js';

/** What a tenant's authenticator is, as its audit records name it (`<kind>.changed`). */
export type AuthenticatorKind = 'directory' | 'oidc_provider' | 'identity_provider';

/**
 * A change to one of the caller's domain's authenticators and its audit record, in one transaction: `work`
 * makes the change and answers the row it changed; the record (`<kind>.changed`, which fans out to webhooks)
 * names the row and the operation, never the values.
 */
export function auditedChange<R extends { id: string }>(
  repo: Pick<FeatureRepository, 'transaction'>,
  audit: AuditService,
  auth: AuthContext,
  kind: AuthenticatorKind,
  operation: 'create' | 'update' | 'delete',
  work: (em: EntityManager) => Promise<R>,
): Promise<R> {
  return repo.transaction(async (em) => {
    const row = await work(em);
    await audit.change(em, auth, `${kind}.changed`, { type: kind, id: row.id }, { operation });
    return row;
  });
}
