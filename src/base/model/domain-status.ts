import type { DomainStatus, SystemDomainEntity } from './system-domain.entity.js';

/** What a domain's status fields say it is at `now`. */
export type StatusFields = Pick<SystemDomainEntity, 'status' | 'freeze_date' | 'deactivate_date'>;

/**
 * The status in force at `now`: a `deactivate_date` or `freeze_date` that has passed takes effect at once,
 * before the scheduled job (DomainScheduleWorker) writes it down, so no request is served in the gap.
 * Deactivation wins over freezing; a date never lifts a stricter status set by hand.
 */
export function effectiveStatus(d: StatusFields, now: Date): DomainStatus {
  if (d.status === 'DEACTIVATED') return 'DEACTIVATED';
  if (d.deactivate_date && new Date(d.deactivate_date).getTime() <= now.getTime()) return 'DEACTIVATED';
  if (d.status === 'FROZEN') return 'FROZEN';
  if (d.freeze_date && new Date(d.freeze_date).getTime() <= now.getTime()) return 'FROZEN';
  return d.status;
}

export const DEFAULT_WARNING_MESSAGE = 'This system domain needs attention: contact your administrator.';
export const FROZEN_MESSAGE = 'This system domain is frozen: it is read-only until it is reactivated.';

/**
 * What Token answers carry as `system_domain_warning_message`: under WARNING the operator's message (a default
 * when none was written), under FROZEN the operator's message or why writes are refused, otherwise nothing (a
 * message left over from an earlier warning is not shown to an ACTIVE domain).
 */
export function warningMessage(status: DomainStatus, message: string | null): string | null {
  if (status === 'WARNING') return message?.trim() || DEFAULT_WARNING_MESSAGE;
  if (status === 'FROZEN') return message?.trim() || FROZEN_MESSAGE;
  return null;
}

/**
 * The SQL condition "this domain is not deactivated, also by date" for queries that pick the domains a person
 * may sign in to (alias `d`). Reads the database clock; the scheduled job then records the change.
 */
export function liveDomainSql(alias = 'd'): string {
  return `(${alias}.status <> 'DEACTIVATED' AND (${alias}.deactivate_date IS NULL OR ${alias}.deactivate_date > now()))`;
}
