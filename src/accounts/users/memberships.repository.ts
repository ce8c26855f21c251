import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { returningRows } from '../../base/database/returning-rows.js';
import { UserPhotoEntity } from '../../base/model/user-photo.entity.js';
import type { BillingLimits } from '../../base/model/system-domain.entity.js';
import { liveDomainSql } from '../../base/model/domain-status.js';

/** One row of `membershipRows`: a member's group (or none) with its kind, and their primary group. */
export interface MembershipRow {
  user_id: string;
  primary_group_id: string | null;
  group_id: string | null;
  kind: string | null;
}

/**
 * The raw statements around domain memberships (beside UsersRepository, which keeps the users' CRUD): the
 * seat lock and count (seat-limits.ts), the memberships of a page of users (user-memberships.ts), partner
 * domain access, and the membership lock and the photos (one per membership) of UserExtrasService. Methods
 * that take an EntityManager run in the caller's transaction (`transaction()`); the helpers of seat-limits.ts
 * and user-memberships.ts build it over `em.connection`.
 */
@Injectable()
export class MembershipsRepository extends FeatureRepository {
  /** Locks the domain row (the seat lock) and answers its billing limits; undefined when there is no such domain. */
  async lockedLimits(em: EntityManager, systemDomainId: string): Promise<BillingLimits | null | undefined> {
    // raw: the domain row's FOR NO KEY UPDATE lock serialises seat checks (see seat-limits.ts)
    const [domain] = (await em.query(
      'SELECT billing_limits FROM system_domains WHERE id = $1 FOR NO KEY UPDATE',
      [systemDomainId],
    )) as { billing_limits: BillingLimits | null }[];
    return domain?.billing_limits;
  }

  /** Seats of these user types held in the domain (see assertSeat for what holds one). */
  async seatsHeld(
    em: EntityManager,
    systemDomainId: string,
    types: string[],
    o: { now: Date; countPending: boolean; excludeUserId?: string; excludeInvitationId?: string },
  ): Promise<number> {
    // raw: two conditional counts (members and pending invitations) summed in one round trip
    const [{ n }] = (await em.query(
      `SELECT (
         (SELECT count(*) FROM user_system_domains m JOIN users u ON u.id = m.user_id
           WHERE m.system_domain_id = $1 AND m.via_partner_domain_id IS NULL
             AND u.status = 'ACTIVE' AND u.type = ANY($2::text[])
             AND u.id IS DISTINCT FROM $3::uuid)
       + (CASE WHEN $4::boolean THEN
         (SELECT count(*) FROM invitations i
           WHERE i.system_domain_id = $1 AND i.accepted_at IS NULL AND i.expires > $5
             AND i.type = ANY($2::text[]) AND i.id IS DISTINCT FROM $6::uuid)
         ELSE 0 END))::int AS n`,
      [systemDomainId, types, o.excludeUserId ?? null, o.countPending, o.now, o.excludeInvitationId ?? null],
    )) as { n: number }[];
    return n;
  }

  /** Takes the domain row's seat lock without reading the row. */
  async lockDomain(em: EntityManager, systemDomainId: string): Promise<void> {
    // raw: a row lock without reading the row (TypeORM's lock modes have no FOR NO KEY UPDATE)
    await em.query('SELECT 1 FROM system_domains WHERE id = $1 FOR NO KEY UPDATE', [systemDomainId]);
  }

  /** The users' memberships of the domain, one row per group (groups ordered by name). */
  async membershipRows(
    em: EntityManager,
    systemDomainId: string,
    userIds: string[],
  ): Promise<MembershipRow[]> {
    // raw: one LEFT JOIN over memberships and groups for every user of the page
    return (await em.query(
      `SELECT m.user_id, m.primary_group_id, g.id AS group_id, g.kind
         FROM user_system_domains m
         LEFT JOIN group_members gm ON gm.user_id = m.user_id
         LEFT JOIN groups g ON g.id = gm.group_id AND g.system_domain_id = m.system_domain_id
        WHERE m.system_domain_id = $1 AND m.user_id = ANY($2::uuid[])
        ORDER BY g.name, g.id`,
      [systemDomainId, userIds],
    )) as MembershipRow[];
  }

  /** Locks the user's membership of the domain (FOR UPDATE): false when they are not a member. */
  async lockMembership(em: EntityManager, userId: string, systemDomainId: string): Promise<boolean> {
    // raw: SELECT 1 … FOR UPDATE locks the membership row without loading the entity
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM user_system_domains WHERE user_id = $1 AND system_domain_id = $2 FOR UPDATE',
      [userId, systemDomainId],
    );
    return rows.length > 0;
  }

  /** The type of a live (not deactivated) domain, or undefined. */
  async liveDomainType(em: EntityManager, systemDomainId: string): Promise<string | undefined> {
    // raw: the shared live-domain SQL fragment (liveDomainSql)
    const [domain] = (await em.query(
      `SELECT d.type FROM system_domains d WHERE d.id = $1 AND ${liveDomainSql('d')}`,
      [systemDomainId],
    )) as { type: string }[];
    return domain?.type;
  }

  /** Records the partner's access grant (nothing when it exists) and makes every ACTIVE partner administrator
   * not already a member an administrator of the customer domain: the users added. */
  async grantPartnerAccess(
    em: EntityManager,
    customerDomainId: string,
    partnerDomainId: string,
    grantedBy: string,
  ): Promise<{ user_id: string }[]> {
    // raw: INSERT … ON CONFLICT DO NOTHING (granting again is not an error)
    await em.query(
      `INSERT INTO partner_domain_access (customer_domain_id, partner_domain_id, granted_by_user_id)
       VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [customerDomainId, partnerDomainId, grantedBy],
    );
    // raw: one INSERT … SELECT … RETURNING adds every partner administrator not already a member
    return returningRows<{ user_id: string }>(
      await em.query(
        `INSERT INTO user_system_domains (user_id, system_domain_id, is_admin, via_partner_domain_id)
         SELECT m.user_id, $1, true, $2 FROM user_system_domains m JOIN users u ON u.id = m.user_id
          WHERE m.system_domain_id = $2 AND m.is_admin AND u.status = 'ACTIVE'
         ON CONFLICT DO NOTHING RETURNING user_id`,
        [customerDomainId, partnerDomainId],
      ),
    );
  }

  /** Deletes the grant: false when there was none. */
  async deletePartnerGrant(
    em: EntityManager,
    customerDomainId: string,
    partnerDomainId: string,
  ): Promise<boolean> {
    // raw: DELETE … RETURNING (the rows deleted decide the 404)
    const grants = returningRows<{ partner_domain_id: string }>(
      await em.query(
        `DELETE FROM partner_domain_access WHERE customer_domain_id = $1 AND partner_domain_id = $2
         RETURNING partner_domain_id`,
        [customerDomainId, partnerDomainId],
      ),
    );
    return grants.length > 0;
  }

  /** Removes the memberships the grant made and their group memberships there: the users removed. */
  async removePartnerMembers(
    em: EntityManager,
    customerDomainId: string,
    partnerDomainId: string,
  ): Promise<{ user_id: string }[]> {
    // raw: DELETE … RETURNING (the users removed get their events)
    const removed = returningRows<{ user_id: string }>(
      await em.query(
        `DELETE FROM user_system_domains WHERE system_domain_id = $1 AND via_partner_domain_id = $2
         RETURNING user_id`,
        [customerDomainId, partnerDomainId],
      ),
    );
    // raw: DELETE … USING (a join in a delete) with an array operator
    await em.query(
      `DELETE FROM group_members gm USING groups g
        WHERE g.id = gm.group_id AND g.system_domain_id = $1 AND gm.user_id = ANY($2::uuid[])`,
      [customerDomainId, removed.map((r) => r.user_id)],
    );
    return removed;
  }

  /** Stores the member's photo in the domain (replacing the one there). */
  async savePhoto(
    em: EntityManager,
    photo: Pick<
      UserPhotoEntity,
      'user_id' | 'system_domain_id' | 'content_type' | 'bytes' | 'sha256' | 'date_modified'
    >,
  ): Promise<void> {
    await em.getRepository(UserPhotoEntity).upsert(photo, ['user_id', 'system_domain_id']);
  }

  /** Deletes the member's photo in the domain: false when there was none. */
  async deletePhoto(em: EntityManager, userId: string, systemDomainId: string): Promise<boolean> {
    const res = await em
      .getRepository(UserPhotoEntity)
      .delete({ user_id: userId, system_domain_id: systemDomainId });
    return !!res.affected;
  }

  /** The member's photo in the domain, or null. */
  photo(userId: string, systemDomainId: string): Promise<UserPhotoEntity | null> {
    return this.ds
      .getRepository(UserPhotoEntity)
      .findOneBy({ user_id: userId, system_domain_id: systemDomainId });
  }
}
