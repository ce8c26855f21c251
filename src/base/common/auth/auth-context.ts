import type { TokenEntity, TokenKind } from '../../model/token.entity.js';
import type { UserEntity } from '../../model/user.entity.js';
import type { SystemDomainEntity } from '../../model/system-domain.entity.js';
import type { Role } from './roles.js';

/** Who is calling: built by the guard from the looked-up token record, attached as `req.auth`. */
export interface AuthContext {
  tokenId: string;
  appId: string;
  userId: string;
  systemDomainId: string;
  kind: TokenKind;
  /** OAuth tokens: granted scopes; null for PAT and login tokens. */
  scopes: string[] | null;
  /** The user's roles in this domain, cut down to the token's ceiling. */
  roles: Set<Role>;
  isAdmin: boolean;
  isSuperAdmin: boolean;
  /** The token's ceiling: set for tokens minted for an app, null for the user's own sign-in (see rights.ts). */
  rightsCap: readonly string[] | null;
  user: UserEntity;
  domain: SystemDomainEntity;
  expires: Date;
  /** The token's record as looked up for this request. */
  record: TokenEntity;
  /** Ids of every domain the user belongs to. */
  systemDomains: string[];
  /**
   * For a session a tenant's authenticator vouched for (`record.vouched_by_tenant`): that tenant owns the
   * account now (no super administrator, no membership in another domain, deactivated ones included), read
   * by the token lookup at each request. False otherwise.
   */
  tenantOwnsAccount: boolean;
  /** What CORS needs of the token's app: browser apps answer their own origins only. */
  app: { oauth_client_type: string | null; allowed_origins: string[] };
  /**
   * The id of the request this context was built for (`req.id`, given by the request logger): changes made
   * for the caller record it with their webhook events.
   */
  requestId: string;
  /** The client's address (`req.ip`, trust proxy applied), set by the JWT strategy: audit records name it. */
  clientAddress?: string | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AuthContext;
    id?: string;
  }
}
