import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { returningRows } from '../database/returning-rows.js';

const INSERT_SQL = `
  INSERT INTO audit_events (system_domain_id, actor_user_id, actor_app_id, actor_kind, action, target_type,
                            target_id, outcome, request_id, client_address, details, date_created)
  VALUES ($1::uuid, $2::uuid, $3::uuid, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::text,
          $11::jsonb, $12::timestamptz)
  RETURNING id, date_created`;

/**
 * Deletes the oldest records past the cut-off, a bounded batch at a time; SKIP LOCKED so two instances purging
 * at once take different rows.
 */
const PURGE_SQL = `
DELETE FROM audit_events WHERE id IN (
  SELECT id FROM audit_events WHERE date_created < $1 ORDER BY date_created LIMIT $2 FOR UPDATE SKIP LOCKED
) RETURNING id`;

/** The columns of one audit record, in the order INSERT_SQL takes them. */
export interface AuditRow {
  systemDomainId: string | null;
  actorUserId: string | null;
  actorAppId: string | null;
  actorKind: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  outcome: string;
  requestId: string | null;
  clientAddress: string | null;
  details: Record<string, unknown>;
  at: Date;
}

/** The audit trail's writes (the record, the retention purge); the read API uses the query builder. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  /** Writes one record in the caller's transaction: its id. */
  async insert(em: EntityManager, r: AuditRow): Promise<string | null> {
    // raw: explicit casts of every parameter ($n::uuid, ::jsonb) and RETURNING, one statement on a hot path
    const rows = returningRows<{ id: string }>(
      await em.query(INSERT_SQL, [
        r.systemDomainId,
        r.actorUserId,
        r.actorAppId,
        r.actorKind,
        r.action,
        r.targetType,
        r.targetId,
        r.outcome,
        r.requestId,
        r.clientAddress,
        JSON.stringify(r.details),
        r.at,
      ]),
    );
    return rows[0]?.id ?? null;
  }

  /** Deletes up to `limit` records older than `cutoff`: how many went. */
  async purgeOlderThan(cutoff: Date, limit: number): Promise<number> {
    // raw: DELETE of an ordered, LIMITed subselect claimed FOR UPDATE SKIP LOCKED
    return returningRows<{ id: string }>(await this.ds.query(PURGE_SQL, [cutoff, limit])).length;
  }
}
