import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { RightsCap } from '../../base/common/auth/rights.js';
import { Batcher } from '../../base/common/batcher.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { SigningKeysService } from '../../base/keys/signing-keys.service.js';
import { TokenEntity, type TokenKind } from '../../base/model/token.entity.js';
import { CredentialsRepository } from './credentials.repository.js';
import type { AuditOrigin } from '../../delivery/audit/audit-origin.js';
import type { AuditRecord } from '../../delivery/audit/audit-record-sql.js';
import { AuditService, type AuditEntry } from '../../delivery/audit/audit.service.js';

export interface IssueTokenInput {
  userId: string;
  appId: string;
  systemDomainId: string;
  kind: TokenKind;
  expires: Date;
  scopes?: string[] | null;
  mfa?: boolean;
  grantId?: string | null;
  /**
   * The ceiling of the token's rights (see common/auth/rights.ts): set for every token minted for an app
   * (PAT, client_credentials, external auth); null for a user's own sign-in and for authorizations the user
   * consented to, which carry the user's rights as they are at each request.
   */
  rightsCap?: RightsCap | null;
  /**
   * Issue only if the user is active and a member of the domain, and the domain is not deactivated, checked
   * by the INSERT itself (OAuth grants: the request guard would refuse the token anyway). Otherwise the
   * issue fails with InactiveMemberError and nothing is stored.
   */
  requireMember?: boolean;
  /** When the person proved who they are (a sign-in, kept through renewals); null for app tokens. */
  authTime?: Date | null;
  /** A tenant's authenticator vouched for the sign-in (SignInAuthority; kept through renewals). */
  tenantVouched?: boolean;
  /** How the person signed in, where the authority said (OpenID Connect `amr`; kept through renewals). */
  amr?: string[] | null;
  /**
   * A sign-in's own writes, stored with the token when it is stored with an audit record (SignInService):
   * `clearFactor`, the guessing defence's count of the factor that just succeeded, forgotten (GuessingDefence's
   * deferred clear); `touchLastLogin`, the user's `last_login` set to now.
   */
  signInWrites?: SignInWrites;
}

export interface SignInWrites {
  clearFactor?: string | null;
  touchLastLogin?: boolean;
}

/** The user a token was to be issued to may not act in the domain (see IssueTokenInput.requireMember). */
export class InactiveMemberError extends Error {
  constructor() {
    super('The user is not an active member of the domain');
  }
}

/**
 * The token generator: signs a JWT and stores its record (hash only). Private to the credentials module:
 * every token is minted through CredentialMintService, which decides whose rights it may carry (an
 * architecture test holds every other file to that).
 */
@Injectable()
export class TokenIssuer {
  constructor(
    private readonly keys: SigningKeysService,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly repo: CredentialsRepository,
    private readonly audit: AuditService,
  ) {}

  private readonly inserts = new Batcher<Issue, Stamps | undefined>((items) =>
    this.store(items, this.repo.manager),
  );

  /**
   * Signs a JWT and stores its record (hash only), with `audit`'s record about it in the same statement (so
   * both commit or neither does). Pass `em` to issue inside a caller's transaction.
   */
  async issue(
    input: IssueTokenInput,
    em: EntityManager = this.repo.manager,
    audit?: MintAudit,
  ): Promise<{ token: string; record: TokenEntity }> {
    // a sign-in's writes ride only on the audited statement (every sign-in token has its record)
    if (input.signInWrites && !audit) throw new Error('signInWrites need the mint audit record');
    const signed = await this.sign(input);
    const item: Issue = {
      row: signed.row,
      audit: audit && this.audit.prepare(audit.origin, audit.entry(signed.row)),
    };
    // outside a caller's transaction, concurrent issues share one INSERT and one commit (group commit)
    const stamps =
      em === this.repo.manager ? await this.inserts.add(item) : (await this.store([item], em))[0];
    if (!stamps) throw new InactiveMemberError();
    return { token: signed.token, record: signed.record(stamps) };
  }

  /** One statement for the rows and their records; the records of the rows stored are reported written. */
  private async store(items: Issue[], em: EntityManager): Promise<(Stamps | undefined)[]> {
    const audits = items.flatMap((i) => (i.audit ? [{ tokenId: i.row.id, record: i.audit }] : []));
    const { stamps, deliveries } = await this.repo.insertTokens(
      items.map((i) => i.row),
      audits,
      em === this.repo.manager ? undefined : em,
    );
    if (audits.length > 0)
      this.audit.recorded(
        em,
        items.flatMap((i, n) => (i.audit && stamps[n] ? [i.audit] : [])),
        deliveries,
      );
    return stamps;
  }

  /**
   * An OpenID Connect id_token: a signed statement about a sign-in for one client, with the service as `iss`.
   * No record: it is no credential, and the request guard refuses it (no token id to look up).
   */
  signStatement(claims: Record<string, unknown>, expires: Date): Promise<string> {
    return this.keys.sign({ ...claims, iss: this.config.http.publicBaseUrl }, expires);
  }

  /**
   * The JWT and the row that will record it (hash only), not yet stored: for a statement that stores the
   * row together with other changes (the refresh rotation). `record` builds the entity once stored.
   */
  async sign(input: IssueTokenInput): Promise<SignedToken> {
    const id = randomUUID();
    // the contract's claims, plus the standard ones other services check (RFC 9068 for OAuth tokens)
    const claims: Record<string, unknown> = {
      id,
      app_id: input.appId,
      sys: input.systemDomainId,
      user_id: input.userId,
      iss: this.config.http.publicBaseUrl,
      sub: input.userId,
    };
    if (input.kind === 'OAUTH') {
      claims.client_id = input.appId;
      claims.scope = (input.scopes ?? []).join(' ');
    }
    const jwt = await this.keys.sign(claims, input.expires);
    const values = {
      id,
      user_id: input.userId,
      app_id: input.appId,
      system_domain_id: input.systemDomainId,
      kind: input.kind,
      scopes: input.scopes ?? null,
      expires: input.expires,
      is_mfa_authenticated: input.mfa ?? false,
      grant_id: input.grantId ?? null,
      rights_cap: input.rightsCap ?? null,
      auth_time: input.authTime ?? null,
      vouched_by_tenant: input.tenantVouched ?? false,
      amr: input.amr ?? null,
    };
    return {
      token: jwt,
      row: {
        ...values,
        token_hash: sha256Hex(jwt),
        require_member: input.requireMember ?? false,
        clear_factor: input.signInWrites?.clearFactor ?? null,
        touch_last_login: input.signInWrites?.touchLastLogin ?? false,
      },
      record: (stamps) =>
        Object.assign(new TokenEntity(), values, {
          revoked_at: null,
          last_used_at: null,
          date_created: new Date(stamps.date_created),
          date_modified: new Date(stamps.date_modified),
        }),
    };
  }
}

/** The audit record to write with a token: who minted it, and the entry made from the token's row. */
export interface MintAudit {
  origin: AuditOrigin;
  entry: (row: TokenRow) => AuditEntry;
}

/** A token's row and its prepared audit record, if any, on their way into one statement. */
interface Issue {
  row: TokenRow;
  audit: AuditRecord | undefined;
}

/** A signed token and its row, not yet stored (TokenIssuer.sign). */
export interface SignedToken {
  token: string;
  row: TokenRow;
  record: (stamps: Stamps) => TokenEntity;
}

export type TokenRow = Omit<TokenEntity, 'revoked_at' | 'last_used_at' | 'date_created' | 'date_modified'> & {
  require_member: boolean;
  /** IssueTokenInput.signInWrites, written only by the audited statement (a sign-in always has its record). */
  clear_factor: string | null;
  touch_last_login: boolean;
};
export type Stamps = { date_created: Date | string; date_modified: Date | string };
