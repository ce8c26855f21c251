import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AuditEventEntity } from '../../base/model/audit-event.entity.js';
import { AuditQueryService } from './audit-query.service.js';
import type { AuditEventListQueryDto } from './dto/audit-event.dto.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { adminContext } from '../../../test/utils/fakes.js';

const AT = new Date('2026-05-01T12:00:00Z');

/** The fields of a record the wire shape passes on as they are stored. */
const PASSED_ON = {
  action: 'app.created',
  target_type: 'app',
  target_id: 'a2',
  outcome: 'success',
  request_id: 'r1',
  client_address: '203.0.113.7',
  details: { type: 'PAT' },
};

const record = (over: Partial<AuditEventEntity> = {}): AuditEventEntity =>
  ({
    id: 'e1',
    date_created: AT,
    system_domain_id: 'd1',
    actor_user_id: 'u1',
    actor_app_id: 'a1',
    actor_kind: 'LOGIN',
    ...PASSED_ON,
    ...over,
  }) as AuditEventEntity;

const caller = (over: Partial<AuthContext> = {}) => adminContext(over);

const query = (over: Partial<AuditEventListQueryDto> = {}) =>
  ({ page: 1, per_page: 10, ...over }) as AuditEventListQueryDto;

/** A query builder that pageList can order and page: it answers `rows`. */
function fakeQb(rows: AuditEventEntity[]) {
  const qb = {
    addOrderBy: jest.fn(() => qb),
    offset: jest.fn(() => qb),
    limit: jest.fn(() => qb),
    getManyAndCount: jest.fn(async () => [rows, rows.length]),
  };
  return qb;
}

function setup(rows: AuditEventEntity[] = [record()]) {
  const qb = fakeQb(rows);
  const repo = { search: jest.fn((_f: object) => qb) };
  const service = construct(AuditQueryService, repo);
  return { service, repo, qb };
}

describe('AuditQueryService.list', () => {
  it('a domain administrator reads their own domain, whatever they ask for it', async () => {
    const s = setup();
    await s.service.list(caller(), query(), '/API/audit/v1/events/');
    expect(s.repo.search).toHaveBeenCalledWith(expect.objectContaining({ domain: 'd1' }));
    await s.service.list(caller(), query({ system_domain_id: 'd1' }), '/p');
    expect(s.repo.search).toHaveBeenLastCalledWith(expect.objectContaining({ domain: 'd1' }));
  });

  it('another domain: refused (403) to its administrators, before anything is read', async () => {
    const s = setup();
    await expect(async () =>
      s.service.list(caller(), query({ system_domain_id: 'd2' }), '/p'),
    ).rejects.toEqual(expect.objectContaining({ status: 403, code: 'audit.OTHER_DOMAIN' }));
    expect(s.repo.search).not.toHaveBeenCalled();
  });

  it('a super administrator reads the domain named, or every domain when none is', async () => {
    const s = setup();
    await s.service.list(caller({ isSuperAdmin: true }), query({ system_domain_id: 'd2' }), '/p');
    expect(s.repo.search).toHaveBeenLastCalledWith(expect.objectContaining({ domain: 'd2' }));
    await s.service.list(caller({ isSuperAdmin: true }), query(), '/p');
    expect(s.repo.search).toHaveBeenLastCalledWith(expect.objectContaining({ domain: null }));
  });

  it('passes the filters on, the times as dates; absent filters stay absent', async () => {
    const s = setup();
    await s.service.list(
      caller(),
      query({
        actor_user_id: 'u9',
        actor_app_id: 'a9',
        action: 'token.revoked',
        from: '2026-01-01T00:00:00Z',
        to: '2026-02-01T00:00:00Z',
      }),
      '/p',
    );
    expect(s.repo.search).toHaveBeenCalledWith({
      domain: 'd1',
      actorUserId: 'u9',
      actorAppId: 'a9',
      action: 'token.revoked',
      from: new Date('2026-01-01T00:00:00Z'),
      to: new Date('2026-02-01T00:00:00Z'),
    });
    await s.service.list(caller(), query(), '/p');
    expect(s.repo.search).toHaveBeenLastCalledWith({
      domain: 'd1',
      actorUserId: undefined,
      actorAppId: undefined,
      action: undefined,
      from: undefined,
      to: undefined,
    });
  });

  it('newest first by default (id breaks ties), sortable only on the allowed fields', async () => {
    const s = setup();
    await s.service.list(caller(), query(), '/p');
    expect(s.qb.addOrderBy.mock.calls).toEqual([
      ['a.date_created', 'DESC'],
      ['a.id', 'ASC'],
    ]);
    const t = setup();
    await t.service.list(caller(), query({ sort: 'action,asc' }), '/p');
    expect(t.qb.addOrderBy.mock.calls[0]).toEqual(['a.action', 'ASC']);
    await expect(t.service.list(caller(), query({ sort: 'client_address,asc' }), '/p')).rejects.toEqual(
      expect.objectContaining({ status: 400 }),
    );
  });

  it('answers each record in the wire shape: the actor grouped, the date as text', async () => {
    const s = setup();
    const out = await s.service.list(caller(), query({ action: 'app.created' }), '/p');
    expect(out.objects).toEqual([
      {
        id: 'e1',
        date_created: '2026-05-01T12:00:00.000000+00:00',
        system_domain_id: 'd1',
        actor: { user_id: 'u1', app_id: 'a1', kind: 'LOGIN' },
        ...PASSED_ON,
      },
    ]);
    expect(out.total).toBe(1);
  });
});
