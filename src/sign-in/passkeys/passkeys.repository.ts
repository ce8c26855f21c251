import { Injectable } from '@nestjs/common';
import { LessThan, type EntityManager } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { liveMemberDomain } from '../../base/database/live-member-domain.js';
import { returningRows } from '../../base/database/returning-rows.js';
import {
  PasskeyEntity,
  WebauthnChallengeEntity,
  WebauthnUserHandleEntity,
  type WebauthnCeremony,
} from '../../base/model/passkey.entity.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { UserSystemDomainEntity } from '../../base/model/user-system-domain.entity.js';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { insertRow } from '../../base/database/insert-row.js';

/** A passkey with the key that verifies its assertions. */
export type PasskeyWithKey = PasskeyEntity & { public_key: Buffer };

/** What a claimed challenge was handed out for. */
export interface ClaimedChallenge {
  user_id: string | null;
  temp_token_id: string | null;
  require_uv: boolean;
}

/** Challenges ended longer ago than this are deleted when a new one is handed out. */
const KEEP_ENDED_MS = 3600_000;

/**
 * Every statement of passkeys (passkeys, webauthn_user_handles, webauthn_challenges): the services hold the
 * rules (PasskeysService, PasskeySignIn) and are unit-tested over a fake of this class.
 */
@Injectable()
export class PasskeysRepository extends FeatureRepository {
  /** The account's passkeys, oldest first (without their keys). */
  list(userId: string): Promise<PasskeyEntity[]> {
    return this.ds
      .getRepository(PasskeyEntity)
      .find({ where: { user_id: userId }, order: { date_created: 'ASC', id: 'ASC' } });
  }

  find(userId: string, id: string): Promise<PasskeyEntity | null> {
    return this.ds.getRepository(PasskeyEntity).findOneBy({ user_id: userId, id });
  }

  /** The passkey an assertion names (its credential id), with its public key, or null. */
  byCredentialId(credentialId: string): Promise<PasskeyWithKey | null> {
    return this.ds
      .getRepository(PasskeyEntity)
      .createQueryBuilder('p')
      .addSelect('p.public_key')
      .where('p.credential_id = :credentialId', { credentialId })
      .getOne() as Promise<PasskeyWithKey | null>;
  }

  /** A new passkey, inside the registration's transaction (a credential id registered before: unique violation). */
  async insert(
    em: EntityManager,
    row: Pick<
      PasskeyEntity,
      | 'user_id'
      | 'credential_id'
      | 'public_key'
      | 'counter'
      | 'transports'
      | 'aaguid'
      | 'device_type'
      | 'backed_up'
      | 'name'
    >,
  ): Promise<PasskeyEntity> {
    const created = await insertRow(em, PasskeyEntity, { ...row, last_used: null, flagged_at: null });
    return em.getRepository(PasskeyEntity).findOneByOrFail({ id: created.id });
  }

  async rename(userId: string, id: string, name: string): Promise<PasskeyEntity | null> {
    const repo = this.ds.getRepository(PasskeyEntity);
    const { affected } = await repo.update({ user_id: userId, id }, { name });
    return affected ? repo.findOneBy({ user_id: userId, id }) : null;
  }

  /** Removes one passkey of the account, inside `em`: the row removed, or null (none such). */
  async remove(em: EntityManager, userId: string, id: string): Promise<PasskeyEntity | null> {
    const row = await em.getRepository(PasskeyEntity).findOneBy({ user_id: userId, id });
    if (!row) return null;
    await em.getRepository(PasskeyEntity).delete({ user_id: userId, id });
    return row;
  }

  /**
   * A verified use: the new counter and `last_used`, unless the passkey was flagged or its counter moved past
   * `counter` meanwhile (false). An authenticator without a counter reports 0 every time.
   */
  async recordUse(em: EntityManager, id: string, counter: number, at: Date): Promise<boolean> {
    // raw: a compare-and-set in one statement (two assertions of one counter value cannot both pass)
    const sql = `UPDATE passkeys SET counter = $2, last_used = $3
      WHERE id = $1 AND flagged_at IS NULL AND (counter < $2 OR ($2 = 0 AND counter = 0)) RETURNING id`;
    return returningRows(await em.query(sql, [id, counter, at])).length > 0;
  }

  /** A valid assertion whose counter went backwards: the passkey is refused from now on. */
  async flag(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.getRepository(PasskeyEntity).update({ id }, { flagged_at: at });
  }

  async touchLastLogin(em: EntityManager, userId: string, at: Date): Promise<void> {
    await em.getRepository(UserEntity).update({ id: userId }, { last_login: at });
  }

  /** The account's WebAuthn user handle, made (`fresh`, 32 random bytes, base64url) on first use. */
  async userHandle(userId: string, fresh: string): Promise<string> {
    const repo = this.ds.getRepository(WebauthnUserHandleEntity);
    await repo.createQueryBuilder().insert().values({ user_id: userId, handle: fresh }).orIgnore().execute();
    return (await repo.findOneByOrFail({ user_id: userId })).handle;
  }

  /** The account a user handle names, or null. */
  async userOfHandle(handle: string): Promise<string | null> {
    const row = await this.ds.getRepository(WebauthnUserHandleEntity).findOneBy({ handle });
    return row?.user_id ?? null;
  }

  /** The account of a (normalised) email, or of an id. */
  user(where: { email: string } | { id: string }): Promise<UserEntity | null> {
    return this.ds.getRepository(UserEntity).findOneBy(where);
  }

  /** The domains the account belongs to. */
  async domainIds(userId: string): Promise<string[]> {
    const rows = await this.ds
      .getRepository(UserSystemDomainEntity)
      .find({ select: { system_domain_id: true }, where: { user_id: userId } });
    return rows.map((r) => r.system_domain_id);
  }

  /** A live domain the user is a member of, or null. */
  liveMemberDomain(userId: string, domainId: string): Promise<SystemDomainEntity | null> {
    return liveMemberDomain(this.ds.manager, userId, domainId);
  }

  /** Hands out a challenge (by its hash); challenges ended an hour ago go. */
  async issueChallenge(row: Omit<WebauthnChallengeEntity, 'used_at' | 'user'>, now: Date): Promise<void> {
    const repo = this.ds.getRepository(WebauthnChallengeEntity);
    await repo.delete({ expires: LessThan(new Date(now.getTime() - KEEP_ENDED_MS)) });
    await repo.insert({ ...row, used_at: null });
  }

  /** Uses up a live challenge of `ceremony`: what it was handed out for, or null (unknown, used, expired). */
  async claimChallenge(
    sha256: string,
    ceremony: WebauthnCeremony,
    now: Date,
  ): Promise<ClaimedChallenge | null> {
    // raw: a compare-and-set UPDATE … RETURNING (a challenge is used once, whichever request comes first)
    const sql = `UPDATE webauthn_challenges SET used_at = $3
      WHERE challenge_sha256 = $1 AND ceremony = $2 AND used_at IS NULL AND expires > $3
      RETURNING user_id, temp_token_id, require_uv`;
    const [row] = returningRows<ClaimedChallenge>(await this.ds.query(sql, [sha256, ceremony, now]));
    return row ?? null;
  }
}
