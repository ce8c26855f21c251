import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { DomainScheduleWorker } from './domain-schedule.worker.js';
import type { ScheduledChange, SystemDomainsRepository } from './system-domains.repository.js';
import { BUILTIN_APP_NAME, SystemDomainsService } from './system-domains.service.js';
import { fixedClock, recordingEvents, repoWithTransaction } from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';

const EM = { em: true } as unknown as EntityManager;

function worker(rounds: ScheduledChange[][]) {
  const repo = repoWithTransaction(EM, {
    applyPassedDates: jest.fn(async () => rounds.shift() ?? []),
  });
  const events = recordingEvents();
  const w = new DomainScheduleWorker(
    repo as unknown as SystemDomainsRepository,
    { intervalMs: 60_000 },
    fixedClock(NOW),
    events as unknown as WebhookEventsService,
  );
  return { w, repo, events };
}

describe('DomainScheduleWorker.runOnce', () => {
  it('announces each carried-out date as a system_domain event in the round that made it', async () => {
    const { w, repo, events } = worker([
      [
        { id: 'd1', status: 'FROZEN', previous_status: 'ACTIVE' },
        { id: 'd2', status: 'DEACTIVATED', previous_status: 'WARNING' },
      ],
    ]);
    expect(await w.runOnce()).toEqual(['d1', 'd2']);
    expect(repo.applyPassedDates).toHaveBeenCalledWith(EM, NOW, 100);
    expect(events.record).toHaveBeenCalledTimes(2);
    expect(events.record).toHaveBeenLastCalledWith(EM, {
      systemDomainId: 'd2',
      objectId: 'd2',
      realm: 'system_domain',
      operation: 'update',
      eventType: 'system_domains',
      data: { id: 'd2', status: 'DEACTIVATED', previous_status: 'WARNING', reason: 'scheduled' },
      requestId: null,
    });
  });

  it('records nothing when no date has passed, and does nothing once stopped', async () => {
    const idle = worker([]);
    expect(await idle.w.runOnce()).toEqual([]);
    expect(idle.events.record).not.toHaveBeenCalled();
    const stopped = worker([[{ id: 'd1', status: 'FROZEN', previous_status: 'ACTIVE' }]]);
    await stopped.w.beforeApplicationShutdown();
    expect(await stopped.w.runOnce()).toEqual([]);
    expect(stopped.repo.transaction).not.toHaveBeenCalled();
  });

  it('lets an event failure roll the round back (the error reaches the transaction)', async () => {
    const { w, events } = worker([[{ id: 'd1', status: 'FROZEN', previous_status: 'ACTIVE' }]]);
    events.record.mockRejectedValueOnce(new Error('outbox down'));
    await expect(w.runOnce()).rejects.toThrow('outbox down');
  });
});

describe('SystemDomainsService.builtinAppId', () => {
  it('answers the built-in app of a live domain and 401 for a deactivated or unknown one', async () => {
    const repo = {
      builtinAppOfLiveDomain: jest.fn(async (_em: unknown, id: string) => (id === 'd1' ? 'app1' : undefined)),
    };
    const service = new SystemDomainsService(repo as unknown as SystemDomainsRepository);
    expect(await service.builtinAppId(EM, 'd1')).toBe('app1');
    await expect(service.builtinAppId(EM, 'd2')).rejects.toMatchObject({ status: 401 });
    expect(repo.builtinAppOfLiveDomain).toHaveBeenCalledWith(EM, 'd2');
  });
});

describe('SystemDomainsService.create', () => {
  it('creates the domain and its built-in sign-in app in the caller’s transaction', async () => {
    const repo = {
      createDomain: jest.fn(async (_em: unknown, f: object) => ({ ...f, id: 'd9' })),
      insertBuiltinApp: jest.fn(async () => undefined),
    };
    const service = new SystemDomainsService(repo as unknown as SystemDomainsRepository);
    const d = await service.create(EM, { name: 'Acme', base_url: 'https://a.test' });
    expect(d).toEqual({ name: 'Acme', base_url: 'https://a.test', id: 'd9' });
    expect(repo.createDomain).toHaveBeenCalledWith(EM, { name: 'Acme', base_url: 'https://a.test' });
    expect(repo.insertBuiltinApp).toHaveBeenCalledWith(EM, 'd9', BUILTIN_APP_NAME);
  });
});
