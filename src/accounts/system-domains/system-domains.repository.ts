import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { Brackets, type EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { returningRows } from '../../base/database/returning-rows.js';
import { AppEntity } from '../../base/model/app.entity.js';
import { liveDomainSql } from '../../base/model/domain-status.js';
import { SystemDomainLogoEntity } from '../../base/model/logo.entity.js';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { UserSystemDomainEntity } from '../../base/model/user-system-domain.entity.js';
import { UserEntity } from '../../base/model/user.entity.js';

/** The filters of the domains' list (all optional). */
export interface DomainFilter {
  query?: string;
  statuses?: string[];
  types?: string[];
  is_template?: boolean;
}

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
 * The statements of system domains (the domains and their logos, the built-in app, the first super
 * administrator, the scheduled dates, the member moves of a domain deletion), so the services and the schedule
 * worker hold the rules and can be unit-tested with a fake of this class. Methods that belong to a larger
 * change take the transaction's EntityManager (`transaction()`).
 */
@Injectable()
export class SystemDomainsRepository extends FeatureRepository {
  /** Whether any account exists (the first start creates one when none does). */
  async anyUser(): Promise<boolean> {
    return (await this.ds.getRepository(UserEntity).count({ take: 1 })) > 0;
  }

  /** A new domain, as stored. */
  createDomain(
    em: EntityManager,
    fields: Partial<SystemDomainEntity> & { name: string; base_url: string },
  ): Promise<SystemDomainEntity> {
    return em.getRepository(SystemDomainEntity).save(em.getRepository(SystemDomainEntity).create(fields));
  }

  /** The domain's built-in app (a PAT app under which sign-ins are issued). */
  async insertBuiltinApp(em: EntityManager, systemDomainId: string, name: string): Promise<void> {
    await em.getRepository(AppEntity).insert({
      system_domain_id: systemDomainId,
      name,
      type: 'PAT',
      is_builtin: true,
    });
  }

  /** A new account at home in the domain and its administrator membership there: the account's id. */
  async insertAdmin(
    em: EntityManager,
    account: Pick<
      UserEntity,
      'email' | 'first_name' | 'last_name' | 'password_hash' | 'is_super_admin' | 'system_domain_id'
    >,
  ): Promise<string> {
    const user = await em.getRepository(UserEntity).save(em.getRepository(UserEntity).create(account));
    await em
      .getRepository(UserSystemDomainEntity)
      .insert({ user_id: user.id, system_domain_id: account.system_domain_id, is_admin: true });
    return user.id;
  }

  /** The domains that pass the filter, for pageList. */
  search(f: DomainFilter): SelectQueryBuilder<SystemDomainEntity> {
    const qb = this.ds.getRepository(SystemDomainEntity).createQueryBuilder('d');
    if (f.query) {
      const like = `%${f.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(
        new Brackets((w) =>
          w
            .where('d.name ILIKE :like', { like })
            .orWhere('d.base_url ILIKE :like', { like })
            .orWhere('d.description ILIKE :like', { like }),
        ),
      );
    }
    if (f.statuses?.length) qb.andWhere('d.status IN (:...statuses)', { statuses: f.statuses });
    if (f.types?.length) qb.andWhere('d.type IN (:...types)', { types: f.types });
    if (f.is_template !== undefined) qb.andWhere('d.is_template = :tpl', { tpl: f.is_template });
    return qb;
  }

  /** The template domains, for pageList. */
  templates(): SelectQueryBuilder<SystemDomainEntity> {
    return this.ds.getRepository(SystemDomainEntity).createQueryBuilder('d').where('d.is_template = true');
  }

  /** One domain, or null; `lock` holds its row (FOR UPDATE) until the transaction ends. */
  domain(em: EntityManager, id: string, lock = false): Promise<SystemDomainEntity | null> {
    return em.getRepository(SystemDomainEntity).findOne({
      where: { id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** Whether the domain exists. */
  exists(id: string): Promise<boolean> {
    return this.ds.getRepository(SystemDomainEntity).existsBy({ id });
  }

  /** Writes the domain's changed fields: the domain as stored. */
  saveDomain(em: EntityManager, d: SystemDomainEntity): Promise<SystemDomainEntity> {
    return em.getRepository(SystemDomainEntity).save(d);
  }

  /** Deletes the domain (every row naming it goes with it: ON DELETE CASCADE). */
  async deleteDomain(em: EntityManager, id: string): Promise<void> {
    await em.delete(SystemDomainEntity, { id });
  }

  /** Stores the domain's logo (replacing the one there). */
  async saveLogo(
    em: EntityManager,
    logo: Pick<
      SystemDomainLogoEntity,
      'system_domain_id' | 'content_type' | 'bytes' | 'sha256' | 'date_modified'
    >,
  ): Promise<void> {
    await em.getRepository(SystemDomainLogoEntity).upsert(logo, ['system_domain_id']);
  }

  /** Deletes the domain's logo: false when there was none. */
  async deleteLogo(em: EntityManager, id: string): Promise<boolean> {
    const res = await em.getRepository(SystemDomainLogoEntity).delete({ system_domain_id: id });
    return !!res.affected;
  }

  /** The domain's stored logo, or null. */
  logo(id: string): Promise<SystemDomainLogoEntity | null> {
    return this.ds.getRepository(SystemDomainLogoEntity).findOneBy({ system_domain_id: id });
  }

  /** The logo hash of each of these domains that has one, in one query. */
  async logoHashes(em: EntityManager, domainIds: string[]): Promise<Map<string, string>> {
    if (domainIds.length === 0) return new Map();
    const rows: { system_domain_id: string; sha256: string }[] = await em
      .getRepository(SystemDomainLogoEntity)
      .createQueryBuilder('l')
      .select(['l.system_domain_id AS system_domain_id', 'l.sha256 AS sha256'])
      .where('l.system_domain_id = ANY(:ids::uuid[])', { ids: domainIds })
      .getRawMany();
    return new Map(rows.map((r) => [r.system_domain_id, r.sha256]));
  }

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
