import { Injectable } from '@nestjs/common';
import { markEmailVerified } from '../../base/database/email-verified.js';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { liveMemberDomain } from '../../base/database/live-member-domain.js';
import { IsNull, type EntityManager } from 'typeorm';
import { returningRows } from '../../base/database/returning-rows.js';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { confirmedMethods, type MfaMethod } from '../login/mfa-policy.js';
import { readUserFactors } from '../../base/database/user-factors.js';
import { MailOtpCodeEntity, UserMfaEntity } from '../../base/model/user-mfa.entity.js';

/** The part of a user's second factors that the services read (the sealed seed and hashes only when asked). */
export type MfaRow = Pick<UserMfaEntity, 'totp_confirmed_at' | 'mail_2sv_enabled'> & {
  recovery_code_hashes?: string[];
};

/**
 * Every read and write of second factors (user_mfa, mail_otp_codes) and of the domain policy columns, so the
 * MFA services hold the rules and can be unit-tested with a fake of this class. Writes that belong to a
 * larger change take the transaction's EntityManager (`transaction()`).
 */
@Injectable()
export class MfaRepository extends FeatureRepository {
  /** The factors the user has confirmed (mfa-policy.ts, confirmedMethods). */
  async configuredMethods(userId: string): Promise<MfaMethod[]> {
    return confirmedMethods(await readUserFactors(this.ds.manager, userId));
  }

  /** A domain's second-factor policy columns, or null (no such domain). */
  domainPolicy(domainId: string): Promise<Pick<SystemDomainEntity, 'mfa_required' | 'mfa_methods'> | null> {
    return this.ds
      .getRepository(SystemDomainEntity)
      .findOne({ where: { id: domainId }, select: { mfa_required: true, mfa_methods: true } });
  }

  async find(userId: string, withRecoveryHashes = false): Promise<MfaRow | null> {
    if (!withRecoveryHashes) return this.ds.getRepository(UserMfaEntity).findOneBy({ user_id: userId });
    return this.ds
      .getRepository(UserMfaEntity)
      .createQueryBuilder('m')
      .addSelect('m.recovery_code_hashes')
      .where('m.user_id = :userId', { userId })
      .getOne();
  }

  /** A live domain the user is a member of, or null. */
  liveMemberDomain(userId: string, domainId: string): Promise<SystemDomainEntity | null> {
    return liveMemberDomain(this.ds.manager, userId, domainId);
  }

  /** The sealed TOTP seed, confirmed or pending, or null. */
  async sealedSeed(userId: string, confirmed: boolean): Promise<string | null> {
    const row = await this.ds
      .getRepository(UserMfaEntity)
      .createQueryBuilder('m')
      .addSelect('m.totp_secret')
      .where('m.user_id = :userId', { userId })
      .andWhere(confirmed ? 'm.totp_confirmed_at IS NOT NULL' : 'm.totp_confirmed_at IS NULL')
      .getOne();
    return row?.totp_secret ?? null;
  }

  /** Records `step` as the last TOTP step used when it is later than the last one: false when it is not. */
  async advanceTotpStep(userId: string, step: number): Promise<boolean> {
    // raw: a compare-and-set in one statement (two requests with one code cannot both pass)
    const sql = `UPDATE user_mfa SET totp_last_step = $2 WHERE user_id = $1 AND totp_secret IS NOT NULL
      AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING user_id`;
    return returningRows(await this.ds.query(sql, [userId, step])).length > 0;
  }

  /** Removes one recovery code hash of a confirmed TOTP: false when it was not there. */
  async consumeRecoveryHash(userId: string, hash: string): Promise<boolean> {
    // raw: array_remove with the membership test in one statement (used once, atomically)
    const sql = `UPDATE user_mfa SET recovery_code_hashes = array_remove(recovery_code_hashes, $2)
      WHERE user_id = $1 AND totp_confirmed_at IS NOT NULL AND $2 = ANY(recovery_code_hashes) RETURNING user_id`;
    return returningRows(await this.ds.query(sql, [userId, hash])).length > 0;
  }

  /** Uses up a live mailed code: false when none matches. */
  async consumeMailCode(userId: string, hash: string, now: Date): Promise<boolean> {
    // raw: a compare-and-set in one statement (used once, atomically)
    const sql = `UPDATE mail_otp_codes SET used_at = $3
      WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL AND expires > $3 RETURNING id`;
    return returningRows(await this.ds.query(sql, [userId, hash, now])).length > 0;
  }

  /**
   * A mailed second-factor code (MAIL_2SV) used: the person proved they receive mail at `email`.
   * email_verified_at becomes the database's now(), in the caller's transaction; nothing changes when the
   * account's email is no longer that address.
   */
  markEmailVerified(em: EntityManager, userId: string, email: string): Promise<void> {
    return markEmailVerified(em, userId, email);
  }

  /** One live mailed code per user: the new one replaces the last. */
  async replaceMailCode(em: EntityManager, userId: string, hash: string, now: Date, expires: Date) {
    await em
      .getRepository(MailOtpCodeEntity)
      .update({ user_id: userId, used_at: IsNull() }, { used_at: now });
    await em.getRepository(MailOtpCodeEntity).insert({ user_id: userId, code_hash: hash, expires });
  }

  /** A new pending seed (replacing any pending one). */
  async startSeed(userId: string, sealedSeed: string): Promise<void> {
    await this.ds
      .getRepository(UserMfaEntity)
      .upsert({ user_id: userId, totp_secret: sealedSeed, totp_confirmed_at: null, totp_last_step: null }, [
        'user_id',
      ]);
  }

  async confirmTotp(em: EntityManager, userId: string, at: Date, recoveryHashes: string[]): Promise<void> {
    await em
      .getRepository(UserMfaEntity)
      .update({ user_id: userId }, { totp_confirmed_at: at, recovery_code_hashes: recoveryHashes });
  }

  async clearTotp(em: EntityManager, userId: string): Promise<void> {
    await em
      .getRepository(UserMfaEntity)
      .update(
        { user_id: userId },
        { totp_secret: null, totp_confirmed_at: null, totp_last_step: null, recovery_code_hashes: [] },
      );
  }

  async setMail2sv(em: EntityManager, userId: string, enabled: boolean): Promise<void> {
    await em.getRepository(UserMfaEntity).upsert({ user_id: userId, mail_2sv_enabled: enabled }, ['user_id']);
  }

  async touchLastLogin(em: EntityManager, userId: string, at: Date): Promise<void> {
    await em.getRepository(UserEntity).update({ id: userId }, { last_login: at });
  }

  /** Changes a domain's second-factor policy (when `patch` has anything) and answers the policy in force. */
  async setDomainPolicy(
    domainId: string,
    patch: Partial<Pick<SystemDomainEntity, 'mfa_required' | 'mfa_methods'>>,
  ): Promise<Pick<SystemDomainEntity, 'id' | 'mfa_required' | 'mfa_methods'>> {
    const repo = this.ds.getRepository(SystemDomainEntity);
    if (Object.keys(patch).length > 0) await repo.update({ id: domainId }, patch);
    return repo.findOneByOrFail({ id: domainId });
  }
}
