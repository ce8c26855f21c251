import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { PartnerAccessService } from './partner-access.service.js';
import {
  adminContext,
  recordingAudit,
  recordingEvents,
  transactionalRepo,
} from '../../../test/utils/fakes.js';
import { EM } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { err, expectAudited, expectEvent } from '../../../test/utils/fakes/expect.js';

const BODY = { customer_domain_id: 'cust', partner_domain_id: 'part' };

const caller = (over: Partial<AuthContext> = {}) =>
  adminContext({ userId: 'admin', systemDomainId: 'cust', ...over });

function setup(o: { partnerType?: string; added?: string[]; hadGrant?: boolean; removed?: string[] } = {}) {
  const order: string[] = [];
  const memberships = transactionalRepo(order, EM, {
    lockDomain: jest.fn(async () => void order.push('lockDomain')),
    liveDomainType: jest.fn(async () => ('partnerType' in o ? o.partnerType : 'PARTNER')),
    grantPartnerAccess: jest.fn(async () => {
      order.push('grant');
      return (o.added ?? ['p1']).map((user_id) => ({ user_id }));
    }),
    deletePartnerGrant: jest.fn(async () => {
      order.push('deleteGrant');
      return o.hadGrant ?? true;
    }),
    removePartnerMembers: jest.fn(async () => {
      order.push('removeMembers');
      return (o.removed ?? ['p1']).map((user_id) => ({ user_id }));
    }),
  });
  const events = recordingEvents(order);
  const audit = recordingAudit(order);
  const service = construct(PartnerAccessService, events, audit, memberships);
  return { service, memberships, events, audit, order };
}

/** The customer domain's audit record of a grant or a revoke. */
const domainAudited = (s: ReturnType<typeof setup>, details: object) =>
  expectAudited(s.audit, EM, 'domain.changed', { type: 'system_domain', id: 'cust' }, details);

describe('PartnerAccessService.grant', () => {
  it('locks the customer domain first, then grants, records one event per user added and the audit, in one transaction', async () => {
    const s = setup({ added: ['p1', 'p2'] });
    await expect(s.service.grant(caller(), BODY)).resolves.toEqual({ ...BODY, users_added: 2 });
    expect(s.memberships.lockDomain).toHaveBeenCalledWith(EM, 'cust');
    expect(s.memberships.liveDomainType).toHaveBeenCalledWith(EM, 'part');
    expect(s.memberships.grantPartnerAccess).toHaveBeenCalledWith(EM, 'cust', 'part', 'admin');
    expect(s.order).toEqual(['begin', 'lockDomain', 'grant', 'event', 'event', 'audit', 'commit']);
    expect(s.events.record).toHaveBeenCalledWith(EM, {
      systemDomainId: 'cust',
      objectId: 'p2',
      realm: 'user',
      operation: 'create',
      eventType: 'users',
      data: { id: 'p2', via_partner_domain_id: 'part' },
      requestId: 'r1',
    });
    domainAudited(s, { partner_access: 'granted', partner_domain_id: 'part', users: 2 });
  });

  it('granting again adds nobody and is no error', async () => {
    const s = setup({ added: [] });
    await expect(s.service.grant(caller(), BODY)).resolves.toEqual({ ...BODY, users_added: 0 });
    expect(s.events.record).not.toHaveBeenCalled();
  });

  it('only for the caller’s own domain (a partner cannot let itself in), unless a super administrator', async () => {
    const s = setup();
    await expect(s.service.grant(caller({ systemDomainId: 'part' }), BODY)).rejects.toEqual(
      err(403, 'users.PARTNER_CUSTOMER_ONLY'),
    );
    await expect(s.service.revoke(caller({ systemDomainId: 'part' }), BODY)).rejects.toEqual(
      err(403, 'users.PARTNER_CUSTOMER_ONLY'),
    );
    expect(s.memberships.transaction).not.toHaveBeenCalled();
    await s.service.grant(caller({ systemDomainId: 'elsewhere', isSuperAdmin: true }), BODY);
    expect(s.memberships.grantPartnerAccess).toHaveBeenCalled();
  });

  it('the partner must be a live domain (404) of type PARTNER, not the customer itself (400); nothing is written', async () => {
    let s = setup({ partnerType: undefined });
    await expect(s.service.grant(caller(), BODY)).rejects.toEqual(err(404, 'users.PARTNER_NOT_FOUND'));
    expect(s.memberships.grantPartnerAccess).not.toHaveBeenCalled();
    s = setup({ partnerType: 'CUSTOMER' });
    await expect(s.service.grant(caller(), BODY)).rejects.toEqual(err(400, 'users.PARTNER_NOT_PARTNER'));
    expect(s.memberships.grantPartnerAccess).not.toHaveBeenCalled();
    s = setup({ partnerType: 'PARTNER' });
    await expect(
      s.service.grant(caller({ systemDomainId: 'part' }), {
        customer_domain_id: 'part',
        partner_domain_id: 'part',
      }),
    ).rejects.toEqual(err(400, 'users.PARTNER_NOT_PARTNER'));
    expect(s.memberships.grantPartnerAccess).not.toHaveBeenCalled();
    expect(s.events.record).not.toHaveBeenCalled();
  });
});

describe('PartnerAccessService.revoke', () => {
  it('deletes the grant and exactly the memberships it made, one event each and the audit, in one transaction', async () => {
    const s = setup({ removed: ['p1'] });
    await s.service.revoke(caller(), BODY);
    expect(s.memberships.deletePartnerGrant).toHaveBeenCalledWith(EM, 'cust', 'part');
    expect(s.memberships.removePartnerMembers).toHaveBeenCalledWith(EM, 'cust', 'part');
    expect(s.order).toEqual([
      'begin',
      'lockDomain',
      'deleteGrant',
      'removeMembers',
      'event',
      'audit',
      'commit',
    ]);
    expectEvent(s.events, EM, { operation: 'delete', objectId: 'p1' });
    domainAudited(s, { partner_access: 'revoked', partner_domain_id: 'part', users: 1 });
  });

  it('404 when there is no such grant, and no membership is touched', async () => {
    const s = setup({ hadGrant: false });
    await expect(s.service.revoke(caller(), BODY)).rejects.toEqual(err(404, 'users.PARTNER_NO_ACCESS'));
    expect(s.memberships.removePartnerMembers).not.toHaveBeenCalled();
    expect(s.audit.change).not.toHaveBeenCalled();
  });
});
