import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import {
  capOf,
  DOMAIN_ADMIN_CAP,
  excess,
  intersectCaps,
  rightsOfCap,
  type RightsCap,
} from '../../base/common/auth/rights.js';
import { Clock } from '../../base/common/clock.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import { ActingRightsService } from '../tokens/acting-rights.service.js';
import type { TokenEntity } from '../../base/model/token.entity.js';
import { CredentialsErrors, AppCredentialErrors } from './credentials.errors.js';
import { newSecret } from './secret-generator.js';
import { TokenIssuer, type MintAudit, type SignInWrites } from './token-issuer.js';
import type { RefreshFacts } from './refresh-rotation.js';
import { CredentialsRepository } from './credentials.repository.js';
import { tokenMinted } from '../../delivery/audit/audit-entries.js';
import { fromAuth, OUTSIDE_REQUEST, type AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { AuditService } from '../../delivery/audit/audit.service.js';

/** Who a token minted for an app outside an authenticated request is for, from the request asking for it. */
function mintedBy(
  userId: string,
  appId: string,
  kind: string,
  from: AuditOrigin = OUTSIDE_REQUEST,
): AuditOrigin {
  return { ...from, actorUserId: userId, actorAppId: appId, actorKind: kind };
}

/** A grant's user may no longer act in the domain (OAuth tokens are minted only for active members). */
export { InactiveMemberError, type SignInWrites } from './token-issuer.js';

/** How long a refresh token lasts: sixty days; each use rotates it. */
export const REFRESH_TOKEN_TTL_SECONDS = 60 * 24 * 3600;

export interface Minted {
  token: string;
  record: TokenEntity;
}

/** What an app's credentials can yield: who it acts as and the ceiling recorded for that. */
export type AppCredentialSource = Pick<AppEntity, 'default_user_id' | 'acting_rights_cap'>;

/** The subject of an OAuth grant's tokens (authorization code, refresh, client credentials). */
export interface OAuthSubject {
  appId: string;
  userId: string;
  systemDomainId: string;
  scopes: string[];
  grantId: string | null;
  /** Ceiling of the access token's rights; absent for authorizations the user consented to. */
  rightsCap?: RightsCap | null;
  /** The authorization was approved by a sign-in that passed a second factor. */
  mfa?: boolean;
  /** The token request (its id and client address), for the audit record of the mint. */
  origin?: AuditOrigin;
}

/**
 * The one place credential material is made: every token (sign-in, renewal, PAT, OAuth access and refresh,
 * client credentials, external auth, SCIM) and every client secret. Each method states whose rights the credential
 * may carry and checks it here, so a route cannot forget the check: the credential invariant ("a caller can
 * only obtain a credential whose rights are within its own", docs/security.md) holds wherever credentials
 * are made, not route by route. The generators (TokenIssuer, secret-generator.ts) are private to this
 * module; test/e2e/architecture.e2e-spec.ts fails when any other file reaches them.
 */
@Injectable()
export class CredentialMintService {
  constructor(
    private readonly repo: CredentialsRepository,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly issuer: TokenIssuer,
    private readonly rights: ActingRightsService,
    private readonly clock: Clock,
    private readonly audit: AuditService,
  ) {}

  /**
   * A person's own sign-in token (LOGIN), or the temporary one (TEMP) while a second factor is owed. No
   * ceiling: the flow that calls this verified the person (password, link, code, assertion).
   */
  signIn(
    em: EntityManager,
    s: {
      userId: string;
      appId: string;
      systemDomainId: string;
      kind: 'LOGIN' | 'TEMP';
      mfa?: boolean;
      /** A tenant's authenticator vouched (see SignInAuthority). */
      tenantVouched?: boolean;
      /** The SignInAuthority's ceiling for a session a tenant vouched for on an account it does not own. */
      rightsCap?: RightsCap | null;
      /** How the person signed in (OpenID Connect `amr`), where the authority says more than the marks. */
      amr?: string[] | null;
      /** The sign-in's own writes, in the token's statement (TokenIssuer). */
      signInWrites?: SignInWrites;
    },
    audit?: MintAudit,
  ): Promise<Minted> {
    const ttl =
      s.kind === 'LOGIN' ? this.config.auth.loginTokenTtlSeconds : this.config.auth.tempTokenTtlSeconds;
    // a tenant's word is never a second factor: a tenant-marked session is second-factor authenticated only
    // when the service's own factor completed it (MfaService.completeWithCode), the one caller that says so
    const mfa = s.kind === 'TEMP' ? false : s.mfa;
    return this.issuer.issue({ ...s, mfa, expires: this.after(ttl), authTime: this.clock.now() }, em, audit);
  }

  /**
   * The caller's own credential again: same user, app, domain, kind, scopes, second-factor flag and
   * ceiling, so a renewal is never wider than what it replaces. A login token gets a fresh lifetime; a PAT
   * keeps its expiry (renewing never extends a PAT).
   */
  async renewal(em: EntityManager, auth: AuthContext, current: TokenEntity): Promise<Minted> {
    const minted = await this.issuer.issue(
      {
        userId: auth.userId,
        appId: auth.appId,
        systemDomainId: auth.systemDomainId,
        kind: auth.kind,
        expires: auth.kind === 'LOGIN' ? this.after(this.config.auth.loginTokenTtlSeconds) : current.expires,
        scopes: current.scopes,
        mfa: current.is_mfa_authenticated,
        rightsCap: current.rights_cap,
        authTime: current.auth_time,
        tenantVouched: current.vouched_by_tenant,
        amr: current.amr,
      },
      em,
      { origin: fromAuth(auth), entry: tokenMinted },
    );
    return minted;
  }

  /**
   * A personal access token of a service-account app, for an administrator or the acting user: within the
   * caller's own rights, the app's ceiling and the acting user's current rights.
   */
  async pat(auth: AuthContext, app: AppEntity, expiresIn: number | undefined): Promise<Minted> {
    if (!app.default_user_id)
      throw AppCredentialErrors.INVALID({ default_user_id: 'the app has no acting user' });
    if (!auth.isAdmin && auth.userId !== app.default_user_id) throw AppCredentialErrors.PAT_ISSUER();
    const acting = await this.rights.rightsOf(app.default_user_id, auth.systemDomainId);
    if (!acting || !acting.active)
      throw AppCredentialErrors.INVALID({ default_user_id: 'the acting user is not active' });
    if (!acting.member)
      throw AppCredentialErrors.INVALID({
        default_user_id: 'the acting user is not a member of this domain',
      });
    await this.rights.requireWithin(auth, app.default_user_id, acting, 'issue a token acting as this user');
    const maxTtl = this.config.auth.patMaxTtlSeconds;
    // the token and its record are written by the issuer's group insert, together
    return this.issuer.issue(
      {
        userId: app.default_user_id,
        appId: app.id,
        systemDomainId: auth.systemDomainId,
        kind: 'PAT',
        rightsCap: intersectCaps(app.acting_rights_cap ?? capOf(acting), capOf(auth)),
        expires: this.after(Math.min(expiresIn ?? maxTtl, maxTtl)),
      },
      undefined,
      { origin: fromAuth(auth), entry: tokenMinted },
    );
  }

  /**
   * A new client secret (creation, rotation, a move to confidential). Whoever holds it can take
   * client_credentials tokens acting as the app's user under its ceiling, so the caller must hold all of
   * that: the ceiling, and the acting user's current rights (with the domains they administer). `app` is the
   * app as it will be once the change is saved. Returns the secret (shown once) and its stored hash.
   */
  async clientSecret(auth: AuthContext, app: AppCredentialSource): Promise<{ secret: string; hash: string }> {
    await this.requireCovers(auth, app, 'obtain this application’s client secret');
    const secret = newSecret();
    return { secret, hash: sha256Hex(secret) };
  }

  /**
   * The client_credentials grant: an access token acting as the app's user under the app's ceiling (set by
   * someone who held it; an app without one gets no rights beyond being its user's token with none).
   */
  clientCredentials(
    em: EntityManager,
    app: AppEntity,
    scopes: string[],
    origin?: AuditOrigin,
  ): Promise<{ access: Minted }> {
    if (!app.default_user_id) throw new Error('clientCredentials: the app has no acting user');
    return this.oauth(
      em,
      {
        appId: app.id,
        userId: app.default_user_id,
        systemDomainId: app.system_domain_id,
        scopes,
        grantId: null,
        rightsCap: app.acting_rights_cap ?? [],
        origin,
      },
      false,
    );
  }

  /**
   * An OAuth access token, and with `withRefresh` a rotating refresh token stored as its hash, for a grant
   * the user consented to (or client credentials above). The INSERT itself refuses a user who is no longer
   * an active member of a live domain (InactiveMemberError).
   */
  async oauth(
    em: EntityManager,
    s: OAuthSubject,
    withRefresh: boolean,
  ): Promise<{ access: Minted; refresh?: string }> {
    const access = await this.issuer.issue(
      {
        userId: s.userId,
        appId: s.appId,
        systemDomainId: s.systemDomainId,
        kind: 'OAUTH',
        scopes: s.scopes,
        grantId: s.grantId,
        rightsCap: s.rightsCap ?? null,
        mfa: s.mfa ?? false,
        expires: this.after(this.config.auth.accessTokenTtlSeconds),
        requireMember: true,
      },
      em,
      { origin: mintedBy(s.userId, s.appId, 'oauth_client', s.origin), entry: tokenMinted },
    );
    if (!withRefresh || !s.grantId) return { access };
    const refresh = newSecret();
    await this.repo.insertRefreshToken(em, {
      token_hash: sha256Hex(refresh),
      grant_id: s.grantId,
      app_id: s.appId,
      user_id: s.userId,
      system_domain_id: s.systemDomainId,
      scopes: s.scopes,
      expires: this.after(REFRESH_TOKEN_TTL_SECONDS),
      access_token_id: access.record.id,
      is_mfa_authenticated: s.mfa ?? false,
    });
    return { access, refresh };
  }

  /**
   * The refresh grant's rotation: a new access token (the grant's scopes, narrowed to `scopes`) and a new
   * refresh token, stored by the one statement that claims the presented refresh token
   * (refresh-rotation.ts), so either all of it happens or none. `facts` are the presented token's, as
   * stored; the statement checks them again. Null when the presented token could not be claimed (the
   * caller finds out why). The mint's audit record is written by the same statement.
   */
  async rotation(
    presentedHash: string,
    facts: RefreshFacts,
    scopes: string[],
    origin?: AuditOrigin,
  ): Promise<{ access: Minted; refresh: string } | null> {
    const signed = await this.issuer.sign({
      userId: facts.userId,
      appId: facts.appId,
      systemDomainId: facts.systemDomainId,
      kind: 'OAUTH',
      scopes,
      grantId: facts.grantId,
      mfa: facts.mfa,
      expires: this.after(this.config.auth.accessTokenTtlSeconds),
    });
    const refresh = newSecret();
    const audit = this.audit.prepare(
      mintedBy(facts.userId, facts.appId, 'oauth_client', origin),
      tokenMinted(signed.row),
    );
    const stamps = await this.repo.rotateRefreshToken({
      now: this.clock.now(),
      presentedHash,
      facts,
      access: signed.row,
      refreshHash: sha256Hex(refresh),
      refreshExpires: this.after(REFRESH_TOKEN_TTL_SECONDS),
      audit,
    });
    if (!stamps) return null;
    this.audit.recorded(this.repo.manager, [audit], stamps.deliveries);
    return { access: { token: signed.token, record: signed.record(stamps) }, refresh };
  }

  /**
   * An OpenID Connect id_token (claims about the person for one client: IdTokenService decides them), signed
   * with the service's current key, valid as long as an access token. No credential: nothing accepts it as
   * one, so it carries no rights to check.
   */
  idToken(claims: Record<string, unknown>): Promise<string> {
    return this.issuer.signStatement(claims, this.after(this.config.auth.accessTokenTtlSeconds));
  }

  /**
   * The ceiling an external-auth approval records: the approver's own rights, for an app that acts as
   * nobody or as the approver (a token acting as the approver filed under an app that acts as someone else
   * would pass for that app's token); cut to the app's ceiling.
   */
  approvalCap(auth: AuthContext, app: AppEntity): RightsCap {
    if (app.default_user_id && app.default_user_id !== auth.userId) {
      throw AppCredentialErrors.APPROVER_NOT_ACTING_USER();
    }
    const own = capOf(auth);
    return app.default_user_id ? (intersectCaps(own, app.acting_rights_cap) as RightsCap) : own;
  }

  /**
   * A token of another app of the caller's domain for the signed-in person themself
   * (/v1/apps/{app_id}/current_user_token/): their own current rights as its ceiling (cut to the app's
   * ceiling when it has one), never outliving the sign-in it came from, a login token's lifetime at most.
   */
  async currentUser(auth: AuthContext, app: AppEntity): Promise<Minted> {
    const expires = new Date(
      Math.min(this.after(this.config.auth.loginTokenTtlSeconds).getTime(), auth.expires.getTime()),
    );
    return this.issuer.issue(
      {
        userId: auth.userId,
        appId: app.id,
        systemDomainId: auth.systemDomainId,
        kind: 'PAT',
        rightsCap: intersectCaps(capOf(auth), app.acting_rights_cap),
        expires,
      },
      undefined,
      { origin: fromAuth(auth), entry: tokenMinted },
    );
  }

  /** The token an external-auth approval hands over, under the ceiling recorded at approval. */
  async externalAuth(
    em: EntityManager,
    row: { user_id: string; app_id: string; system_domain_id: string; rights_cap: RightsCap },
    origin?: AuditOrigin,
  ): Promise<Minted> {
    return this.issuer.issue(
      {
        userId: row.user_id,
        appId: row.app_id,
        systemDomainId: row.system_domain_id,
        rightsCap: row.rights_cap,
        kind: 'PAT',
        expires: this.after(this.config.auth.loginTokenTtlSeconds),
      },
      em,
      { origin: mintedBy(row.user_id, row.app_id, 'external_auth', origin), entry: tokenMinted },
    );
  }

  /**
   * A domain's provisioning token (SCIM, sign-in/scim/), filed under its built-in app: acts for the asking
   * administrator, capped at a domain administrator's rights and the caller's own. Only SCIM routes take it.
   */
  async scim(auth: AuthContext, builtinAppId: string, expiresIn: number): Promise<Minted> {
    if (!auth.isAdmin) throw CredentialsErrors.BEYOND_APP_CEILING('issue a provisioning token', ['admin']);
    return this.issuer.issue(
      {
        userId: auth.userId,
        appId: builtinAppId,
        systemDomainId: auth.systemDomainId,
        kind: 'SCIM',
        rightsCap: intersectCaps(DOMAIN_ADMIN_CAP, capOf(auth)),
        expires: this.after(expiresIn),
        requireMember: true,
      },
      undefined,
      { origin: fromAuth(auth), entry: tokenMinted },
    );
  }

  /**
   * Refuses (403) a caller who does not hold everything the app's credentials can carry: its recorded
   * ceiling (which comes back in full if the acting user regains rank), and the acting user's current rights
   * and administered domains.
   */
  private async requireCovers(auth: AuthContext, app: AppCredentialSource, what: string): Promise<void> {
    if (app.acting_rights_cap) {
      const beyond = excess(rightsOfCap(app.acting_rights_cap), auth);
      if (beyond.length) throw CredentialsErrors.BEYOND_APP_CEILING(what, beyond);
    }
    if (!app.default_user_id || app.default_user_id === auth.userId) return;
    const acting = await this.rights.rightsOf(app.default_user_id, auth.systemDomainId);
    if (acting?.member) await this.rights.requireWithin(auth, app.default_user_id, acting, what);
  }

  private after(seconds: number): Date {
    return new Date(this.clock.now().getTime() + seconds * 1000);
  }
}
