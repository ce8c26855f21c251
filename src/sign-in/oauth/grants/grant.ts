import type { AuthenticatedClient } from '../client-auth.service.js';
import type { TokenResponse } from '../oauth-tokens.service.js';
import type { AuditOrigin } from '../../../delivery/audit/audit-origin.js';

export interface GrantHandler {
  readonly grantType: string;
  /** The form parameters this grant reads (beyond grant_type and client authentication). */
  readonly parameters: readonly string[];
  /**
   * `origin`: the token request (its id and client address), for the audit records of what the grant mints
   * and the webhook events of what it revokes (a replay).
   */
  handle(
    client: AuthenticatedClient,
    params: Record<string, string | undefined>,
    origin: AuditOrigin,
  ): Promise<TokenResponse>;
}

export const GRANT_HANDLERS = Symbol('GRANT_HANDLERS');
