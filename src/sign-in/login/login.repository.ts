import { Injectable } from '@nestjs/common';
import { markEmailVerified } from '../../base/database/email-verified.js';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager, IsNull, LessThan } from 'typeorm';
import { preparedQuery } from '../../base/database/prepared-query.js';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { liveDomainSql } from '../../base/model/domain-status.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { EmailLoginLinkEntity } from '../../base/model/email-login-link.entity.js';
import type { UserFactorColumns } from './mfa-policy.js';
import type { GuessedFactor } from '../../base/model/guessing-defence.entity.js';
import {
  accountWithAttemptSql,
  lockoutParams,
  type AccountWithAttempt,
  type LockoutValues,
} from '../../accounts/lockout/reservation-sql.js';

/** A live domain of a user's with what a sign-in needs besides (LoginRepository.liveMemberships). */
export interface LiveMembership {
  domain: SystemDomainEntity;
  builtinAppId: string | null;
  isAdmin: boolean;
  logoSha256: string | null;
  /** The user's user_mfa columns (the same on every row; null without a row). */
  factors: UserFactorColumns;
}

/**
 * The user's live domains, oldest membership first, each with its built-in sign-in app (the oldest, should a
 * domain have two), the user's administrator flag and the domain's logo digest there, and the user's second
 * factors (the same on every row; a passkey held counts). Extra columns are named so that none collides with a
 * domain's. `userId`: the user's id (a parameter, or the account row of the sign-in's first statement);
 * `domainColumns`: the domain's columns (`d.*`, or each renamed with a prefix where the account's columns sit
 * beside them).
 */
const liveMembershipsSql = (userId: string, domainColumns: string) => `SELECT ${domainColumns},
         (SELECT a.id FROM apps a WHERE a.system_domain_id = d.id AND a.is_builtin
           ORDER BY a.date_created, a.id LIMIT 1) AS membership_builtin_app_id,
         m.is_admin AS membership_is_admin, l.sha256 AS membership_logo_sha256,
         f.totp_confirmed_at AS membership_totp_confirmed_at, f.mail_2sv_enabled AS membership_mail_2sv_enabled,
         EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = m.user_id) AS membership_webauthn,
         m.date_created AS membership_since
  FROM user_system_domains m
  JOIN system_domains d ON d.id = m.system_domain_id
  LEFT JOIN system_domain_logos l ON l.system_domain_id = d.id
  LEFT JOIN user_mfa f ON f.user_id = m.user_id
  WHERE m.user_id = ${userId} AND ${liveDomainSql('d')}
  ORDER BY m.date_created, d.id`;

const LIVE_MEMBERSHIPS_SQL = liveMembershipsSql('$1', 'd.*');
/** The prefix of a domain's columns beside the account's (signInAccount). */
const DOMAIN_PREFIX = 'md_';

type MembershipSqlRow = Record<string, unknown> & {
  membership_builtin_app_id: string | null;
  membership_is_admin: boolean;
  membership_logo_sha256: string | null;
  membership_totp_confirmed_at: Date | null;
  membership_mail_2sv_enabled: boolean | null;
  membership_webauthn: boolean;
  membership_since: Date;
};

/**
 * The statements of sign-in (login_attempts for GuessingDefence, email_login_links for the mailed sign-in
 * link), so the services hold the rules. Methods that belong to a larger change take the transaction's
 * EntityManager.
 */
@Injectable()
export class LoginRepository extends FeatureRepository {
  /** The account of a (normalized) email, or of an id. */
  userBy(
    where: { email: string } | { id: string },
    em: EntityManager = this.ds.manager,
  ): Promise<UserEntity | null> {
    return em.getRepository(UserEntity).findOneBy(where);
  }

  /** Whether a mailed sign-in link of this secret's hash was ever issued (used or expired: 419, not 404). */
  emailLinkKnown(secretSha256: string): Promise<boolean> {
    return this.ds.getRepository(EmailLoginLinkEntity).existsBy({ secret_sha256: secretSha256 });
  }

  /** See liveMembershipsSql: every sign-in's first read (a password sign-in's: signInAccount), prepared. */
  async liveMemberships(userId: string): Promise<LiveMembership[]> {
    // raw: a prepared statement on the sign-in path (the query builder's SQL generation and entity mapping
    // were a sixth of a password sign-in's JavaScript time, argon2id aside)
    const rows = await preparedQuery<MembershipSqlRow>(
      this.ds,
      'portcullis_sign_in_memberships',
      LIVE_MEMBERSHIPS_SQL,
      [userId],
    );
    return rows.map((r) => this.membership(r, ''));
  }

  /**
   * A password sign-in's first statement: the account of this (normalised) email with the guessing defence's
   * reservation (accountWithAttemptSql, exactly as GuessingDefence reserves) and the account's live memberships
   * (liveMembershipsSql), one row per membership. null for an unknown email (nothing counted).
   */
  async signInAccount(
    email: string,
    factor: GuessedFactor,
    l: LockoutValues,
  ): Promise<(AccountWithAttempt & { memberships: LiveMembership[] }) | null> {
    this.signInAccountSql ??= accountWithAttemptSql({
      select: 'lm.*',
      join: `LEFT JOIN LATERAL (${liveMembershipsSql(
        'u.id',
        this.ds
          .getMetadata(SystemDomainEntity)
          .columns.map((c) => `d."${c.databaseName}" AS "${DOMAIN_PREFIX}${c.databaseName}"`)
          .join(', '),
      )}) lm ON true`,
      orderBy: `lm.membership_since, lm."${DOMAIN_PREFIX}id"`,
    });
    // raw: the data-modifying CTE of the reservation with a lateral join, prepared (every password sign-in)
    const rows = await preparedQuery<Record<string, unknown>>(
      this.ds,
      'portcullis_sign_in_account',
      this.signInAccountSql,
      [email, factor, ...lockoutParams(l)],
    );
    if (rows.length === 0) return null;
    const user: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rows[0]))
      if (!k.startsWith(DOMAIN_PREFIX) && !k.startsWith('membership_') && k !== 'attempt_failures') user[k] = v;
    const failures = rows[0].attempt_failures;
    return {
      user: this.ds.getRepository(UserEntity).create(user),
      failures: failures === null ? null : Number(failures),
      memberships: rows
        .filter((r) => r[`${DOMAIN_PREFIX}id`] !== null)
        .map((r) => this.membership(r as MembershipSqlRow, DOMAIN_PREFIX)),
    };
  }

  private signInAccountSql?: string;

  /** A row of liveMembershipsSql as a LiveMembership (the domain's columns under `prefix`). */
  private membership(r: MembershipSqlRow, prefix: string): LiveMembership {
    const columns: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r))
      if (k.startsWith(prefix) && !k.startsWith('membership_')) columns[k.slice(prefix.length)] = v;
    return {
      domain: this.ds.getRepository(SystemDomainEntity).create(columns),
      builtinAppId: r.membership_builtin_app_id,
      isAdmin: r.membership_is_admin,
      logoSha256: r.membership_logo_sha256,
      factors: {
        totp_confirmed_at: r.membership_totp_confirmed_at,
        mail_2sv_enabled: r.membership_mail_2sv_enabled,
        webauthn: r.membership_webauthn,
      },
    };
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

  /**
   * A mailed sign-in link used: the person proved they receive mail at `email`.
   * email_verified_at becomes the database's now(), in the caller's transaction; nothing changes when the
   * account's email is no longer that address.
   */
  markEmailVerified(em: EntityManager, userId: string, email: string): Promise<void> {
    return markEmailVerified(em, userId, email);
  }

  /** Uses up a live sign-in link, in the caller's transaction: its user, or undefined when none is live. */
  async consumeEmailLink(em: EntityManager, secretSha256: string, now: Date): Promise<string | undefined> {
    // raw: a compare-and-set UPDATE … RETURNING (a link works once, whichever request comes first)
    const [used] = (await em.query(
      `UPDATE email_login_links SET used_at = $2
        WHERE secret_sha256 = $1 AND used_at IS NULL AND expires > $2
        RETURNING user_id`,
      [secretSha256, now],
    )) as [{ user_id: string }[], number];
    return used[0]?.user_id;
  }
}
