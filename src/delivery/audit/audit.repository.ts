import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager } from 'typeorm';
import { preparedQuery } from '../../base/database/prepared-query.js';
import { returningRows } from '../../base/database/returning-rows.js';
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

/** The audit trail's writes (records with their webhook fan-out, the retention purge); reads use the query builder. */
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

  /** Deletes up to `limit` records older than `cutoff`: how many went. */
  async purgeOlderThan(cutoff: Date, limit: number): Promise<number> {
    // raw: DELETE of an ordered, LIMITed subselect claimed FOR UPDATE SKIP LOCKED
    return returningRows<{ id: string }>(await this.ds.query(PURGE_SQL, [cutoff, limit])).length;
  }
}
