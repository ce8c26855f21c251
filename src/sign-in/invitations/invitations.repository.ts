import { Injectable } from '@nestjs/common';
import { markEmailVerified } from '../../base/database/email-verified.js';
import { type DeepPartial, type EntityManager, IsNull, type SelectQueryBuilder } from 'typeorm';
import { insertRow } from '../../base/database/insert-row.js';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { returningRows } from '../../base/database/returning-rows.js';
import { liveDomainSql } from '../../base/model/domain-status.js';
import { UserSystemDomainEntity } from '../../base/model/user-system-domain.entity.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { InvitationEntity } from '../../base/model/invitation.entity.js';
import { InvitationLinkEntity } from '../../base/model/invitation-link.entity.js';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';

/**
 * The statements of invitations and invitation links beyond plain entity reads and writes, for
 * InvitationsService and InvitationLinksService. Methods taking an EntityManager run in the caller's
 * transaction (after its `lockDomain`, as the services order their locks).
 */
@Injectable()
export class InvitationsRepository extends FeatureRepository {
  /** The domain's pending invitations, for a page of the list (`i`). */
  pendingQuery(systemDomainId: string): SelectQueryBuilder<InvitationEntity> {
    return this.ds
      .getRepository(InvitationEntity)
      .createQueryBuilder('i')
      .where('i.system_domain_id = :d AND i.accepted_at IS NULL', { d: systemDomainId });
  }

  /** The invitation behind a link's digest, accepted or not; `lock`: FOR UPDATE for the transaction. */
  invitationByHash(em: EntityManager, hash: string, lock = false): Promise<InvitationEntity | null> {
    const qb = em
      .getRepository(InvitationEntity)
      .createQueryBuilder('i')
      .where('i.reset_hash_sha256 = :hash', { hash });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** Inserts an invitation: the row, with its id and creation date (a unique violation for a twin). */
  insertInvitation(em: EntityManager, fields: DeepPartial<InvitationEntity>): Promise<InvitationEntity> {
    return insertRow(em, InvitationEntity, fields);
  }

  /** Deletes a pending invitation of the domain: whether there was one. */
  async deletePendingById(em: EntityManager, id: string, systemDomainId: string): Promise<boolean> {
    const res = await em.delete(InvitationEntity, {
      id,
      system_domain_id: systemDomainId,
      accepted_at: IsNull(),
    });
    return Boolean(res.affected);
  }

  /** Marks an invitation accepted by the user. */
  async markAccepted(em: EntityManager, id: string, acceptedAt: Date, userId: string): Promise<void> {
    await em.update(InvitationEntity, { id }, { accepted_at: acceptedAt, user_id: userId });
  }

  /**
   * An invitation accepted through its mailed link: the person proved they receive mail at `email`.
   * email_verified_at becomes the database's now(), in the caller's transaction; nothing changes when the
   * account's email is no longer that address.
   */
  markEmailVerified(em: EntityManager, userId: string, email: string): Promise<void> {
    return markEmailVerified(em, userId, email);
  }

  /** Inserts an invitation link: the row, with its id. */
  insertLink(em: EntityManager, fields: DeepPartial<InvitationLinkEntity>): Promise<InvitationLinkEntity> {
    return insertRow(em, InvitationLinkEntity, fields);
  }

  /** A link that must be there (its id was just read in `em`'s transaction). */
  linkOrFail(em: EntityManager, id: string): Promise<InvitationLinkEntity> {
    return em.getRepository(InvitationLinkEntity).findOneByOrFail({ id });
  }

  /** A domain that must be there (the caller holds its lock). */
  domainOrFail(em: EntityManager, id: string): Promise<SystemDomainEntity> {
    return em.getRepository(SystemDomainEntity).findOneByOrFail({ id });
  }

  user(id: string): Promise<UserEntity | null> {
    return this.ds.getRepository(UserEntity).findOneBy({ id });
  }

  /** A user that must be there (written in `em`'s transaction). */
  userOrFail(em: EntityManager, id: string): Promise<UserEntity> {
    return em.findOneByOrFail(UserEntity, { id });
  }

  /** Whether any account has this email. */
  accountExists(email: string): Promise<boolean> {
    return this.ds.getRepository(UserEntity).existsBy({ email });
  }

  /** The account with this email, its password hash included, locked for the transaction. */
  lockAccount(em: EntityManager, email: string): Promise<UserEntity | null> {
    return em
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .addSelect('u.password_hash')
      .where('u.email = :email', { email })
      .setLock('pessimistic_write')
      .getOne();
  }

  /** Inserts a new account: the row, with its id. */
  insertAccount(em: EntityManager, fields: DeepPartial<UserEntity>): Promise<UserEntity> {
    return insertRow(em, UserEntity, fields);
  }

  /** Whether an account with this email is a member of the domain. */
  isMemberByEmail(em: EntityManager, systemDomainId: string, email: string): Promise<boolean> {
    return em
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoin(UserSystemDomainEntity, 'm', 'm.user_id = u.id')
      .where('u.email = :email AND m.system_domain_id = :domainId', { email, domainId: systemDomainId })
      .getExists();
  }

  /** Whether the email is a member of the domain or has a pending invitation there. */
  async emailTaken(em: EntityManager, systemDomainId: string, email: string): Promise<boolean> {
    // raw: one UNION ALL over memberships and pending invitations in one round trip
    const [taken] = await em.query(
      `SELECT 1 FROM user_system_domains m JOIN users u ON u.id = m.user_id
        WHERE m.system_domain_id = $1 AND u.email = $2
       UNION ALL
       SELECT 1 FROM invitations WHERE system_domain_id = $1 AND email = $2 AND accepted_at IS NULL`,
      [systemDomainId, email],
    );
    return Boolean(taken);
  }

  /** Deletes the email's pending invitations in the domain: their ids. */
  async deletePending(em: EntityManager, systemDomainId: string, email: string): Promise<{ id: string }[]> {
    // raw: DELETE … RETURNING (each replaced invitation gets its event)
    return returningRows<{ id: string }>(
      await em.query(
        'DELETE FROM invitations WHERE system_domain_id = $1 AND email = $2 AND accepted_at IS NULL RETURNING id',
        [systemDomainId, email],
      ),
    );
  }

  /** Deletes every invitation of the domain not accepted and every invitation link: their ids. */
  async purge(
    em: EntityManager,
    systemDomainId: string,
  ): Promise<{ invitations: string[]; links: string[] }> {
    // raw: DELETE … RETURNING (each deleted invitation gets its event)
    const invitations = returningRows<{ id: string }>(
      await em.query(
        'DELETE FROM invitations WHERE system_domain_id = $1 AND accepted_at IS NULL RETURNING id',
        [systemDomainId],
      ),
    );
    // raw: DELETE … RETURNING (each deleted link gets its event)
    const links = returningRows<{ id: string }>(
      await em.query('DELETE FROM invitation_links WHERE system_domain_id = $1 RETURNING id', [
        systemDomainId,
      ]),
    );
    return { invitations: invitations.map((r) => r.id), links: links.map((r) => r.id) };
  }

  /** Makes the user a member of the domain: false when they were one already. */
  async join(em: EntityManager, userId: string, systemDomainId: string): Promise<boolean> {
    // raw: INSERT … ON CONFLICT DO NOTHING RETURNING tells a new membership from an existing one
    const joined = returningRows<{ user_id: string }>(
      await em.query(
        `INSERT INTO user_system_domains (user_id, system_domain_id) VALUES ($1, $2)
         ON CONFLICT DO NOTHING RETURNING user_id`,
        [userId, systemDomainId],
      ),
    );
    return joined.length > 0;
  }

  /**
   * What an invitation link granted, for a new member: its groups (those still in the domain), and with
   * `isAdmin` or a primary group, administration and that primary group (if still in the domain).
   */
  async grantLink(
    em: EntityManager,
    userId: string,
    systemDomainId: string,
    groupIds: string[],
    isAdmin: boolean,
    primaryGroupId: string | null,
  ): Promise<void> {
    // raw: INSERT … SELECT … ON CONFLICT DO NOTHING with an array operator
    await em.query(
      `INSERT INTO group_members (group_id, user_id)
       SELECT g.id, $2 FROM groups g WHERE g.system_domain_id = $1 AND g.id = ANY($3::uuid[])
       ON CONFLICT DO NOTHING`,
      [systemDomainId, userId, groupIds],
    );
    if (isAdmin || primaryGroupId) {
      // raw: an UPDATE whose values come from the row itself and a subquery
      await em.query(
        `UPDATE user_system_domains SET is_admin = is_admin OR $3,
           primary_group_id = (SELECT id FROM groups WHERE id = $4::uuid AND system_domain_id = $2)
         WHERE user_id = $1 AND system_domain_id = $2`,
        [userId, systemDomainId, isAdmin, primaryGroupId],
      );
    }
  }

  /** The name of the domain when it is live (not deactivated), else undefined. */
  async liveDomainName(
    systemDomainId: string,
    em: EntityManager = this.ds.manager,
  ): Promise<string | undefined> {
    // raw: the shared live-domain SQL fragment (liveDomainSql)
    const [domain] = (await em.query(
      `SELECT d.name FROM system_domains d WHERE d.id = $1 AND ${liveDomainSql('d')}`,
      [systemDomainId],
    )) as { name: string }[];
    return domain?.name;
  }

  /** The id of the invitation link behind a digest when its domain is live. */
  async liveLinkId(em: EntityManager, secretHash: string): Promise<string | undefined> {
    // raw: the shared live-domain SQL fragment (liveDomainSql) over a join
    const [row] = (await em.query(
      `SELECT l.id FROM invitation_links l JOIN system_domains d ON d.id = l.system_domain_id
        WHERE l.secret_sha256 = $1 AND ${liveDomainSql('d')}`,
      [secretHash],
    )) as { id: string }[];
    return row?.id;
  }

  /** The domain's groups among `ids`, with their roles. */
  linkGroups(
    em: EntityManager,
    systemDomainId: string,
    ids: string[],
  ): Promise<{ id: string; roles: string[] }[]> {
    // raw: an array operator over the ids, reading only the two columns
    return em.query('SELECT id, roles FROM groups WHERE system_domain_id = $1 AND id = ANY($2::uuid[])', [
      systemDomainId,
      ids,
    ]);
  }
}
