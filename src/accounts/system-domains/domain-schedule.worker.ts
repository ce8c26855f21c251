import type { ConfigOf } from '../../base/config/namespace.js';
import { DOMAIN_SCHEDULE_CONFIG } from './system-domains-config.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../base/common/clock.js';
import { PollingWorker } from '../../base/common/polling-loop.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { SystemDomainsRepository } from './system-domains.repository.js';

const BATCH = 100;

/**
 * Carries out `freeze_date` and `deactivate_date` once they have passed: the status is written (FROZEN, or
 * DEACTIVATED, which wins) and the date that was carried out is cleared — a date is an instruction, so a domain
 * an operator sets back to ACTIVE afterwards stays ACTIVE. Requests never wait for this job: the token lookup
 * and the sign-in queries already apply a passed date (domain-status.ts); the job makes the change visible in
 * the domain's record and announces it as a `system_domain` webhook event.
 *
 * Safe with several instances: each round is one UPDATE over rows claimed with FOR UPDATE SKIP LOCKED, and a
 * row that was carried out no longer matches, so every transition happens (and is announced) exactly once
 * (SystemDomainsRepository.applyPassedDates).
 */
@Injectable()
export class DomainScheduleWorker extends PollingWorker {
  constructor(
    private readonly repo: SystemDomainsRepository,
    @Inject(DOMAIN_SCHEDULE_CONFIG.token) domainScheduleConfig: ConfigOf<typeof DOMAIN_SCHEDULE_CONFIG>,
    private readonly clock: Clock,
    private readonly events: WebhookEventsService,
  ) {
    super('domain schedule', domainScheduleConfig.intervalMs, new Logger('DomainSchedule'));
  }

  protected async round(): Promise<boolean> {
    return (await this.runOnce()).length === BATCH;
  }

  /** One round: carries out the dates that have passed (up to a batch); returns the domains it changed. */
  async runOnce(): Promise<string[]> {
    if (this.loop.isStopped) return [];
    const now = this.clock.now();
    return this.repo.transaction(async (em) => {
      const changed = await this.repo.applyPassedDates(em, now, BATCH);
      for (const d of changed) {
        this.logger.log(`system domain ${d.id}: ${d.previous_status} → ${d.status} (scheduled date passed)`);
        await this.events.record(em, {
          systemDomainId: d.id,
          objectId: d.id,
          realm: 'system_domain',
          operation: 'update',
          eventType: 'system_domains',
          data: { id: d.id, status: d.status, previous_status: d.previous_status, reason: 'scheduled' },
          requestId: null,
        });
      }
      return changed.map((d) => d.id);
    });
  }
}
