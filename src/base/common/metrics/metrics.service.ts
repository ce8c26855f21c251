import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { MetricsRepository } from './metrics.repository.js';

/**
 * Sign-in outcomes as the trail names them → the metric's outcome label (a fixed set). `signin.locked` (a
 * lock starting) is not an attempt of its own: the failure that started it is counted.
 */
const SIGNIN_OUTCOMES: Record<string, string> = {
  'signin.success': 'success',
  'signin.second_factor_owed': 'second_factor_owed',
};

/**
 * The service's Prometheus metrics (prom-client), one registry per application instance. Label values come
 * from fixed sets only — route templates (never the path a client sent), methods, status codes, budget
 * names, outcomes — so no id, email or token can reach a label. Outbox backlogs and the pool are read when
 * scraped, not kept up to date on every change.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'portcullis_http_request_duration_seconds',
    help: 'HTTP requests by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly tokenValidations = new Counter({
    name: 'portcullis_token_validations_total',
    help: 'Credentials presented to authenticated routes, by outcome (valid, invalid)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly signIns = new Counter({
    name: 'portcullis_signins_total',
    help: 'Sign-in attempts by outcome (success, wrong_password, wrong_code, unknown_account, locked, second_factor_owed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'portcullis_rate_limit_refusals_total',
    help: 'Requests refused by the rate limiter, by budget',
    labelNames: ['budget'] as const,
    registers: [this.registry],
  });
  private readonly auditRecords = new Counter({
    name: 'portcullis_audit_records_total',
    help: 'Audit records written, by action and outcome',
    labelNames: ['action', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(repo: MetricsRepository) {
    collectDefaultMetrics({ register: this.registry, prefix: 'portcullis_' });
    new Gauge({
      name: 'portcullis_outbox_items',
      help: 'Mail and webhook outbox items by status (pending: the backlog; failed: given up)',
      labelNames: ['outbox', 'status'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const r of await repo.outboxCounts())
          this.set({ outbox: r.outbox, status: r.status.toLowerCase() }, Number(r.n));
      },
    });
    new Gauge({
      name: 'portcullis_db_pool_connections',
      help: 'Database pool connections by state (PostgreSQL: total, idle, waiting clients; PGlite: one in-process connection)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const pool = repo.pool();
        if (pool && typeof pool.totalCount === 'number') {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount ?? 0);
          this.set({ state: 'waiting' }, pool.waitingCount ?? 0);
        } else {
          this.set({ state: 'total' }, 1);
        }
      },
    });
  }

  request(route: string, method: string, status: number, seconds: number): void {
    this.httpDuration.observe({ route, method, status: String(status) }, seconds);
  }

  tokenValidation(valid: boolean): void {
    this.tokenValidations.inc({ outcome: valid ? 'valid' : 'invalid' });
  }

  rateLimitRefusal(budget: string): void {
    this.rateLimited.inc({ budget });
  }

  /** Every audit record (AuditService): counts it, and the sign-in outcomes among them. */
  audited(action: string, outcome: string, details: Record<string, unknown>): void {
    this.auditRecords.inc({ action, outcome });
    const signIn = SIGNIN_OUTCOMES[action] ?? (action === 'signin.failure' ? failureOutcome(details) : null);
    if (signIn) this.signIns.inc({ outcome: signIn });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}

/** A refused attempt: which kind (fixed values; the details come from GuessingDefence and CredentialsService). */
function failureOutcome(details: Record<string, unknown>): string {
  if (details.reason === 'locked') return 'locked';
  if (details.reason === 'unknown_account') return 'unknown_account';
  return details.factor === 'password' ? 'wrong_password' : 'wrong_code';
}
