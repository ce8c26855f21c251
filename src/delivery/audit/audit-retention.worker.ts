import type { ConfigOf } from '../../base/config/namespace.js';
import { AUDIT_CONFIG } from './audit-config.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../base/common/clock.js';
import { PollingWorker } from '../../base/common/polling-loop.js';
import { AuditRepository } from './audit.repository.js';

const BATCH = 1000;

/**
 * Deletes audit records older than AUDIT_RETENTION_DAYS, a batch per round (rows claimed with FOR UPDATE
 * SKIP LOCKED, so instances running it at once never wait on each other nor delete twice). The only path that
 * deletes a record: the API has none.
 */

@Injectable()
export class AuditRetentionWorker extends PollingWorker {
  constructor(
    private readonly repo: AuditRepository,
    @Inject(AUDIT_CONFIG.token) private readonly auditConfig: ConfigOf<typeof AUDIT_CONFIG>,
    private readonly clock: Clock,
  ) {
    super('audit retention', auditConfig.purgeIntervalMs, new Logger('AuditRetention'));
  }

  protected async round(): Promise<boolean> {
    return (await this.runOnce()) === BATCH;
  }

  /** One round: deletes up to a batch of records past the retention; returns how many went. */
  async runOnce(): Promise<number> {
    if (this.loop.isStopped) return 0;
    const cutoff = new Date(this.clock.now().getTime() - this.auditConfig.retentionDays * 86_400_000);
    const deleted = await this.repo.purgeOlderThan(cutoff, BATCH);
    if (deleted > 0) this.logger.log(`purged ${deleted} audit records older than ${cutoff.toISOString()}`);
    return deleted;
  }
}
