import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager, In } from 'typeorm';
import { returningRows } from '../../base/database/returning-rows.js';
import { liveDomainSql } from '../../base/model/domain-status.js';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';

/**
 * Carries out passed `freeze_date`s and `deactivate_date`s: the status is written (FROZEN, or DEACTIVATED,
 * which wins) and the date carried out is cleared, over rows claimed with FOR UPDATE SKIP LOCKED, so with
 * several instances every transition happens once.
 */
const APPLY_SQL = `
WITH due AS (
  SELECT id, status AS previous_status FROM system_domains
  WHERE status <> 'DEACTIVATED' AND (deactivate_date <= $1 OR freeze_date <= $1)
  ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED
)
UPDATE system_domains d SET
  status = CASE WHEN d.deactivate_date <= $1 THEN 'DEACTIVATED' ELSE 'FROZEN' END,
  deactivate_date = CASE WHEN d.deactivate_date <= $1 THEN NULL ELSE d.deactivate_date END,
  freeze_date = CASE WHEN d.freeze_date <= $1 THEN NULL ELSE d.freeze_date END,
  date_modified = $1
FROM due WHERE d.id = due.id
RETURNING d.id, d.status, due.previous_status`;

/** A domain whose scheduled date was carried out. */
export interface ScheduledChange {
  id: string;
  status: string;
  previous_status: string;
}

/**
 * The raw statements of system domains (the scheduled dates, the built-in app of a live domain, the member
 * moves of a domain deletion), so the services and the schedule worker hold the rules and can be unit-tested
 * with a fake of this class. Methods that belong to a larger change take the transaction's EntityManager.
 */
@Injectable()
export class SystemDomainsRepository extends FeatureRepository {
  /** Which of these domains exist. */
  async existing(ids: string[]): Promise<{ id: string }[]> {
    return this.ds.getRepository(SystemDomainEntity).find({ select: { id: true }, where: { id: In(ids) } });
  }

  /** One domain, which must exist (e.g. the domain a sign-in was just issued for). */
  async byId(id: string): Promise<SystemDomainEntity> {
    return this.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id });
  }

  /** The built-in app of a live domain, or undefined (no such domain, or deactivated). */
  async builtinAppOfLiveDomain(em: EntityManager, systemDomainId: string): Promise<string | undefined> {
    // raw: the live-domain condition is shared SQL (liveDomainSql, also in the token lookup)
    const [app] = (await em.query(
      `SELECT a.id FROM apps a JOIN system_domains d ON d.id = a.system_domain_id
        WHERE a.system_domain_id = $1 AND a.is_builtin AND ${liveDomainSql('d')}`,
      [systemDomainId],
    )) as { id: string }[];
    return app?.id;
  }

  /** One round of the schedule: the domains changed (at most `limit`). */
  async applyPassedDates(em: EntityManager, now: Date, limit: number): Promise<ScheduledChange[]> {
    // raw: UPDATE … FROM a CTE claiming rows FOR UPDATE SKIP LOCKED, RETURNING the status before and after
    return returningRows<ScheduledChange>(await em.query(APPLY_SQL, [now, limit]));
  }

  /** Whether deleting the domain would delete a super administrator (it is their only domain). */
  async strandsSuperAdmin(em: EntityManager, id: string): Promise<boolean> {
    // raw: EXISTS / NOT EXISTS over the memberships in one statement
    const [superAdmin] = (await em.query(
      `SELECT 1 AS x FROM users u
        WHERE u.is_super_admin
          AND (u.system_domain_id = $1
               OR EXISTS (SELECT 1 FROM user_system_domains m WHERE m.user_id = u.id AND m.system_domain_id = $1))
          AND NOT EXISTS (SELECT 1 FROM user_system_domains m WHERE m.user_id = u.id AND m.system_domain_id <> $1)
        LIMIT 1`,
      [id],
    )) as unknown[];
    return superAdmin !== undefined;
  }

  /** Users at home in the domain with memberships elsewhere: their home moves to the earliest other one. */
  async rehomeMembers(em: EntityManager, id: string): Promise<void> {
    // raw: a correlated subquery as the new value (ORDER BY … LIMIT 1 per row) in one UPDATE
    await em.query(
      `UPDATE users u SET system_domain_id = (
         SELECT m.system_domain_id FROM user_system_domains m
          WHERE m.user_id = u.id AND m.system_domain_id <> $1
          ORDER BY m.date_created ASC, m.system_domain_id ASC LIMIT 1)
        WHERE u.system_domain_id = $1
          AND EXISTS (SELECT 1 FROM user_system_domains m WHERE m.user_id = u.id AND m.system_domain_id <> $1)`,
      [id],
    );
  }

  /** Deletes the users of this domain only (and any account at home in it without another membership). */
  async deleteOnlyMembers(em: EntityManager, id: string): Promise<void> {
    // raw: EXISTS / NOT EXISTS over the memberships in one DELETE
    await em.query(
      `DELETE FROM users u
        WHERE (u.system_domain_id = $1
               OR EXISTS (SELECT 1 FROM user_system_domains m WHERE m.user_id = u.id AND m.system_domain_id = $1))
          AND NOT EXISTS (SELECT 1 FROM user_system_domains m WHERE m.user_id = u.id AND m.system_domain_id <> $1)`,
      [id],
    );
  }
}
