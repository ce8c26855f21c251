import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AuditRecord } from './audit-record-sql.js';
import { OUTSIDE_REQUEST } from './audit-origin.js';
import { AuditService, type AuditEntry } from './audit.service.js';
import { fixedClock, repoWithTransaction } from '../../../test/utils/fakes.js';
import { MANAGER, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const TX = { tx: true };

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  systemDomainId: 'd1',
  action: 'app.created',
  targetType: 'app',
  targetId: 'a1',
  outcome: 'success',
  ...over,
});

function setup() {
  const repo = repoWithTransaction(TX, {
    manager: MANAGER,
    record: jest.fn(async (_em: unknown, rows: AuditRecord[]) => rows.length * 2),
    recordCommitted: jest.fn(async (rows: AuditRecord[]) => rows.length),
  });
  const events = { deliveriesRecorded: jest.fn() };
  const metrics = { audited: jest.fn() };
  const service = construct(AuditService, repo, events, fixedClock(NOW), metrics);
  return { service, repo, events, metrics };
}

describe('AuditService', () => {
  it('inside a transaction: one statement through its manager; the deliveries nudged and the record counted', async () => {
    const s = setup();
    await s.service.record(TX as never, OUTSIDE_REQUEST, entry());
    expect(s.repo.record).toHaveBeenCalledWith(TX, [expect.objectContaining({ entry: entry(), at: NOW })]);
    expect(s.repo.recordCommitted).not.toHaveBeenCalled();
    expect(s.events.deliveriesRecorded).toHaveBeenCalledWith(TX, 2);
    expect(s.metrics.audited).toHaveBeenCalledWith('app.created', 'success', {});
  });

  it('outside a transaction: records of one event-loop turn share one committed statement', async () => {
    const s = setup();
    await Promise.all([
      s.service.record(MANAGER as never, OUTSIDE_REQUEST, entry({ targetId: 'a1' })),
      s.service.record(MANAGER as never, OUTSIDE_REQUEST, entry({ targetId: 'a2' })),
    ]);
    expect(s.repo.record).not.toHaveBeenCalled();
    expect(s.repo.recordCommitted).toHaveBeenCalledTimes(1);
    const [rows] = s.repo.recordCommitted.mock.calls[0];
    expect(rows.map((r) => r.entry.targetId)).toEqual(['a1', 'a2']);
    expect(s.events.deliveriesRecorded).toHaveBeenCalledWith(MANAGER, 2);
    expect(s.metrics.audited).toHaveBeenCalledTimes(2);
  });

  it('recordAlone writes the record in a transaction of its own', async () => {
    const s = setup();
    await s.service.recordAlone(OUTSIDE_REQUEST, entry({ action: 'signin.failure', outcome: 'failure' }));
    expect(s.repo.transaction).toHaveBeenCalledTimes(1);
    expect(s.repo.record).toHaveBeenCalledWith(TX, [
      expect.objectContaining({ entry: expect.objectContaining({ action: 'signin.failure' }) }),
    ]);
  });

  it('change: the caller as actor, in their domain, a success', async () => {
    const s = setup();
    const auth = {
      userId: 'u1',
      appId: 'app0',
      kind: 'LOGIN',
      requestId: 'r1',
      clientAddress: '203.0.113.7',
      systemDomainId: 'd1',
    } as AuthContext;
    await s.service.change(
      TX as never,
      auth,
      'webhook.changed',
      { type: 'webhook', id: 'w1' },
      { operation: 'create' },
    );
    const [, [row]] = s.repo.record.mock.calls[0];
    expect(row.origin).toEqual({
      actorUserId: 'u1',
      actorAppId: 'app0',
      actorKind: 'LOGIN',
      requestId: 'r1',
      clientAddress: '203.0.113.7',
    });
    expect(row.entry).toEqual({
      systemDomainId: 'd1',
      action: 'webhook.changed',
      targetType: 'webhook',
      targetId: 'w1',
      outcome: 'success',
      details: { operation: 'create' },
    });
  });

  it('prepare: a fresh id each time, the clock’s time, and details without secret-looking keys', () => {
    const s = setup();
    const a = s.service.prepare(
      OUTSIDE_REQUEST,
      entry({ details: { field: 'name', client_secret: 'x', password: 'y' } }),
    );
    const b = s.service.prepare(OUTSIDE_REQUEST, entry());
    expect(a.id).not.toBe(b.id);
    expect(a.at).toBe(NOW);
    expect(a.details).toEqual({ field: 'name' });
  });
});
