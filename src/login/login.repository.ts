import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../database/feature-repository.js';
import { type EntityManager, IsNull, LessThan, MoreThan } from 'typeorm';
import { returningRows } from '../database/returning-rows.js';
import { preparedQuery } from '../database/prepared-query.js';
import { Batcher } from '../common/batcher.js';
import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import { liveDomainSql } from '../system-domains/domain-status.js';
import { UserEntity } from '../users/user.entity.js';
import { EmailLoginLinkEntity } from './email-login-link.entity.js';
import { type GuessedFactor, LoginAttemptEntity } from './guessing-defence.entity.js';

/** The lockout schedule `reserveAttempt` applies, in seconds. */
export interface LockoutValues {
  now: Date;
  threshold: number;
  baseSeconds: number;
  maxSeconds: number;
  resetSeconds: number;
}

/** reserveAttempt's parameters after the first two: $3 now, $4 threshold, $5 base, $6 max, $7 reset window (s). */
const lockoutParams = (l: LockoutValues) => [l.now, l.threshold, l.baseSeconds, l.maxSeconds, l.resetSeconds];

/**
 * The attempt's upsert on login_attempts, from `source` (a VALUES or SELECT of user_id, factor, failures,
 * locked_until, last_failure_at, where %LOCK1% is the lock a first failure sets): a failure counted, the lock
 * set when the count reaches the threshold, nothing changed while a lock is in force. $2 is the factor and
 * $3–$7 as lockoutParams.
 */
function reservationSql(source: string): string {
  const next = `(CASE WHEN a.last_failure_at IS NULL OR a.last_failure_at <= $3::timestamptz - $7::int * interval '1 second'
                 THEN 1 ELSE a.failures + 1 END)`;
  const lockFor = (n: string) =>
    `(CASE WHEN ${n} >= $4::int
           THEN $3::timestamptz + LEAST($5::int * power(2, LEAST(${n} - $4::int, 30)), $6::int) * interval '1 second'
      END)`;
  return `INSERT INTO login_attempts AS a (user_id, factor, failures, locked_until, last_failure_at)
       ${source.replace('%LOCK1%', lockFor('1'))}
       ON CONFLICT (user_id, factor) DO UPDATE
         SET failures = ${next}, locked_until = ${lockFor(next)}, last_failure_at = $3::timestamptz
         WHERE a.locked_until IS NULL OR a.locked_until <= $3::timestamptz`;
}

/**
 * The account with this email and the attempt's reservation for it (reservationSql), in one statement: the
 * user's columns and `attempt_failures` (null when a lock is in force); no row for an unknown email.
 */
const ACCOUNT_WITH_ATTEMPT_SQL = `WITH u AS (SELECT * FROM users WHERE email = $1),
       r AS (${reservationSql('SELECT u.id, $2::text, 1, %LOCK1%, $3::timestamptz FROM u')} RETURNING a.failures)
  SELECT u.*, (SELECT failures FROM r) AS attempt_failures FROM u`;

/** Forgets the failures of the (user, factor) pairs $1, $2 (LoginRepository.clearAttempts' group commit). */
const CLEAR_ATTEMPTS_SQL = `DELETE FROM login_attempts a USING unnest($1::uuid[], $2::text[]) AS v(user_id, factor)
  WHERE a.user_id = v.user_id AND a.factor = v.factor`;

/** `last_login` now for the users $1 (LoginRepository.touchLastLogin's group commit). */
const TOUCH_LAST_LOGIN_SQL =
  'UPDATE users SET last_login = now(), date_modified = CURRENT_TIMESTAMP WHERE id = ANY($1::uuid[])';

/** A live domain of a user's with what a sign-in needs besides (LoginRepository.liveMemberships). */
export interface LiveMembership {
  domain: SystemDomainEntity;
  builtinAppId: string | null;
  isAdmin: boolean;
  logoSha256: string | null;
  /** The user's user_mfa columns (the same on every row; null without a row). */
  factors: { totp_confirmed_at: Date | null; mail_2sv_enabled: boolean | null };
}

/**
 * The user's live domains, oldest membership first, each with its built-in sign-in app (the oldest, should a
 * domain have two), the user's administrator flag and the domain's logo digest there, and the user's second
 * factors (the same on every row). Extra columns are named so that none collides with a domain's.
 */
const LIVE_MEMBERSHIPS_SQL = `SELECT d.*,
         (SELECT a.id FROM apps a WHERE a.system_domain_id = d.id AND a.is_builtin
           ORDER BY a.date_created, a.id LIMIT 1) AS membership_builtin_app_id,
         m.is_admin AS membership_is_admin, l.sha256 AS membership_logo_sha256,
         f.totp_confirmed_at AS membership_totp_confirmed_at, f.mail_2sv_enabled AS membership_mail_2sv_enabled
  FROM user_system_domains m
  JOIN system_domains d ON d.id = m.system_domain_id
  LEFT JOIN system_domain_logos l ON l.system_domain_id = d.id
  LEFT JOIN user_mfa f ON f.user_id = m.user_id
  WHERE m.user_id = $1 AND ${liveDomainSql('d')}
  ORDER BY m.date_created, d.id`;

type MembershipSqlRow = SystemDomainEntity & {
  membership_builtin_app_id: string | null;
  membership_is_admin: boolean;
  membership_logo_sha256: string | null;
  membership_totp_confirmed_at: Date | null;
  membership_mail_2sv_enabled: boolean | null;
};

/**
 * The statements of sign-in (login_attempts for GuessingDefence, email_login_links for the mailed sign-in
 * link), so the services hold the rules. Methods that belong to a larger change take the transaction's
 * EntityManager.
 */
@Injectable()
export class LoginRepository extends FeatureRepository {
  /**
   * Counts one attempt against (user, factor) unless a lock is in force: the failures counted so far
   * (including this one), or null when locked. The lock is written with the count that reaches the threshold.
   */
  async reserveAttempt(userId: string, factor: GuessedFactor, l: LockoutValues): Promise<number | null> {
    // raw: INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING: count and lock in one statement, serialised per row
    const rows = returningRows<{ failures: number }>(
      await this.ds.query(
        `${reservationSql('VALUES ($1::uuid, $2, 1, %LOCK1%, $3::timestamptz)')} RETURNING a.failures`,
        [userId, factor, ...lockoutParams(l)],
      ),
    );
    return rows.length > 0 ? Number(rows[0].failures) : null;
  }

  /**
   * The account with this (normalised) email, with its password hash, and `reserveAttempt` for it in the
   * same statement: null for an unknown email (nothing is counted for it); `failures` null when locked.
   */
  async accountWithAttempt(
    email: string,
    factor: GuessedFactor,
    l: LockoutValues,
  ): Promise<{ user: UserEntity; failures: number | null } | null> {
    // raw: a data-modifying CTE (ACCOUNT_WITH_ATTEMPT_SQL), a prepared statement on every password sign-in
    const rows = await preparedQuery<UserEntity & { attempt_failures: number | null }>(
      this.ds,
      'portcullis_account_attempt',
      ACCOUNT_WITH_ATTEMPT_SQL,
      [email, factor, ...lockoutParams(l)],
    );
    if (rows.length === 0) return null;
    const { attempt_failures, ...columns } = rows[0];
    return {
      user: this.ds.getRepository(UserEntity).create(columns),
      failures: attempt_failures === null ? null : Number(attempt_failures),
    };
  }

  /** The successes of one turn of the event loop forget their failures in one statement (see clearAttempts). */
  private readonly clears = new Batcher<{ userId: string; factor: GuessedFactor }, void>(async (items) => {
    // raw: one DELETE for the (user, factor) pairs of a batch, prepared (every successful sign-in runs it)
    await preparedQuery(this.ds, 'portcullis_clear_attempts', CLEAR_ATTEMPTS_SQL, [
      items.map((i) => i.userId),
      items.map((i) => i.factor),
    ]);
    return items.map(() => undefined);
  });

  /** The sign-ins of one turn of the event loop set `last_login` in one statement (SignInService). */
  private readonly lastLogins = new Batcher<string, void>(async (userIds) => {
    // raw: one UPDATE for a batch's users, bumping date_modified as a repository update() does; prepared
    await preparedQuery(this.ds, 'portcullis_touch_last_login', TOUCH_LAST_LOGIN_SQL, [userIds]);
    return userIds.map(() => undefined);
  });

  touchLastLogin(userId: string): Promise<void> {
    return this.lastLogins.add(userId);
  }

  /** `last_login` now, inside the caller's transaction (a sign-in whose work commits together). */
  async touchLastLoginIn(em: EntityManager, userId: string): Promise<void> {
    await em.getRepository(UserEntity).update({ id: userId }, { last_login: new Date() });
  }

  /** The account of a (normalized) email, or of an id. */
  userBy(where: { email: string } | { id: string }): Promise<UserEntity | null> {
    return this.ds.getRepository(UserEntity).findOneBy(where);
  }

  /** Whether a mailed sign-in link of this secret's hash was ever issued (used or expired: 419, not 404). */
  emailLinkKnown(secretSha256: string): Promise<boolean> {
    return this.ds.getRepository(EmailLoginLinkEntity).existsBy({ secret_sha256: secretSha256 });
  }

  /** See LIVE_MEMBERSHIPS_SQL: every sign-in's first read, one prepared statement. */
  async liveMemberships(userId: string): Promise<LiveMembership[]> {
    // raw: a prepared statement on the sign-in path (the query builder's SQL generation and entity mapping
    // were a sixth of a password sign-in's JavaScript time, argon2id aside)
    const rows = await preparedQuery<MembershipSqlRow>(
      this.ds,
      'portcullis_sign_in_memberships',
      LIVE_MEMBERSHIPS_SQL,
      [userId],
    );
    const domains = this.ds.getRepository(SystemDomainEntity);
    return rows.map((r) => {
      const {
        membership_builtin_app_id,
        membership_is_admin,
        membership_logo_sha256,
        membership_totp_confirmed_at,
        membership_mail_2sv_enabled,
        ...columns
      } = r;
      return {
        domain: domains.create(columns),
        builtinAppId: membership_builtin_app_id,
        isAdmin: membership_is_admin,
        logoSha256: membership_logo_sha256,
        factors: {
          totp_confirmed_at: membership_totp_confirmed_at,
          mail_2sv_enabled: membership_mail_2sv_enabled,
        },
      };
    });
  }

  /**
   * Forgets the failures of one factor (every factor when none is named). Outside a transaction, one
   * factor's clear is group-committed with the others of the same turn; it settles once committed.
   */
  async clearAttempts(
    userId: string,
    factor?: GuessedFactor,
    em: EntityManager = this.ds.manager,
  ): Promise<void> {
    if (factor && em === this.ds.manager) return this.clears.add({ userId, factor });
    await em
      .getRepository(LoginAttemptEntity)
      .delete(factor ? { user_id: userId, factor } : { user_id: userId });
  }

  async lockedUntil(userId: string, factor: GuessedFactor, now: Date): Promise<Date | null> {
    const row = await this.ds.getRepository(LoginAttemptEntity).findOne({
      select: { user_id: true, factor: true, locked_until: true },
      where: { user_id: userId, factor, locked_until: MoreThan(now) },
    });
    return row?.locked_until ? new Date(row.locked_until) : null;
  }

  /** The account's home domain and email, or null. */
  async account(userId: string): Promise<Pick<UserEntity, 'system_domain_id' | 'email'> | null> {
    return this.ds.getRepository(UserEntity).findOne({
      select: { id: true, system_domain_id: true, email: true },
      where: { id: userId },
    });
  }

  /** A new sign-in link: the user's live ones are retired (used_at), ended ones before `dropBefore` deleted. */
  async replaceEmailLink(
    em: EntityManager,
    userId: string,
    secretSha256: string,
    now: Date,
    expires: Date,
    dropBefore: Date,
  ): Promise<void> {
    const links = em.getRepository(EmailLoginLinkEntity);
    await links.update({ user_id: userId, used_at: IsNull() }, { used_at: now });
    await links.delete({ user_id: userId, expires: LessThan(dropBefore) });
    await links.insert({ user_id: userId, secret_sha256: secretSha256, expires, used_at: null });
  }

  /** Uses up a live sign-in link: its user, or undefined when none is live. */
  async consumeEmailLink(secretSha256: string, now: Date): Promise<string | undefined> {
    // raw: a compare-and-set UPDATE … RETURNING (a link works once, whichever request comes first)
    const [used] = (await this.ds.query(
      `UPDATE email_login_links SET used_at = $2
        WHERE secret_sha256 = $1 AND used_at IS NULL AND expires > $2
        RETURNING user_id`,
      [secretSha256, now],
    )) as [{ user_id: string }[], number];
    return used[0]?.user_id;
  }
}
