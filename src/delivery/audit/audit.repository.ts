import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { AuditEventEntity } from '../../base/model/audit-event.entity.js';
import { preparedQuery } from '../../base/database/prepared-query.js';
import { returningRows } from '../../base/database/returning-rows.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { auditRecordCtes, auditRecordParams, type AuditRecord } from './audit-record-sql.js';

/**
 * Deletes the oldest records past the cut-off, a bounded batch at a time; SKIP LOCKED so two instances purging
 * at once take different rows.
 */
const PURGE_SQL = `
DELETE FROM audit_events WHERE id IN (
  SELECT id FROM audit_events WHERE date_created < $1 ORDER BY date_created LIMIT $2 FOR UPDATE SKIP LOCKED
) RETURNING id`;

/** Records alone, with their webhook fan-out (auditRecordCtes): one row per delivery. */
const RECORD_SQL = `WITH ${auditRecordCtes(1)} SELECT id FROM audit_deliveries`;

/**
 * The audit trail's statements: records with their webhook fan-out, the retention purge, the list API's
 * query and the home domain a password-reset record names.
 */
@Injectable()
export class AuditRepository extends FeatureRepository {
  /** Writes records and their webhook fan-out through `em` (a transaction's): the deliveries queued. */
  async record(em: EntityManager, rows: AuditRecord[]): Promise<number> {
    // raw: one statement of column arrays (unnest) writing records, events and deliveries (CTEs), RETURNING
    return returningRows(await em.query(RECORD_SQL, auditRecordParams(rows))).length;
  }

  /** The same outside any transaction, as a prepared statement (a group commit of the batcher). */
  async recordCommitted(rows: AuditRecord[]): Promise<number> {
    return returningRows(
      await preparedQuery(this.ds, 'portcullis_audit_record', RECORD_SQL, auditRecordParams(rows)),
    ).length;
  }

  /** The home domain of a user (null when there is none), read through `em` (the change's transaction). */
  async homeDomainOf(em: EntityManager, userId: string): Promise<string | null> {
    const user = await em
      .getRepository(UserEntity)
      .findOne({ select: { id: true, system_domain_id: true }, where: { id: userId } });
    return user?.system_domain_id ?? null;
  }

  /**
   * The trail's records filtered as given (each filter left out when absent), for pageList: `domain` null
   * reads every domain's.
   */
  search(f: {
    domain: string | null;
    actorUserId?: string;
    actorAppId?: string;
    action?: string;
    from?: Date;
    to?: Date;
  }): SelectQueryBuilder<AuditEventEntity> {
    const qb = this.ds.getRepository(AuditEventEntity).createQueryBuilder('a');
    if (f.domain) qb.andWhere('a.system_domain_id = :domain', { domain: f.domain });
    if (f.actorUserId) qb.andWhere('a.actor_user_id = :actorUser', { actorUser: f.actorUserId });
    if (f.actorAppId) qb.andWhere('a.actor_app_id = :actorApp', { actorApp: f.actorAppId });
    if (f.action) qb.andWhere('a.action = :action', { action: f.action });
    if (f.from) qb.andWhere('a.date_created >= :from', { from: f.from });
    if (f.to) qb.andWhere('a.date_created < :to', { to: f.to });
    return qb;
  }

  /** Deletes up to `limit` records older than `cutoff`: how many went. */
  async purgeOlderThan(cutoff: Date, limit: number): Promise<number> {
    // raw: DELETE of an ordered, LIMITed subselect claimed FOR UPDATE SKIP LOCKED
    return returningRows<{ id: string }>(await this.ds.query(PURGE_SQL, [cutoff, limit])).length;
  }
}
