import { Injectable } from '@nestjs/common';
import { markEmailVerified } from '../../base/database/email-verified.js';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager, In, IsNull, LessThan } from 'typeorm';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { UserSystemDomainEntity } from '../../base/model/user-system-domain.entity.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { PasswordResetEntity } from '../../base/model/password-reset.entity.js';

/** A reset link with the account it resets. */
export interface LinkRow {
  id: string;
  user_id: string;
  expires: Date | string;
  used_at: Date | string | null;
  superseded_at: Date | string | null;
  status: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** An account as a password change needs it. */
export interface AccountRow {
  id: string;
  email: string;
  status: string;
  first_name: string | null;
  last_name: string | null;
}

/**
 * Every read and write of passwords, reset links and the domains' PasswordChecks, so PasswordsService,
 * PasswordPolicyService and the admin command hold the rules and can be unit-tested with a fake of this class.
 * Methods that belong to a larger change take the transaction's EntityManager.
 */
@Injectable()
export class PasswordsRepository extends FeatureRepository {
  /** The account with this email, locked for the transaction (orders two requests of one account). */
  async lockAccountByEmail(em: EntityManager, email: string): Promise<AccountRow | undefined> {
    // raw: SELECT … FOR UPDATE of one row by a unique column, the columns as they are stored
    const [user] = (await em.query(
      'SELECT id, email, status, first_name, last_name FROM users WHERE email = $1 FOR UPDATE',
      [email],
    )) as AccountRow[];
    return user;
  }

  async accountByEmail(email: string): Promise<AccountRow | null> {
    return this.ds.getRepository(UserEntity).findOne({
      select: { id: true, email: true, status: true, first_name: true, last_name: true },
      where: { email },
    });
  }

  /** A new live link replacing the account's previous ones; ended links older than `dropBefore` go. */
  async replaceLink(
    em: EntityManager,
    userId: string,
    secretSha256: string,
    now: Date,
    expires: Date,
    dropBefore: Date,
  ): Promise<void> {
    const links = em.getRepository(PasswordResetEntity);
    await links.delete({ user_id: userId, expires: LessThan(dropBefore) });
    await links.update(
      { user_id: userId, used_at: IsNull(), superseded_at: IsNull() },
      { superseded_at: now },
    );
    await links.insert({ user_id: userId, secret_sha256: secretSha256, expires });
  }

  /** The link behind a secret's hash with its account, optionally locked (link and account rows). */
  async link(em: EntityManager, secretSha256: string, lock: boolean): Promise<LinkRow | undefined> {
    // raw: FOR UPDATE OF r, u (both rows of the join locked, by table alias)
    const [link] = (await em.query(
      `SELECT r.id, r.user_id, r.expires, r.used_at, r.superseded_at, u.status, u.email, u.first_name, u.last_name
       FROM password_resets r JOIN users u ON u.id = r.user_id
       WHERE r.secret_sha256 = $1${lock ? ' FOR UPDATE OF r, u' : ''}`,
      [secretSha256],
    )) as LinkRow[];
    return link;
  }

  async markLinkUsed(em: EntityManager, linkId: string, at: Date): Promise<void> {
    await em.getRepository(PasswordResetEntity).update({ id: linkId }, { used_at: at });
  }

  /** Sets the account's password hash (date_modified: the database's now(), as every user write). */
  async setPasswordHash(em: EntityManager, userId: string, hash: string): Promise<void> {
    await em
      .createQueryBuilder()
      .update(UserEntity)
      .set({ password_hash: hash, date_modified: () => 'now()' })
      .where('id = :userId', { userId })
      .execute();
  }

  /**
   * A password reset completed through its mailed link: the person proved they receive mail at `email`.
   * email_verified_at becomes the database's now(), in the caller's transaction; nothing changes when the
   * account's email is no longer that address.
   */
  markEmailVerified(em: EntityManager, userId: string, email: string): Promise<void> {
    return markEmailVerified(em, userId, email);
  }

  /** Revokes the account's live OAuth refresh tokens. */
  async revokeRefreshTokens(em: EntityManager, userId: string): Promise<void> {
    // raw: a table of src/oauth (its entity is that feature's; one UPDATE with the database's now())
    await em.query(
      'UPDATE oauth_refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
      [userId],
    );
  }

  /** Lifts the password's lock (the failed attempts counted against it). */
  async clearPasswordAttempts(em: EntityManager, userId: string): Promise<void> {
    // raw: login_attempts has no entity (src/login's GuessingDefence owns it through SQL)
    await em.query("DELETE FROM login_attempts WHERE user_id = $1 AND factor = 'password'", [userId]);
  }

  /** The stored checks of these domains (jsonb, as stored). */
  async storedChecks(domainIds: string[], em: EntityManager = this.ds.manager): Promise<unknown[]> {
    const rows = await em.getRepository(SystemDomainEntity).find({
      select: { id: true, password_checks: true },
      where: { id: In(domainIds) },
    });
    return rows.map((r) => r.password_checks);
  }

  async domainsOf(userId: string, em: EntityManager = this.ds.manager): Promise<string[]> {
    const rows = await em.getRepository(UserSystemDomainEntity).find({
      select: { system_domain_id: true },
      where: { user_id: userId },
    });
    return rows.map((r) => r.system_domain_id);
  }

  /** Replaces a domain's checks (null: no rule). */
  async setChecks(domainId: string, checks: string | null): Promise<void> {
    // raw: the value is JSON text cast to jsonb in the statement ($2::jsonb), null clearing the column
    await this.ds.query('UPDATE system_domains SET password_checks = $2::jsonb WHERE id = $1', [
      domainId,
      checks,
    ]);
  }
}
