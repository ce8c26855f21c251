import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock.js';
import { PollingLoop } from '../common/polling-loop.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { returningRows } from '../database/returning-rows.js';

const BATCH = 1000;

/**
 * Deletes audit records older than AUDIT_RETENTION_DAYS, a batch per round (rows claimed with FOR UPDATE
 * SKIP LOCKED, so instances running it at once never wait on each other nor delete twice). The only path that
 * deletes a record: the API has none.
 */
const PURGE_SQL = `
DELETE FROM audit_events WHERE id IN (
  SELECT id FROM audit_events WHERE date_created < $1 ORDER BY date_created LIMIT $2 FOR UPDATE SKIP LOCKED
) RETURNING id`;

@Injectable()
export class AuditRetentionWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditRetention');
  private readonly loop: PollingLoop;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.loop = new PollingLoop(
      'audit retention',
      config.audit.purgeIntervalMs,
      async () => (await this.runOnce()) === BATCH,
      this.logger,
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One round: deletes up to a batch of records past the retention; returns how many went. */
  async runOnce(): Promise<number> {
    if (this.loop.isStopped) return 0;
    const cutoff = new Date(this.clock.now().getTime() - this.config.audit.retentionDays * 86_400_000);
    const deleted = returningRows<{ id: string }>(await this.ds.query(PURGE_SQL, [cutoff, BATCH]));
    if (deleted.length > 0)
      this.logger.log(`purged ${deleted.length} audit records older than ${cutoff.toISOString()}`);
    return deleted.length;
  }
}
