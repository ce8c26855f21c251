import { jest } from '@jest/globals';
import type { EntityManager, QueryRunner } from 'typeorm';
import { WebhookEventsService, type WebhookEvent } from '../events/webhook-events.service.js';
import type { EventsRepository } from '../events/events.repository.js';
import type { WebhookSecrets } from './webhook-secrets.js';
import { FAILING_AFTER, WebhookWorker } from './webhook-worker.service.js';
import type { ClaimedDelivery, WebhooksRepository } from './webhooks.repository.js';
import { fixedClock, repoWithTransaction } from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';

const clock = fixedClock(NOW);
const EVENT: WebhookEvent = {
  systemDomainId: 'd1',
  objectId: null,
  realm: null,
  operation: 'update',
  eventType: 'users',
  data: { id: 'u1' },
  requestId: 'r1',
};

function events(queued: number) {
  const listeners: ((runner: QueryRunner) => void)[] = [];
  const repo = {
    recordEvent: jest.fn(async () => queued),
    afterEveryCommit: (listener: (runner: QueryRunner) => void) => listeners.push(listener),
  };
  const service = new WebhookEventsService(clock, repo as unknown as EventsRepository);
  const nudged = jest.fn();
  service.onCommitted(nudged);
  const commit = (queryRunner: QueryRunner) => listeners[0](queryRunner);
  return { service, repo, nudged, commit };
}

describe('WebhookEventsService.record', () => {
  it('records the event at the clock time in the given transaction', async () => {
    const { service, repo } = events(0);
    const em = { queryRunner: undefined } as unknown as EntityManager;
    await service.record(em, EVENT);
    expect(repo.recordEvent).toHaveBeenCalledWith(em, { ...EVENT, at: NOW });
  });

  it('nudges the worker only after the commit of a transaction that queued deliveries', async () => {
    const { service, nudged, commit } = events(2);
    const runner = { isTransactionActive: true } as QueryRunner;
    await service.record({ queryRunner: runner } as unknown as EntityManager, EVENT);
    expect(nudged).not.toHaveBeenCalled();
    commit({ isTransactionActive: false } as QueryRunner); // another transaction's commit
    expect(nudged).not.toHaveBeenCalled();
    commit(runner);
    expect(nudged).toHaveBeenCalledTimes(1);
    commit(runner); // told once per recording transaction
    expect(nudged).toHaveBeenCalledTimes(1);
  });

  it('nudges at once outside a transaction, and never when nothing was queued', async () => {
    const queuedNone = events(0);
    await queuedNone.service.record({ queryRunner: undefined } as unknown as EntityManager, EVENT);
    expect(queuedNone.nudged).not.toHaveBeenCalled();
    const queuedOne = events(1);
    await queuedOne.service.record({ queryRunner: undefined } as unknown as EntityManager, EVENT);
    expect(queuedOne.nudged).toHaveBeenCalledTimes(1);
  });
});

describe('WebhookWorker after a failed attempt', () => {
  const EM = { em: true } as unknown as EntityManager;
  const webhooks = {
    allowPrivate: false,
    timeoutMs: 1000,
    pollIntervalMs: 60_000,
    retryBaseMs: 1000,
    retryMaxMs: 1000,
    disableAfterSeconds: 3600,
  };

  function worker(state: { status: string; consecutive_failures: number } | undefined) {
    const repo = repoWithTransaction(EM, {
      recordAttemptFailed: jest.fn(async () => undefined),
      countFailure: jest.fn(async () => state),
      giveUpPending: jest.fn(async () => undefined),
    });
    const w = new WebhookWorker(
      repo as unknown as WebhooksRepository,
      webhooks,
      clock,
      {} as WebhookSecrets,
      { onCommitted: () => undefined } as unknown as WebhookEventsService,
    );
    const failed = (c: Partial<ClaimedDelivery>) =>
      (w as unknown as { failed: (c: object, r: object, m: object) => Promise<void> }).failed(
        { id: 'del1', webhook_id: 'w1', attempts: 1, ...c },
        { ok: false, status: 500, durationMs: 12, error: null },
        { data: 1 },
      );
    return { w, repo, failed };
  }

  it('keeps a recent delivery pending with a backoff and counts the failure against the webhook', async () => {
    const { repo, failed } = worker({ status: 'ENABLED', consecutive_failures: 1 });
    await failed({ queued_at: new Date(NOW.getTime() - 60_000) });
    expect(repo.recordAttemptFailed).toHaveBeenCalledWith(EM, 'del1', 'PENDING', expect.any(Date), {
      status: 500,
      durationMs: 12,
      error: 'HTTP 500',
    });
    const next = (repo.recordAttemptFailed.mock.calls[0] as unknown[])[3] as Date;
    expect(next.getTime()).toBeGreaterThan(NOW.getTime());
    expect(repo.countFailure).toHaveBeenCalledWith(EM, {
      webhookId: 'w1',
      now: NOW,
      error: 'HTTP 500',
      payload: { data: 1 },
      failingAfter: FAILING_AFTER,
      disableBefore: new Date(NOW.getTime() - 3600_000),
    });
    expect(repo.giveUpPending).not.toHaveBeenCalled();
  });

  it('gives a delivery up once it has been queued past the horizon', async () => {
    const { repo, failed } = worker({ status: 'FAILING', consecutive_failures: 5 });
    await failed({ queued_at: new Date(NOW.getTime() - 3600_000).toISOString() });
    expect((repo.recordAttemptFailed.mock.calls[0] as unknown[])[2]).toBe('FAILED');
    expect(repo.giveUpPending).not.toHaveBeenCalled();
  });

  it('gives up every pending delivery of a webhook the failure disabled', async () => {
    const { repo, failed } = worker({ status: 'DISABLED', consecutive_failures: 9 });
    await failed({ queued_at: NOW });
    expect(repo.giveUpPending).toHaveBeenCalledWith(EM, 'w1', 'disabled');
  });

  it('leaves the queue alone when the webhook no longer delivers', async () => {
    const { repo, failed } = worker(undefined);
    await failed({ queued_at: NOW });
    expect(repo.giveUpPending).not.toHaveBeenCalled();
  });
});
