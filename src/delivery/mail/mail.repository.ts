import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager } from 'typeorm';
import { leaseClaimSql } from '../../base/database/lease-claim.js';
import { MailOutboxEntity } from '../../base/model/mail-outbox.entity.js';

/** Claims due mail, as the webhook worker claims deliveries (leaseClaimSql: SKIP LOCKED plus a lease). */
const CLAIM_SQL = leaseClaimSql({
  table: 'mail_outbox',
  alias: 'm',
  returning: 'm.id, m.to_address, m.subject, m.body, m.html_body, m.attempts',
});

/** A claimed mail with what its delivery needs. */
export type ClaimedMail = Pick<
  MailOutboxEntity,
  'id' | 'to_address' | 'subject' | 'body' | 'html_body' | 'attempts'
>;

/**
 * Every statement on the mail outbox (mail_outbox), for MailService (queue, the recipient limit, sealing) and
 * the delivery worker. Methods that belong to a larger change take the transaction's EntityManager.
 */
@Injectable()
export class MailRepository extends FeatureRepository {
  /** Bodies stored before bodies were sealed. */
  async unsealedBodies(): Promise<{ id: string; body: string }[]> {
    // raw: NOT LIKE on the stored prefix, two columns, no entity materialised (runs once at start)
    return (await this.ds.query(
      `SELECT id, body FROM mail_outbox WHERE body IS NOT NULL AND body NOT LIKE 'sealed:%'`,
    )) as { id: string; body: string }[];
  }

  /** Replaces a body only while it is still `old` (a worker may have delivered and erased it meanwhile). */
  async replaceBody(id: string, body: string, old: string): Promise<void> {
    await this.ds.getRepository(MailOutboxEntity).update({ id, body: old }, { body });
  }

  /** Serialises the recipient limit's check and insert per key until the transaction ends. */
  async lockRecipient(em: EntityManager, key: string): Promise<void> {
    // raw: a transaction-scoped advisory lock (pg_advisory_xact_lock), no table involved
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
  }

  /** Mails of `kind` queued for `to` in the last `windowSeconds`, by the database's clock (date_created's). */
  async recentCount(em: EntityManager, to: string, kind: string, windowSeconds: number): Promise<number> {
    // raw: interval arithmetic on the database's now() (make_interval), the clock that stamps date_created
    const [{ n }]: { n: number }[] = await em.query(
      `SELECT count(*)::int AS n FROM mail_outbox
        WHERE to_address = $1 AND kind = $2 AND date_created > now() - make_interval(secs => $3)`,
      [to, kind, windowSeconds],
    );
    return n;
  }

  /** A new mail, PENDING, in the caller's transaction (a rolled-back change sends nothing). */
  async insert(
    em: EntityManager,
    mail: Pick<MailOutboxEntity, 'to_address' | 'subject' | 'kind' | 'body' | 'html_body'>,
  ): Promise<void> {
    await em.getRepository(MailOutboxEntity).insert({ ...mail, status: 'PENDING' });
  }

  /** Delivered: the sealed parts are erased, the lease and any error cleared. */
  async markSent(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.update(
      MailOutboxEntity,
      { id },
      { status: 'SENT', body: null, html_body: null, sent_at: at, locked_until: null, last_error: null },
    );
  }

  /** Given up: the sealed parts are erased, the error kept. */
  async markFailed(em: EntityManager, id: string, error: string): Promise<void> {
    await em.update(
      MailOutboxEntity,
      { id },
      { status: 'FAILED', body: null, html_body: null, locked_until: null, last_error: error },
    );
  }

  async claimDue(now: Date, lease: Date, limit: number): Promise<ClaimedMail[]> {
    // raw: FOR UPDATE SKIP LOCKED with a lease, UPDATE … FROM … RETURNING (leaseClaimSql)
    const [rows] = (await this.ds.query(CLAIM_SQL, [now, lease, limit])) as [ClaimedMail[], number];
    return rows;
  }

  /** A failed attempt to retry at `next` (only while the mail is still pending). */
  async scheduleRetry(id: string, next: Date, error: string): Promise<void> {
    await this.ds
      .getRepository(MailOutboxEntity)
      .update({ id, status: 'PENDING' }, { next_attempt_at: next, locked_until: null, last_error: error });
  }
}
