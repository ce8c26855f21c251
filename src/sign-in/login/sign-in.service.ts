import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../base/common/clock.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import {
  confirmedMethods,
  factorOwed,
  factorPassable,
  passkeySatisfies,
  type MfaMethod,
} from './mfa-policy.js';
import { ApiError } from '../../base/common/errors/api-error.js';
import { SystemDomainsService } from '../../accounts/system-domains/system-domains.service.js';
import type { LoginTokenDto, MultiDomainTokenItemDto } from '../../credentials/tokens/dto/token.dto.js';
import { tokenView } from '../../credentials/tokens/token-view.js';
import { CredentialMintService, type SignInWrites } from '../../credentials/mint/credential-mint.service.js';
import type { GuessedFactor } from '../../base/model/guessing-defence.entity.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { logoUrl } from '../../accounts/system-domains/logo.js';
import { type LiveMembership, LoginRepository } from './login.repository.js';
import { signInEntry } from '../../delivery/audit/audit-entries.js';
import { OUTSIDE_REQUEST, type AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { applyCap, type RightsCap } from '../../base/common/auth/rights.js';

/**
 * How the service itself verified the person (the audit record of the sign-in names it). `passkey`: a
 * user-verified passkey, two factors in one (src/sign-in/passkeys/).
 */
export type ServiceMethod =
  'password' | 'email_link' | 'second_factor' | 'invitation' | 'registration' | 'passkey';
/** The authenticators a tenant controls: a domain's SAML IdP, its company directory, its OpenID provider. */
export const TENANT_METHODS = ['saml', 'directory', 'oidc'] as const;
export type TenantMethod = (typeof TENANT_METHODS)[number];
export type SignInMethod = ServiceMethod | TenantMethod;
const isTenantMethod = (m: string): m is TenantMethod => (TENANT_METHODS as readonly string[]).includes(m);

/** A live domain of the user's (LoginRepository.liveMemberships), with the user's confirmed second factors. */
type Membership = Omit<LiveMembership, 'factors'> & { configured: MfaMethod[] };

/**
 * What a service sign-in knows besides the user: `domainId`, one domain only (a passkey's); `amr`, how the
 * person signed in; `memberships`, the live memberships read with the account (a password sign-in's first
 * statement); `clearFactor`, the guessing defence's count to forget with the tokens (GuessingDefence's deferred
 * clear: the caller forgets it itself if this sign-in fails).
 */
export interface SignInOptions {
  domainId?: string;
  amr?: string[];
  memberships?: LiveMembership[];
  clearFactor?: GuessedFactor;
}

/**
 * Runs inside the sign-in's transaction once the tokens are issued (e.g. consuming a marketplace signup
 * nonce): `domainIds` got a login token; `owed` when a factor is still owed somewhere (a temporary token).
 */
export type SignInHook = (em: EntityManager, issued: { domainIds: string[]; owed: boolean }) => Promise<void>;

/**
 * Issues what a person gets once the SignInAuthority has decided who signed in and where: one login token per
 * domain the user belongs to (the service's own authenticators), or one domain's token (a tenant's), and the
 * spec's multi-platform Token form around them. Private to the authority (src/sign-in/login/sign-in-authority.ts):
 * no other file imports it (architecture.spec.ts), so every sign-in passes the authority's decisions.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly mint: CredentialMintService,
    private readonly domains: SystemDomainsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly users: LoginRepository,
  ) {}

  /**
   * The multi-platform Token form: a login token per domain (deactivated ones left out), the home domain's
   * also at the top level (the deprecated form), and the MFA fields of each item. `unauthorized` makes the
   * answer when the user has no domain left to sign in to.
   */
  async signIn(
    user: UserEntity,
    method: ServiceMethod,
    unauthorized: () => ApiError,
    within?: SignInHook,
    origin: AuditOrigin = OUTSIDE_REQUEST,
    opts: SignInOptions = {},
  ): Promise<LoginTokenDto> {
    const onlyDomainId = opts.domainId;
    // one read for everything the answer needs: the live memberships with their built-in sign-in app, the
    // user's rank and logo in each, and the user's confirmed factors (a password sign-in read them with the
    // account: LoginRepository.signInAccount)
    const all = opts.memberships ? this.withFactors(opts.memberships) : await this.membershipsOf(user.id);
    const rows = onlyDomainId ? all.filter((r) => r.domain.id === onlyDomainId) : all;
    if (rows.length === 0) throw unauthorized();
    const configured = rows[0].configured;
    // a user-verified passkey is both factors: a domain is owed more only where its policy does not count it
    const mfa = method === 'passkey';
    const owes = (r: Membership) => (mfa ? !passkeySatisfies(r.domain) : factorOwed(r.domain, configured));
    const owed = rows.some(owes);
    const home = rows.find((r) => r.domain.id === user.system_domain_id) ?? rows[0];
    // the sign-in's own writes ride on its token statement (TokenIssuer): the factor's count forgotten, and
    // `last_login` once no factor is owed anywhere (the second factor's completion sets it then)
    const clearFactor = opts.clearFactor ?? null;
    const write = async (em: EntityManager) => {
      // outside a transaction (no hook), the tokens with their audit records and the sign-in's writes are one
      // statement (TokenIssuer), a group commit shared with the sign-ins of the same turn; a hook's work must
      // commit with the tokens, so a hook gets one transaction for all of it.
      //
      // where a factor is owed, no domain token: the temporary token below completes the sign-in
      const tokenFor = async (r: Membership) =>
        owes(r)
          ? { domain: r.domain, token: null, record: null }
          : {
              domain: r.domain,
              ...(await this.domainToken(
                em,
                user.id,
                r.domain.id,
                {
                  method,
                  mfa,
                  origin,
                  amr: opts.amr,
                  signInWrites: { clearFactor, touchLastLogin: !owed },
                },
                r.builtinAppId,
              )),
            };
      // outside a transaction the domains' tokens go out together (one group commit); inside one, one
      // statement after another on the transaction's connection
      const out = [];
      if (em === this.users.manager) out.push(...(await Promise.all(rows.map(tokenFor))));
      else for (const r of rows) out.push(await tokenFor(r));
      const temp = owed
        ? await this.tempToken(
            em,
            user.id,
            home.domain.id,
            { method, origin, signInWrites: { clearFactor } },
            home.builtinAppId,
          )
        : null;
      if (within)
        await within(em, { domainIds: out.filter((i) => i.token !== null).map((i) => i.domain.id), owed });
      return { out, temp };
    };
    const issued = within ? await this.users.transaction(write) : await write(this.users.manager);
    const items = issued.out.map(({ token }, i) => this.domainItem(rows[i], token, owes(rows[i])));
    // the top level describes the home domain's token, or the temporary token while the home domain owes a factor
    const top = issued.out.find((i) => i.domain.id === home.domain.id && i.record) ?? null;
    const record = top?.record ?? issued.temp!.record;
    return {
      ...tokenView(
        record,
        { is_admin: user.is_super_admin || home.isAdmin, is_super_admin: user.is_super_admin },
        home.domain,
        rows.map((r) => r.domain.id),
        this.clock.now(),
      ),
      token: top?.token ?? null,
      auth_system_domains: items,
      ...(issued.temp ? { temp_token: issued.temp.token } : {}),
    };
  }

  /** The user's live domains, oldest membership first (one query: LoginRepository.liveMemberships). */
  private async membershipsOf(userId: string): Promise<Membership[]> {
    return this.withFactors(await this.users.liveMemberships(userId));
  }

  private withFactors(memberships: LiveMembership[]): Membership[] {
    return memberships.map(({ factors, ...m }) => ({ ...m, configured: confirmedMethods(factors) }));
  }

  /**
   * A tenant's authenticator (`how.method`: a domain's SAML IdP, directory or OpenID provider) vouched for the
   * person, for this one domain only: the multi-platform Token form with that domain's login token only. The
   * token is marked as the tenant's (`vouched_by_tenant`) and carries the authority's ceiling (`rightsCap`, for
   * an account the tenant does not own). `how.secondFactor`: where the domain's policy owes a factor (as for a
   * password), a temporary token (tenant-marked, with the ceiling) instead, which the service's own second
   * factor completes. `unauthorized` when the domain is no longer live.
   */
  async signInToDomain(
    user: UserEntity,
    domainId: string,
    unauthorized: () => ApiError,
    how: { method: TenantMethod; rightsCap: RightsCap | null; origin: AuditOrigin; secondFactor: boolean },
  ): Promise<LoginTokenDto> {
    const row = (await this.membershipsOf(user.id)).find((r) => r.domain.id === domainId);
    if (!row || user.status !== 'ACTIVE') throw unauthorized();
    const { domain } = row;
    const owed = how.secondFactor && factorOwed(domain, row.configured);
    const issued = await this.users.transaction(async (em) => {
      if (owed) return this.tempToken(em, user.id, domain.id, how, row.builtinAppId);
      // `last_login` with the token, in its statement
      const signInWrites = { touchLastLogin: true };
      return this.domainToken(em, user.id, domain.id, { ...how, signInWrites }, row.builtinAppId);
    });
    const rights = applyCap(
      { isSuperAdmin: user.is_super_admin, isAdmin: user.is_super_admin || row.isAdmin, roles: new Set() },
      how.rightsCap,
    );
    return {
      ...tokenView(
        issued.record,
        { is_admin: rights.isAdmin, is_super_admin: rights.isSuperAdmin },
        domain,
        [domain.id],
        this.clock.now(),
      ),
      token: owed ? null : issued.token,
      auth_system_domains: [this.domainItem(row, owed ? null : issued.token, owed)],
      ...(owed ? { temp_token: issued.token } : {}),
    };
  }

  /** One entry of the Token form's `auth_system_domains`: a domain, its token, and what its factor asks. */
  private domainItem(m: Membership, token: string | null, mfaRequired: boolean): MultiDomainTokenItemDto {
    const { domain, configured } = m;
    return {
      system_domain_id: domain.id,
      system_domain_name: domain.name,
      logo_url: logoUrl(this.config.http.publicBaseUrl, domain.id, m.logoSha256),
      platform_url: domain.base_url,
      url: domain.base_url,
      mfa_required: mfaRequired,
      // the factor can be passed here with what the user has (false: they must enrol an allowed method)
      mfa_required_configured: factorPassable(domain, configured),
      // the methods that count here: the domain's policy, else the user's own factors (none owed: none)
      mfa_methods: domain.mfa_required ? domain.mfa_methods : configured,
      mfa_methods_configured: configured,
      token,
    };
  }

  /**
   * A login token for one domain, under the domain's built-in sign-in app (inside `em`'s transaction); a
   * deactivated domain is refused there (SystemDomainsService.builtinAppId). Every sign-in of every flow
   * comes through here, so this is where its audit record (`signin.success`, naming the authenticator) is
   * written. A tenant's authenticator (`how.method` in TENANT_METHODS), or the completion of a sign-in one of
   * them began (`how.tenantVouched`, MfaService.completeWithCode), marks the token as the tenant's.
   */
  async domainToken(
    em: EntityManager,
    userId: string,
    domainId: string,
    how: {
      method: SignInMethod;
      mfa?: boolean;
      origin?: AuditOrigin;
      rightsCap?: RightsCap | null;
      tenantVouched?: boolean;
      /** How the person signed in (OpenID Connect `amr`), where the marks do not tell: a passkey. */
      amr?: string[] | null;
      /** The sign-in's own writes, in the token's statement (TokenIssuer). */
      signInWrites?: SignInWrites;
    },
    builtinAppId: string | null = null,
  ) {
    // the built-in app read with the memberships (signIn), else now; a deactivated domain is refused here
    const appId = builtinAppId ?? (await this.domains.builtinAppId(em, domainId));
    const tenantVouched = how.tenantVouched === true || isTenantMethod(how.method);
    const issued = await this.mint.signIn(
      em,
      {
        userId,
        appId,
        systemDomainId: domainId,
        kind: 'LOGIN',
        mfa: how.mfa ?? false,
        tenantVouched,
        rightsCap: how.rightsCap ?? null,
        amr: how.amr ?? null,
        signInWrites: how.signInWrites,
      },
      {
        origin: { ...(how.origin ?? OUTSIDE_REQUEST), actorUserId: userId },
        entry: (row) => signInEntry(row, 'signin.success', { method: how.method }),
      },
    );
    return { appId, ...issued };
  }

  /**
   * A temporary sign-in token (TEMP) in one domain while a second factor is owed, under the domain's built-in
   * sign-in app (read with the memberships by signIn, else now), with its `signin.second_factor_owed` record.
   * Begun by a tenant's authenticator (a directory), it carries the tenant's mark and ceiling to the session
   * the second factor completes.
   */
  async tempToken(
    em: EntityManager,
    userId: string,
    domainId: string,
    how: {
      method: SignInMethod;
      origin: AuditOrigin;
      rightsCap?: RightsCap | null;
      signInWrites?: SignInWrites;
    },
    builtinAppId: string | null = null,
  ) {
    const appId = builtinAppId ?? (await this.domains.builtinAppId(em, domainId));
    return this.mint.signIn(
      em,
      {
        userId,
        appId,
        systemDomainId: domainId,
        kind: 'TEMP',
        tenantVouched: isTenantMethod(how.method),
        rightsCap: how.rightsCap ?? null,
        signInWrites: how.signInWrites,
      },
      {
        origin: { ...how.origin, actorUserId: userId },
        entry: (row) => signInEntry(row, 'signin.second_factor_owed', { method: how.method }),
      },
    );
  }
}
