import type { ConfigOf } from '../../base/config/namespace.js';
import { PASSWORDS_CONFIG } from './passwords-config.js';
import { Inject, Injectable } from '@nestjs/common';
import { ENUMERATION_FLOOR_MS, withAnswerFloor } from '../../base/common/answer-floor.js';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { hashPassword } from '../../base/common/crypto/passwords.js';
import { generateSecret, sha256Hex } from '../../base/common/crypto/secrets.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { linkMail } from '../../delivery/mail/mail-templates.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import { GuessingDefence } from '../lockout/guessing-defence.js';
import { TokensService } from '../../credentials/tokens/tokens.service.js';
import type { ForgotPasswordDto, PasswordChecksDto, ResetPasswordDto } from './dto/password.dto.js';
import { inconsistencies, normalizeChecks, type PasswordChecks } from './password-checks.js';
import { PasswordPolicyService } from './password-policy.service.js';
import { PasswordsErrors } from './passwords.errors.js';
import { type LinkRow, PasswordsRepository } from './passwords.repository.js';
import { passwordReset } from '../../delivery/audit/audit-entries.js';
import { OUTSIDE_REQUEST } from '../../delivery/audit/audit-origin.js';
import { AuditService } from '../../delivery/audit/audit.service.js';

/**
 * POST /forgot answers no sooner than this, whether or not a mail was queued, so its timing does not tell a
 * registered email from an unknown one (the work for a known one takes a few milliseconds of it).
 */
export const FORGOT_ANSWER_FLOOR_MS = ENUMERATION_FLOOR_MS;
const RESET_MAIL_KIND = 'password reset';
/** Ended links are kept this long (a late click still gets 419, not 404), then deleted at the next request. */
const KEEP_ENDED_MS = 24 * 3600 * 1000;
/** What a link's secret looks like (generateSecret: 32 bytes, base64url): anything else is not looked up. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Self-service password reset through a mailed single-use link, and the domains' PasswordChecks. A reset
 * revokes every credential of the account (see docs/security.md, Passwords).
 */
@Injectable()
export class PasswordsService {
  constructor(
    private readonly repo: PasswordsRepository,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    @Inject(PASSWORDS_CONFIG.token) private readonly passwordsConfig: ConfigOf<typeof PASSWORDS_CONFIG>,
    private readonly clock: Clock,
    private readonly mail: MailService,
    private readonly tokens: TokensService,
    private readonly policy: PasswordPolicyService,
    private readonly guessing: GuessingDefence,
    private readonly audit: AuditService,
  ) {}

  /**
   * Mails a reset link to an active account; the same answer, after about the same time, for an unknown or
   * inactive email (no mail then). A new link supersedes the account's previous one.
   */
  async forgot(body: ForgotPasswordDto): Promise<void> {
    await withAnswerFloor(FORGOT_ANSWER_FLOOR_MS, () => this.mailLink(body.email));
  }

  private async mailLink(email: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      // the row lock orders two requests of the same account: exactly one link stays live
      const user = await this.repo.lockAccountByEmail(em, email);
      if (!user || user.status !== 'ACTIVE') return;
      // past the recipient's limit nothing changes: the links already mailed keep working
      if (!(await this.mail.recipientAllows(em, RESET_MAIL_KIND, user.email))) return;
      const now = this.clock.now();
      const secret = generateSecret();
      const expires = new Date(now.getTime() + this.passwordsConfig.resetTtlSeconds * 1000);
      const dropBefore = new Date(now.getTime() - KEEP_ENDED_MS);
      await this.repo.replaceLink(em, user.id, sha256Hex(secret), now, expires, dropBefore);
      await this.mail.queue(em, {
        kind: RESET_MAIL_KIND,
        to: user.email,
        subject: 'Reset your password',
        ...linkMail({
          intro: [`Someone asked to reset the password of the account ${user.email}.`],
          action: 'Choose a new password',
          link: `${this.config.http.publicBaseUrl}/password/reset/${secret}`,
          outro: [
            `The link works once and expires on ${expires.toISOString()}. Setting a new password signs the account out everywhere.`,
            'If you did not ask for this, ignore this mail: your password stays as it is.',
          ],
        }),
      });
    });
  }

  /**
   * Sets the password of the link's account. The link works once; the new password must pass the checks
   * of every domain of the account; every token of the account is revoked (sign-ins, PATs, OAuth access and
   * refresh tokens): whoever knew the old password must not stay signed in. `requestId`: for the events.
   */
  async reset(secret: string, body: ResetPasswordDto, requestId: string | null): Promise<void> {
    if (body.password !== body.repeat_password) {
      throw PasswordsErrors.INVALID({ repeat_password: 'must be the same as password' });
    }
    // judged and hashed before the transaction: argon2 is slow, and a refused password must not use the link
    const link = await this.live(this.repo.manager, secret, PasswordsErrors.RESET_EXPIRED);
    const checks = await this.policy.checksForUser(link.user_id);
    PasswordPolicyService.throwIfFailed(
      await this.policy.judge(checks, body.password, [link.email, link.first_name, link.last_name]),
    );
    const passwordHash = await hashPassword(body.password);
    await this.repo.transaction(async (em) => {
      // again under the row lock: of two requests with the same link, the second finds it used
      const locked = await this.live(em, secret, PasswordsErrors.RESET_EXPIRED, true);
      const now = this.clock.now();
      await this.repo.setPasswordHash(em, locked.user_id, passwordHash);
      await this.repo.markLinkUsed(em, locked.id, now);
      // the link came by mail to the account's address (an email change retires it): its holder receives mail
      // there (OpenID Connect email_verified)
      await this.repo.markEmailVerified(em, locked.user_id, locked.email);
      await this.tokens.revokeWhere({ user_id: locked.user_id }, { em, requestId });
      await this.audit.record(
        em,
        { ...OUTSIDE_REQUEST, requestId, actorKind: 'reset_link' },
        await passwordReset(em, locked.user_id),
      );
      await this.guessing.clearFactor(em, locked.user_id, 'password');
      await this.repo.revokeRefreshTokens(em, locked.user_id);
    });
  }

  /** The PasswordChecks of the caller's domain, as its administrators set them. */
  async checks(auth: AuthContext): Promise<PasswordChecks> {
    const [stored] = await this.repo.storedChecks([auth.systemDomainId]);
    return normalizeChecks(stored);
  }

  /** Replaces the caller's domain's PasswordChecks (omitted fields become null: no rule). */
  async setChecks(auth: AuthContext, body: PasswordChecksDto): Promise<PasswordChecks> {
    const checks = normalizeChecks(body);
    const problems = inconsistencies(checks);
    if (Object.keys(problems).length > 0) throw PasswordsErrors.INVALID(problems);
    const stored = Object.values(checks).every((v) => v === null) ? null : JSON.stringify(checks);
    await this.repo.setChecks(auth.systemDomainId, stored);
    return checks;
  }

  /** The checks a new password set through this link must pass: those of every domain of its account. */
  async linkChecks(secret: string): Promise<PasswordChecks> {
    const link = await this.live(this.repo.manager, secret, PasswordsErrors.CHECKS_EXPIRED);
    return this.policy.checksForUser(link.user_id);
  }

  /**
   * The live link behind a secret: 404 when there never was one, `expired` (419) when it was used, was
   * superseded, expired, or its account was deactivated.
   */
  private async live(
    em: EntityManager,
    secret: string,
    expired: () => Error,
    lock = false,
  ): Promise<LinkRow> {
    if (!SECRET_SHAPE.test(secret)) throw PasswordsErrors.LINK_NOT_FOUND();
    const link = await this.repo.link(em, sha256Hex(secret), lock);
    if (!link) throw PasswordsErrors.LINK_NOT_FOUND();
    const ended =
      link.used_at !== null ||
      link.superseded_at !== null ||
      new Date(link.expires).getTime() <= this.clock.now().getTime() ||
      link.status !== 'ACTIVE';
    if (ended) throw expired();
    return link;
  }
}
