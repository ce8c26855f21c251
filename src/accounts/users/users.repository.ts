import { retireMailedSecrets } from '../../base/database/mailed-secrets.js';
import { type UserMemberships, withMemberships } from './user-memberships.js';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { Injectable } from '@nestjs/common';
import { In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { isUniqueViolation, whereContains } from '../../base/database/sql-helpers.js';
import { InvitationEntity } from '../../base/model/invitation.entity.js';
import { TokenEntity } from '../../base/model/token.entity.js';
import { assertSeat, type SeatOptions } from './seat-limits.js';
import type { DomainUser } from './user-rules.js';
import { UserSystemDomainEntity } from '../../base/model/user-system-domain.entity.js';
import { UserEntity, type UserType } from '../../base/model/user.entity.js';
import { UsersErrors } from './users.errors.js';

/**
 * Every read and write of users and their memberships for UsersService, so the service holds the rules
 * (who may change what) and can be unit-tested with a fake of this class. Methods that take an
 * EntityManager run in the caller's transaction (`transaction()`); `em` defaults to the data source's.
 */
@Injectable()
export class UsersRepository extends FeatureRepository {
  /** The users' groups, teams, role groups and primary group in the domain, in one statement. */
  withMemberships<T extends { id: string }>(
    systemDomainId: string,
    users: T[],
    em?: EntityManager,
  ): Promise<(T & UserMemberships)[]> {
    return withMemberships(em ?? this.ds.manager, systemDomainId, users);
  }

  findAccount(id: string): Promise<UserEntity | null> {
    return this.ds.getRepository(UserEntity).findOneBy({ id });
  }

  /** Members of the domain whose email or names contain `text` (all members without it), for pageList. */
  search(systemDomainId: string, text: string | undefined): SelectQueryBuilder<UserEntity> {
    return whereContains(
      this.inDomain(this.ds.manager, systemDomainId),
      ['u.email', 'u.first_name', 'u.last_name'],
      text,
    );
  }

  /** A member of the domain with their administrator flag there, or null; `lock` holds the user row. */
  async member(
    systemDomainId: string,
    id: string,
    opts: { em?: EntityManager; lock?: boolean } = {},
  ): Promise<DomainUser | null> {
    const em = opts.em ?? this.ds.manager;
    const qb = this.inDomain(em, systemDomainId).where('u.id = :id', { id });
    if (opts.lock) qb.setLock('pessimistic_write', undefined, ['u']);
    const user = await qb.getOne();
    if (!user) return null;
    return Object.assign(user, { is_admin: (await this.adminsAmong(systemDomainId, [id], em)).has(id) });
  }

  /** Which of these users administer the domain. */
  async adminsAmong(systemDomainId: string, ids: string[], em = this.ds.manager): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await em.getRepository(UserSystemDomainEntity).find({
      select: { user_id: true },
      where: { user_id: In(ids), system_domain_id: systemDomainId, is_admin: true },
    });
    return new Set(rows.map((r) => r.user_id));
  }

  /** How many domains besides `systemDomainId` the user belongs to. */
  otherDomains(em: EntityManager, systemDomainId: string, userId: string): Promise<number> {
    return em
      .getRepository(UserSystemDomainEntity)
      .createQueryBuilder('m')
      .where('m.user_id = :userId AND m.system_domain_id <> :domainId', { userId, domainId: systemDomainId })
      .getCount();
  }

  /** The domains the user belongs to, by id. */
  async domainIds(em: EntityManager | undefined, userId: string): Promise<string[]> {
    const rows = await (em ?? this.ds.manager).getRepository(UserSystemDomainEntity).find({
      select: { system_domain_id: true },
      where: { user_id: userId },
      order: { system_domain_id: 'ASC' },
    });
    return rows.map((r) => r.system_domain_id);
  }

  /** Whether an account (other than `exceptId`) has this email. */
  emailTaken(em: EntityManager, email: string, exceptId?: string): Promise<boolean> {
    const qb = em.getRepository(UserEntity).createQueryBuilder('u').where('u.email = :email', { email });
    if (exceptId) qb.andWhere('u.id <> :id', { id: exceptId });
    return qb.getExists();
  }

  /** Refuses (SEAT_LIMIT) when the domain has no seat left for an active user of `type`. */
  assertSeat(em: EntityManager, systemDomainId: string, type: UserType, opts: SeatOptions): Promise<void> {
    return assertSeat(em, systemDomainId, type, opts);
  }

  /** A new account and its membership of `systemDomainId`; EMAIL_TAKEN on a unique violation. */
  async insert(
    em: EntityManager,
    account: Partial<UserEntity> & { system_domain_id: string },
    isAdmin: boolean,
  ): Promise<string> {
    const user = em.create(UserEntity, account);
    await em.insert(UserEntity, user).catch((e: unknown) => {
      throw isUniqueViolation(e) ? UsersErrors.EMAIL_TAKEN() : e;
    });
    await em.insert(UserSystemDomainEntity, {
      user_id: user.id,
      system_domain_id: account.system_domain_id,
      is_admin: isAdmin,
    });
    return user.id;
  }

  /** Changes the account's own fields; EMAIL_TAKEN on a unique violation. */
  async updateAccount(em: EntityManager, id: string, changes: Partial<UserEntity>): Promise<void> {
    await em.update(UserEntity, { id }, changes).catch((e: unknown) => {
      throw isUniqueViolation(e) ? UsersErrors.EMAIL_TAKEN() : e;
    });
  }

  /**
   * Ends the account's live mailed secrets (sign-in links, password-reset links, second-factor codes), in
   * the caller's transaction: after an email change they went to an address that is no longer the account's.
   */
  retireMailedSecrets(em: EntityManager, id: string): Promise<void> {
    return retireMailedSecrets(em, id);
  }

  async setAdmin(em: EntityManager, systemDomainId: string, id: string, isAdmin: boolean): Promise<void> {
    await em.update(
      UserSystemDomainEntity,
      { user_id: id, system_domain_id: systemDomainId },
      { is_admin: isAdmin },
    );
  }

  /**
   * Removes the user from the domain (group memberships, pending invitations, tokens and the membership
   * there) and answers their earliest remaining membership's domain, or null when none is left.
   */
  async removeMembership(em: EntityManager, systemDomainId: string, id: string): Promise<string | null> {
    // raw: DELETE … USING (a join in a delete), which TypeORM's delete() cannot express
    await em.query(
      'DELETE FROM group_members gm USING groups g WHERE gm.group_id = g.id AND g.system_domain_id = $1 AND gm.user_id = $2',
      [systemDomainId, id],
    );
    await em.delete(InvitationEntity, { user_id: id, system_domain_id: systemDomainId });
    await em.delete(TokenEntity, { user_id: id, system_domain_id: systemDomainId });
    await em.delete(UserSystemDomainEntity, { user_id: id, system_domain_id: systemDomainId });
    const [next] = await em.find(UserSystemDomainEntity, {
      where: { user_id: id },
      order: { date_created: 'ASC' },
      take: 1,
    });
    return next?.system_domain_id ?? null;
  }

  async deleteAccount(em: EntityManager, id: string): Promise<void> {
    await em.delete(UserEntity, { id });
  }

  private inDomain(em: EntityManager, systemDomainId: string) {
    return em
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoin(UserSystemDomainEntity, 'm', 'm.user_id = u.id AND m.system_domain_id = :domainId', {
        domainId: systemDomainId,
      });
  }
}
