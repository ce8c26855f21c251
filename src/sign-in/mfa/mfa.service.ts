import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { GuessingDefence } from '../../accounts/lockout/guessing-defence.js';
import { SignInAuthority } from '../login/sign-in-authority.js';
import { MarketplaceService } from '../marketplace/marketplace.service.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { TokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { tokenView } from '../../credentials/tokens/token-view.js';
import { TokensService } from '../../credentials/tokens/tokens.service.js';
import type { MultiDomainLoginDto } from './dto/mfa.dto.js';
import { GUESSED, MfaCodes, wellFormed } from './mfa-codes.service.js';
import { MfaErrors } from './mfa.errors.js';
import { acceptedOtpTypes, factorOwed, passkeyAccepted, type OtpType } from '../login/mfa-policy.js';
import { MfaRepository } from './mfa.repository.js';
import { fromAuth } from '../../delivery/audit/audit-origin.js';

/**
 * The sign-in that owes a second factor: the temporary token, the codes that pass the factor in a domain,
 * and its completion. Every code check goes through the per-account GuessingDefence. Enrolment and the
 * domain policy are MfaEnrolmentService's.
 */
@Injectable()
export class MfaService {
  constructor(
    private readonly repo: MfaRepository,
    private readonly codes: MfaCodes,
    private readonly clock: Clock,
    private readonly guessing: GuessingDefence,
    private readonly signIns: SignInAuthority,
    private readonly tokens: TokensService,
    private readonly marketplace: MarketplaceService,
  ) {}

  /**
   * Completes a sign-in that owes a factor: the temporary token's user, one of their domains, a code of a
   * method that domain accepts. The temporary token is used up; the domain's login token carries
   * is_mfa_authenticated.
   */
  async multidomainLogin(auth: AuthContext, body: MultiDomainLoginDto): Promise<TokenDto> {
    const { domain, accepted } = await this.signInTarget(auth, body);
    // a marketplace signup nonce (src/marketplace): 400 when unusable; consumed with the sign-in when the
    // user administers the chosen domain
    const nonce = body.marketplace_signup_nonce;
    if (nonce) await this.marketplace.assertUsable(nonce);
    const issued = await this.completeWithCode(
      auth,
      domain.id,
      accepted,
      body.otp_type ?? null,
      body.otp ?? null,
      nonce
        ? (em) => this.marketplace.consumeAtSignIn(em, nonce, auth.userId, domain.id, auth.requestId)
        : undefined,
    );
    return {
      ...tokenView(
        issued.record,
        {
          is_admin: await this.tokens.isDomainAdmin(auth.userId, domain.id),
          is_super_admin: auth.isSuperAdmin,
        },
        domain,
        auth.systemDomains,
        this.clock.now(),
      ),
      token: issued.token,
    };
  }

  /**
   * The codes that pass the factor for the user in `domainId` (see acceptedOtpTypes), or null when signing in
   * there owes no factor.
   */
  async owedFor(userId: string, domain: SystemDomainEntity): Promise<OtpType[] | null> {
    return (await this.owedFactor(userId, domain))?.codes ?? null;
  }

  /**
   * What passes the factor for the user in `domain`: the codes (acceptedOtpTypes) and whether their passkey
   * does (passkeyAccepted); null when signing in there owes no factor.
   */
  async owedFactor(
    userId: string,
    domain: SystemDomainEntity,
  ): Promise<{ codes: OtpType[]; passkey: boolean } | null> {
    const configured = await this.repo.configuredMethods(userId);
    if (!factorOwed(domain, configured)) return null;
    return { codes: acceptedOtpTypes(domain, configured), passkey: passkeyAccepted(domain, configured) };
  }

  /** A temporary sign-in token for the user, in `domainId` (the consent page keeps it in a cookie). */
  issueTemp(userId: string, domainId: string): Promise<string> {
    return this.signIns.pendingSession(userId, domainId);
  }

  /**
   * Checks one code of a type in `accepted` (through the guessing defence), uses up the temporary token, and
   * issues the domain's login token with is_mfa_authenticated. Any failure: BAD_SECOND_FACTOR.
   */
  async completeWithCode(
    auth: AuthContext,
    domainId: string,
    accepted: OtpType[],
    otpType: OtpType | null,
    otp: string | null,
    within?: (em: EntityManager) => Promise<unknown>,
  ) {
    const bad = MfaErrors.BAD_SECOND_FACTOR;
    const type = otpType ?? accepted[0];
    if (auth.kind !== 'TEMP' || !type || !accepted.includes(type) || !wellFormed(type, otp)) throw bad();
    const outcome = await this.guessing.attempt(
      auth.userId,
      GUESSED[type],
      () => this.codes.consume(auth.userId, type, otp),
      fromAuth(auth),
    );
    if (outcome !== 'ok') throw bad();
    return this.repo.transaction(async (em) => {
      // single use: a second completion with the same temporary token finds it revoked
      if (!(await this.tokens.revoke(auth.tokenId, { em, requestId: auth.requestId }))) throw bad();
      const out = await this.signIns.completeSecondFactor(
        em,
        { userId: auth.userId, domainId },
        { vouchedByTenant: auth.record.vouched_by_tenant, rightsCap: auth.rightsCap },
        fromAuth(auth),
      );
      await this.repo.touchLastLogin(em, auth.userId, new Date());
      // a mailed code came to the account's address (an email change retires it): its holder receives mail
      // there (OpenID Connect email_verified)
      if (type === 'MAIL_2SV') await this.repo.markEmailVerified(em, auth.userId, auth.user.email);
      if (within) await within(em);
      return out;
    });
  }

  /** Mails a MAIL_2SV code for a sign-in that owes a factor (where the chosen domain accepts mailed codes). */
  async generateForSignIn(auth: AuthContext, body: MultiDomainLoginDto): Promise<void> {
    const { accepted } = await this.signInTarget(auth, body);
    if (!accepted.includes('MAIL_2SV')) throw MfaErrors.BAD_SECOND_FACTOR();
    await this.codes.sendMailCode(auth.userId, auth.user.email);
  }

  /** Step-up: mails a code to the signed-in user (it proves the mailbox when enabling or changing MAIL_2SV). */
  async generateForCurrent(auth: AuthContext): Promise<void> {
    await this.codes.sendMailCode(auth.userId, auth.user.email);
  }

  private async signInTarget(auth: AuthContext, body: MultiDomainLoginDto) {
    const bad = MfaErrors.BAD_SECOND_FACTOR;
    if (body.email.trim().toLowerCase() !== auth.user.email.toLowerCase()) throw bad();
    const domain = await this.repo.liveMemberDomain(auth.userId, body.system_domain_id);
    if (!domain) throw bad();
    const accepted = acceptedOtpTypes(domain, await this.repo.configuredMethods(auth.userId));
    return { domain, accepted };
  }
}
