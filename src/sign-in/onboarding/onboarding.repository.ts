import { Injectable } from '@nestjs/common';
import { markEmailVerified } from '../../base/database/email-verified.js';
import { type EntityManager, IsNull, LessThan, type SelectQueryBuilder } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { ReferralCodeEntity } from '../../base/model/referral-code.entity.js';
import { RegistrationEntity } from '../../base/model/registration.entity.js';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { UserSystemDomainEntity } from '../../base/model/user-system-domain.entity.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { WebflowContentEntity } from '../../base/model/webflow-content.entity.js';
import { insertRow } from '../../base/database/insert-row.js';

/** A registration's columns as the service writes them (the database fills id and date_created). */
export type NewRegistration = Omit<RegistrationEntity, 'id' | 'date_created' | 'system_domain'>;
/** A referral code's columns as the service writes them. */
export type NewReferralCode = Omit<
  ReferralCodeEntity,
  'id' | 'date_created' | 'date_modified' | 'manage_system_domain'
>;
/** The first administrator's account, as NewDomainService writes it. */
export type NewAccount = Pick<
  UserEntity,
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'password_hash'
  | 'status'
  | 'is_super_admin'
  | 'system_domain_id'
  | 'last_login'
>;
/** A content entry's columns besides its slug. */
export type WebflowContentFields = Pick<
  WebflowContentEntity,
  'page_route' | 'caption' | 'category' | 'image' | 'name'
>;

/**
 * The statements of onboarding: referral codes, registrations (and what replaces a pending one), a new
 * domain's template and first administrator, the registration pages' content. Methods taking an
 * EntityManager run in the caller's transaction (`transaction()`, or `manager` outside one).
 */
@Injectable()
export class OnboardingRepository extends FeatureRepository {
  /** The account with this email, locked for the transaction (orders two registrations of one email). */
  async lockAccountId(em: EntityManager, email: string): Promise<string | undefined> {
    // raw: SELECT … FOR UPDATE of one row of the users table by its unique email
    const [account] = (await em.query('SELECT id FROM users WHERE email = $1 FOR UPDATE', [email])) as {
      id: string;
    }[];
    return account?.id;
  }

  /** Unverified registrations of the email: ended ones before `dropBefore` go, live ones are superseded. */
  async retirePending(em: EntityManager, email: string, now: Date, dropBefore: Date): Promise<void> {
    const registrations = em.getRepository(RegistrationEntity);
    await registrations.delete({ email, verified_at: IsNull(), expires: LessThan(dropBefore) });
    await registrations.update(
      { email, verified_at: IsNull(), superseded_at: IsNull() },
      { superseded_at: now },
    );
  }

  /** Inserts a pending registration: the row, with its id (a unique violation for a concurrent twin). */
  async insertRegistration(em: EntityManager, fields: NewRegistration): Promise<RegistrationEntity> {
    return insertRow(em, RegistrationEntity, fields);
  }

  /** The registration behind a link's digest, its password hash included, locked for the transaction. */
  lockRegistration(em: EntityManager, secretSha256: string): Promise<RegistrationEntity | null> {
    return em
      .getRepository(RegistrationEntity)
      .createQueryBuilder('r')
      .addSelect('r.password_hash')
      .where('r.secret_sha256 = :h', { h: secretSha256 })
      .setLock('pessimistic_write')
      .getOne();
  }

  async markRegistrationVerified(
    em: EntityManager,
    id: string,
    at: { verified_at: Date; user_id: string; system_domain_id: string },
  ): Promise<void> {
    await em.update(RegistrationEntity, { id }, at);
  }

  /**
   * A registration completed through its mailed link: the person proved they receive mail at `email`.
   * email_verified_at becomes the database's now(), in the caller's transaction; nothing changes when the
   * account's email is no longer that address.
   */
  markEmailVerified(em: EntityManager, userId: string, email: string): Promise<void> {
    return markEmailVerified(em, userId, email);
  }

  /** Every referral code, for a page of the list (`c`). */
  referralCodesQuery(): SelectQueryBuilder<ReferralCodeEntity> {
    return this.ds.getRepository(ReferralCodeEntity).createQueryBuilder('c');
  }

  /** A referral code by its key (the lower-cased code), `lock`: FOR SHARE for the transaction. */
  referralCode(em: EntityManager, codeKey: string, lock = false): Promise<ReferralCodeEntity | null> {
    const qb = em
      .getRepository(ReferralCodeEntity)
      .createQueryBuilder('c')
      .where('c.code_key = :k', { k: codeKey });
    if (lock) qb.setLock('pessimistic_read');
    return qb.getOne();
  }

  /** Inserts a referral code and reads it back (a unique violation when the key is taken). */
  async insertReferralCode(em: EntityManager, fields: NewReferralCode): Promise<ReferralCodeEntity> {
    const row = await insertRow(em, ReferralCodeEntity, fields);
    return em.findOneByOrFail(ReferralCodeEntity, { code_key: row.code_key });
  }

  async deleteReferralCode(em: EntityManager, codeKey: string): Promise<void> {
    await em.delete(ReferralCodeEntity, { code_key: codeKey });
  }

  domainExists(em: EntityManager, id: string): Promise<boolean> {
    return em.getRepository(SystemDomainEntity).existsBy({ id });
  }

  /**
   * The template of new domains: `configuredId` (REGISTRATION_TEMPLATE_DOMAIN_ID) when it names a domain,
   * else the oldest domain with `is_template`, else none.
   */
  async template(em: EntityManager, configuredId: string | null): Promise<SystemDomainEntity | null> {
    const repo = em.getRepository(SystemDomainEntity);
    if (configuredId) {
      const configured = await repo.findOneBy({ id: configuredId });
      if (configured) return configured;
    }
    return repo.findOne({ where: { is_template: true }, order: { date_created: 'ASC', id: 'ASC' } });
  }

  accountExists(em: EntityManager, email: string): Promise<boolean> {
    return em.getRepository(UserEntity).existsBy({ email });
  }

  /** Inserts a new account: its id (a unique violation when the email has one). */
  async insertAccount(em: EntityManager, account: NewAccount): Promise<string> {
    const user = em.create(UserEntity, account);
    await em.insert(UserEntity, user);
    return user.id;
  }

  /**
   * The new account becomes the new domain's administrator, and the domain's `creating_user_id`: the account
   * as stored.
   */
  async makeFirstAdmin(em: EntityManager, userId: string, systemDomainId: string): Promise<UserEntity> {
    await em.insert(UserSystemDomainEntity, {
      user_id: userId,
      system_domain_id: systemDomainId,
      is_admin: true,
    });
    await em.update('system_domains', { id: systemDomainId }, { creating_user_id: userId });
    return em.findOneByOrFail(UserEntity, { id: userId });
  }

  /** Every content entry, for a page of the list (`w`). */
  contentQuery(): SelectQueryBuilder<WebflowContentEntity> {
    return this.ds.getRepository(WebflowContentEntity).createQueryBuilder('w');
  }

  contentForRoute(pageRoute: string): Promise<WebflowContentEntity | null> {
    return this.ds.getRepository(WebflowContentEntity).findOneBy({ page_route: pageRoute });
  }

  /** Inserts an entry and reads it back (a unique violation when its slug or page route is taken). */
  async insertContent(slug: string, fields: WebflowContentFields): Promise<WebflowContentEntity> {
    const repo = this.ds.getRepository(WebflowContentEntity);
    await repo.insert({ slug, ...fields });
    return repo.findOneByOrFail({ slug });
  }

  /** Replaces an entry's fields: the entry as stored, or null when there is none (a unique violation too). */
  async updateContent(slug: string, fields: WebflowContentFields): Promise<WebflowContentEntity | null> {
    const repo = this.ds.getRepository(WebflowContentEntity);
    const res = await repo.update({ slug }, fields);
    return res.affected ? repo.findOneByOrFail({ slug }) : null;
  }

  /** Deletes an entry: whether there was one. */
  async deleteContent(slug: string): Promise<boolean> {
    const res = await this.ds.getRepository(WebflowContentEntity).delete({ slug });
    return Boolean(res.affected);
  }
}
