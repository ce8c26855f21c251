import type { AuthenticatedClient } from '../client-auth.service.js';
import type { TokenResponse } from '../oauth-tokens.service.js';

export interface GrantHandler {
  readonly grantType: string;
  /** The form parameters this grant reads (beyond grant_type and client authentication). */
  readonly parameters: readonly string[];
  /** `requestId`: the token request's id, for the webhook events of what the grant revokes (a replay). */
  handle(
    client: AuthenticatedClient,
    params: Record<string, string | undefined>,
    requestId: string | null,
  ): Promise<TokenResponse>;
}

export const GRANT_HANDLERS = Symbol('GRANT_HANDLERS');
