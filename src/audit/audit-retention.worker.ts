import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { PollingLoop } from '../common/polling-loop.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { AuditRepository } from './audit.repository.js';

const BATCH = 1000;

/**
 * Deletes audit records older than AUDIT_RETENTION_DAYS, a batch per round (rows claimed with FOR UPDATE
 * SKIP LOCKED, so instances running it at once never wait on each other nor delete twice). The only path that
 * deletes a record: the API has none.
 */

@Injectable()
export class AuditRetentionWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditRetention');
  private readonly loop: PollingLoop;

  constructor(
    private readonly repo: AuditRepository,
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
    const deleted = await this.repo.purgeOlderThan(cutoff, BATCH);
    if (deleted > 0) this.logger.log(`purged ${deleted} audit records older than ${cutoff.toISOString()}`);
    return deleted;
  }
}
