import type { ConfigOf } from '../../base/config/namespace.js';
import { LOCKOUT_CONFIG } from './lockout-config.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../base/common/clock.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import type { GuessedFactor } from '../../base/model/guessing-defence.entity.js';
import { LockoutRepository } from './lockout.repository.js';
import type { AccountWithAttempt, LockoutValues } from './reservation-sql.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { OUTSIDE_REQUEST, type AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { AuditService } from '../../delivery/audit/audit.service.js';

export type { GuessedFactor } from '../../base/model/guessing-defence.entity.js';

const FACTOR_NAMES: Record<GuessedFactor, string> = {
  password: 'password',
  totp: 'authenticator code',
  mail_otp: 'mailed code',
  recovery: 'recovery code',
  webauthn: 'passkey',
};

/**
 * How attemptAccount reads and settles. `read`: the account and its reservation in the caller's statement
 * (which must reserve exactly as LockoutRepository.accountWithAttempt does, with accountWithAttemptSql), so a
 * sign-in reads what it needs besides in the same statement. `deferClear`: a success leaves the count for the
 * caller to forget in its own write (the sign-in's token statement, TokenIssuer's `signInWrites`); a caller
 * that then does not write must call `forget`, or the success stays counted as a failure.
 */
export interface AccountAttemptOptions<A extends AccountWithAttempt> {
  read?: (email: string, factor: GuessedFactor, l: LockoutValues) => Promise<A | null>;
  deferClear?: boolean;
}

/** `locked`: refused without running the verification; callers answer it exactly as they answer `wrong`. */
export type AttemptOutcome = 'ok' | 'wrong' | 'locked';

/**
 * Per-account guessing defence (docs/security.md, Guessing defence), separate from rate limiting: that one
 * protects the service per address and token, this one protects an account from guesses wherever they come
 * from.
 *
 * Every attempt first **reserves** a slot in one atomic statement (an upsert on `login_attempts` that does
 * nothing while the account is locked for that factor): the attempt is counted as a failure before it is
 * verified, and the statement that makes the count reach the threshold also sets the lock. Only then is the
 * (slow) verification run, and a success deletes the row. So however many guesses arrive at once, at most
 * `threshold` of them are verified before the lock; after it expires, one guess per lock period, the lock
 * doubling with each (`base * 2^(failures - threshold)`, capped at `max`). A correct answer during a lock is
 * refused like a wrong one; the count is forgotten after `resetSeconds` without a failure.
 *
 * Call it outside any transaction: the count must commit even when the caller's work rolls back (and on PGlite
 * a second query inside a transaction would wait for that transaction).
 */
@Injectable()
export class GuessingDefence {
  private readonly logger = new Logger(GuessingDefence.name);
  /** Verifications actually run (not refused by a lock); read by tests and usable as a metric. */
  verifications = 0;

  constructor(
    private readonly repo: LockoutRepository,
    @Inject(LOCKOUT_CONFIG.token) private readonly lockoutConfig: ConfigOf<typeof LOCKOUT_CONFIG>,
    private readonly clock: Clock,
    private readonly mail: MailService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Reserves an attempt at `factor` for `userId`, runs `verify` unless the account is locked for it, and
   * records the result. `verify` throwing counts as a failure (and is rethrown).
   */
  async attempt(
    userId: string,
    factor: GuessedFactor,
    verify: () => Promise<boolean>,
    origin: AuditOrigin = OUTSIDE_REQUEST,
  ): Promise<AttemptOutcome> {
    return this.settle(userId, factor, await this.reserve(userId, factor), verify, origin);
  }

  /**
   * The same for a factor checked against an account found by its (normalised) email: the account is read
   * and the attempt reserved in one statement (LockoutRepository.accountWithAttempt). null for an unknown
   * email: nothing is counted for it (no row an attacker could make grow).
   */
  async attemptAccount<A extends AccountWithAttempt = AccountWithAttempt>(
    email: string,
    factor: GuessedFactor,
    verify: (user: UserEntity) => Promise<boolean>,
    origin: AuditOrigin = OUTSIDE_REQUEST,
    how: AccountAttemptOptions<A> = {},
  ): Promise<(A & { outcome: AttemptOutcome }) | null> {
    const read =
      how.read ?? ((e, f, l) => this.repo.accountWithAttempt(e, f, l) as Promise<A | null>);
    const found = await read(email, factor, this.lockoutValues());
    if (!found) return null;
    const outcome = await this.settle(
      found.user.id,
      factor,
      found.failures,
      () => verify(found.user),
      origin,
      how.deferClear === true,
    );
    return { ...found, outcome };
  }

  /**
   * Forgets a factor's failures now (group-committed with the others of the same turn): what a caller that
   * deferred the clear (AccountAttemptOptions.deferClear) does when its own write will not happen.
   */
  forget(userId: string, factor: GuessedFactor): Promise<void> {
    return this.repo.clearAttempts(userId, factor);
  }

  /** An attempt already reserved (`failures` counted so far, null when locked): verify and record. */
  private async settle(
    userId: string,
    factor: GuessedFactor,
    failures: number | null,
    verify: () => Promise<boolean>,
    origin: AuditOrigin,
    deferClear = false,
  ): Promise<AttemptOutcome> {
    if (failures === null) {
      await this.audited(userId, origin, 'signin.failure', { factor, reason: 'locked' });
      return 'locked';
    }
    this.verifications++;
    const ok = await verify();
    if (ok) {
      if (!deferClear) await this.repo.clearAttempts(userId, factor);
      return 'ok';
    }
    await this.audited(userId, origin, 'signin.failure', { factor, reason: 'wrong', failures });
    if (failures >= this.lockoutConfig.threshold) {
      await this.audited(userId, origin, 'signin.locked', {
        factor,
        failures,
        seconds: this.lockSeconds(failures),
      });
      // the account id and factor only: never what was tried
      this.logger.warn(
        `account ${userId} locked for ${factor} after ${failures} failed attempts (${this.lockSeconds(failures)} s)`,
      );
      // the owner learns it once per run of failures (not at every doubling): nobody else does
      if (failures === this.lockoutConfig.threshold) await this.tellOwner(userId, factor, failures);
    }
    return 'wrong';
  }

  /** An administrator's unlock: every factor's count and lock go. */
  async unlock(userId: string): Promise<void> {
    await this.repo.clearAttempts(userId);
  }

  /**
   * Forgets the failures of one factor, inside the caller's transaction: a password reset through the mailed
   * link proves control of the mailbox and replaces the password, so the password's lock goes with it (the
   * other factors keep theirs: the mailbox is not the authenticator app).
   */
  async clearFactor(em: EntityManager, userId: string, factor: GuessedFactor): Promise<void> {
    await this.repo.clearAttempts(userId, factor, em);
  }

  /** The account's lock for `factor`, if one is in force (for callers that want to tell the owner). */
  async lockedUntil(userId: string, factor: GuessedFactor): Promise<Date | null> {
    return this.repo.lockedUntil(userId, factor, this.clock.now());
  }

  /** The audit record of a refused attempt (never what was tried), in the user's home domain. */
  private async audited(
    userId: string,
    origin: AuditOrigin,
    action: 'signin.failure' | 'signin.locked',
    details: Record<string, unknown>,
  ): Promise<void> {
    const user = await this.repo.account(userId);
    await this.audit.recordAlone(origin, {
      systemDomainId: user?.system_domain_id ?? null,
      action,
      targetType: 'user',
      targetId: userId,
      outcome: 'failure',
      details,
    });
  }

  /** A plain mail to the account's owner; a failure to queue it is logged, never the attempt's answer. */
  private async tellOwner(userId: string, factor: GuessedFactor, failures: number): Promise<void> {
    try {
      const user = await this.repo.account(userId);
      if (!user) return;
      const until = new Date(this.clock.now().getTime() + this.lockSeconds(failures) * 1000);
      await this.mail.queue(this.repo.manager, {
        kind: 'sign-in paused',
        to: user.email,
        subject: 'Sign-in to your account was paused after failed attempts',
        body: [
          `Someone tried to sign in to your account (${user.email}) with a wrong ${FACTOR_NAMES[factor]} ${failures} times.`,
          `To protect the account, ${FACTOR_NAMES[factor]} attempts are paused until ${until.toISOString()}; the pause grows if the attempts go on, up to ${Math.ceil(this.lockoutConfig.maxSeconds / 60)} minutes at a time.`,
          '',
          'If this was you, wait and try again, or reset your password. If it was not, nothing was revealed: the attempts failed. Your administrator can lift the pause.',
        ].join('\n'),
      });
    } catch (err) {
      this.logger.error(`could not queue the lock notice for account ${userId}: ${(err as Error).message}`);
    }
  }

  /** Seconds of the lock that `failures` failed attempts cause (0 below the threshold). */
  lockSeconds(failures: number): number {
    const { threshold, baseSeconds, maxSeconds } = this.lockoutConfig;
    if (failures < threshold) return 0;
    return Math.min(baseSeconds * 2 ** Math.min(failures - threshold, 30), maxSeconds);
  }

  /**
   * One statement: counts the attempt and, when the count reaches the threshold, sets the lock — unless a
   * lock is in force, in which case nothing changes and null comes back. Row-level locking of the upsert
   * serialises concurrent attempts on one account, so each sees the count the previous one left.
   */
  private reserve(userId: string, factor: GuessedFactor): Promise<number | null> {
    return this.repo.reserveAttempt(userId, factor, this.lockoutValues());
  }

  private lockoutValues(): LockoutValues {
    const { threshold, baseSeconds, maxSeconds, resetSeconds } = this.lockoutConfig;
    return { now: this.clock.now(), threshold, baseSeconds, maxSeconds, resetSeconds };
  }
}
