import { jest } from '@jest/globals';
import { expectFieldErrors, useControllerSpec } from '../../../test/utils/controller-spec-suite.js';
import { AuditController } from './audit.controller.js';
import { AuditQueryService } from './audit-query.service.js';

const AUDIT = '/API/audit/v1/events/';

describe('AuditController (HTTP layer, faked service)', () => {
  const service = { list: jest.fn(async () => ({ objects: [] })) };
  const s = useControllerSpec({
    controllers: [AuditController],
    providers: [{ provide: AuditQueryService, useValue: service }],
    callers: { member: { roles: ['can_read_users'] } },
  });

  it('needs a token (401); OAuth tokens are not accepted here (LOGIN and PAT only)', async () => {
    await s.http.get(AUDIT).expect(401);
    await s.http.get(AUDIT).set(s.as('impersonation')).expect(401);
    await s.http.get(AUDIT).set(s.as('temp')).expect(401);
  });

  it('is for administrators: a member with roles and a PAT capped below administrator get 403', async () => {
    for (const who of ['member', 'user', 'pat'] as const) {
      const res = await s.http.get(AUDIT).set(s.as(who)).expect(403);
      expect(res.body).toEqual({ errors: ['Requires an administrator'] });
    }
    expect(service.list).not.toHaveBeenCalled();
  });

  it('passes the caller, the parsed filters and the path to the service', async () => {
    const actor = '44444444-4444-4444-8444-444444444444';
    await s.http.get(AUDIT).set(s.as('admin')).query({ actor_user_id: actor, per_page: '5' }).expect(200);
    expect(service.list).toHaveBeenCalledWith(
      s.callers.admin,
      expect.objectContaining({ actor_user_id: actor, per_page: 5 }),
      AUDIT,
    );
  });

  it.each([
    [{ actor_user_id: "' OR 1=1 --" }, 'actor_user_id'],
    [{ action: 'DROP TABLE audit_events' }, 'action'],
    [{ from: 'yesterday' }, 'from'],
    [{ per_page: '0' }, 'per_page'],
    [{ to: 'a\u0000b' }, 'to'],
  ])('refuses the filter %j with 400 naming %s', async (q, field) => {
    await expectFieldErrors(s.http.get(AUDIT).set(s.as('admin')).query(q), [field], 'in order');
    expect(service.list).not.toHaveBeenCalled();
  });
});
