import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { adminContext, transactionalRepo, uniqueViolation } from '../../../test/utils/fakes.js';
import { EM } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { accountRow as account } from '../../../test/utils/fakes/accounts.js';

// the user's memberships are read through the users' repository in the same transaction: faked here
jest.unstable_mockModule('../../accounts/users/user-memberships.js', () => ({
  withMemberships: jest.fn(async (_em: unknown, _d: string, users: object[]) =>
    users.map((u) => ({ ...u, groups: [] })),
  ),
}));
const { UserSamlIdentityService } = await import('./user-saml-identity.service.js');

const UNIQUE = uniqueViolation();
const body = { identity_provider_id: 'i1', email: 'ada@corp.test' };

const caller = (over: Partial<AuthContext> = {}) =>
  adminContext({ record: { vouched_by_tenant: false }, ...over });

function setup(
  o: {
    member?: { user: UserEntity; isAdmin: boolean; otherDomains: boolean } | null;
    idpInDomain?: boolean;
  } = {},
) {
  const order: string[] = [];
  const repo = transactionalRepo(order, EM, {
    memberOf: jest.fn(async (_em: unknown, _u: string, _d: string) =>
      o.member === undefined ? { user: account(), isAdmin: false, otherDomains: false } : o.member,
    ),
    idpInDomain: jest.fn(async (_em: unknown, _i: string, _d: string) => o.idpInDomain ?? true),
    setUserIdentity: jest.fn(async (_em: unknown, _r: Record<string, unknown>) => {
      order.push('set');
    }),
    removeUserIdentity: jest.fn(async (_em: unknown, _u: string, _d: string) => {
      order.push('remove');
      return true;
    }),
  });
  const events = {
    record: jest.fn(async (_em: unknown, _e: Record<string, unknown>) => {
      order.push('event');
    }),
  };
  const audit = {
    change: jest.fn(async (..._a: unknown[]) => {
      order.push('audit');
    }),
  };
  const service = construct(UserSamlIdentityService, events, audit, repo);
  return { service, repo, events, audit, order };
}

describe('UserSamlIdentityService: an administrator links', () => {
  it('links an account the domain owns: the identity, its event and audit in one transaction', async () => {
    const s = setup();
    const view = await s.service.set(caller(), 'u2', body);
    expect(s.repo.setUserIdentity).toHaveBeenCalledWith(EM, {
      userId: 'u2',
      systemDomainId: 'd1',
      idpId: 'i1',
      email: 'ada@corp.test',
      bySelf: false,
    });
    expect(s.order).toEqual(['begin', 'set', 'event', 'audit', 'commit']);
    expect(s.events.record.mock.calls[0][1]).toMatchObject({
      realm: 'user',
      operation: 'update',
      objectId: 'u2',
      data: { saml_identity: 'set', identity_provider_id: 'i1', linked_by_self: false },
    });
    expect(view).toMatchObject({ id: 'u2', email: 'ada@corp.test' });
  });

  it('refuses an account that is not the domain’s alone (other domains, or a super administrator)', async () => {
    for (const member of [
      { user: account(), isAdmin: false, otherDomains: true },
      { user: account({ is_super_admin: true }), isAdmin: false, otherDomains: false },
    ]) {
      const s = setup({ member });
      await expect(s.service.set(caller(), 'u2', body)).rejects.toMatchObject({
        code: 'identity_providers.SAML_SHARED_ACCOUNT',
      });
      expect(s.repo.setUserIdentity).not.toHaveBeenCalled();
    }
  });

  it('answers NOT_FOUND for a user outside the domain, and for an IdP of another domain', async () => {
    const s = setup({ member: null });
    await expect(s.service.set(caller(), 'u2', body)).rejects.toMatchObject({ code: 'users.NOT_FOUND' });
    const t = setup({ idpInDomain: false });
    await expect(t.service.set(caller(), 'u2', body)).rejects.toMatchObject({
      code: 'identity_providers.NOT_FOUND',
    });
    expect(t.repo.idpInDomain).toHaveBeenCalledWith(EM, 'i1', 'd1');
    expect(t.repo.setUserIdentity).not.toHaveBeenCalled();
  });

  it('answers SAML_IDENTITY_TAKEN when another user holds that identity; other errors pass', async () => {
    const s = setup();
    s.repo.setUserIdentity.mockRejectedValue(UNIQUE);
    await expect(s.service.set(caller(), 'u2', body)).rejects.toMatchObject({
      code: 'identity_providers.SAML_IDENTITY_TAKEN',
    });
    const boom = new Error('down');
    s.repo.setUserIdentity.mockRejectedValue(boom);
    await expect(s.service.set(caller(), 'u2', body)).rejects.toBe(boom);
  });
});

describe('UserSamlIdentityService: the person links their own account', () => {
  it('may link a shared account (theirs), marked as linked by self', async () => {
    const s = setup({ member: { user: account({ id: 'u1' }), isAdmin: false, otherDomains: true } });
    await s.service.setOwn(caller(), body);
    expect(s.repo.memberOf).toHaveBeenCalledWith(EM, 'u1', 'd1');
    expect(s.repo.setUserIdentity.mock.calls[0][1]).toMatchObject({ userId: 'u1', bySelf: true });
  });

  it('refuses from a sign-in a tenant vouched for (single sign-on), before any transaction', async () => {
    const s = setup();
    await expect(
      s.service.setOwn(caller({ record: { vouched_by_tenant: true } } as Partial<AuthContext>), body),
    ).rejects.toMatchObject({ code: 'identity_providers.SAML_SELF_LINK_SERVICE_SIGN_IN' });
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('removes their own link, whoever made it, even on a shared account', async () => {
    const s = setup({ member: { user: account({ id: 'u1' }), isAdmin: false, otherDomains: true } });
    await s.service.removeOwn(caller());
    expect(s.repo.removeUserIdentity).toHaveBeenCalledWith(EM, 'u1', 'd1');
    expect(s.order).toEqual(['begin', 'remove', 'event', 'audit', 'commit']);
  });
});

describe('UserSamlIdentityService.remove', () => {
  it('an administrator removes only the domain’s own account’s link; a super administrator any', async () => {
    const shared = { user: account(), isAdmin: false, otherDomains: true };
    const s = setup({ member: shared });
    await expect(s.service.remove(caller(), 'u2')).rejects.toMatchObject({
      code: 'identity_providers.SAML_SHARED_ACCOUNT',
    });
    expect(s.repo.removeUserIdentity).not.toHaveBeenCalled();
    const t = setup({ member: shared });
    await t.service.remove(caller({ isSuperAdmin: true }), 'u2');
    expect(t.repo.removeUserIdentity).toHaveBeenCalledWith(EM, 'u2', 'd1');
    expect(t.events.record.mock.calls[0][1]).toMatchObject({
      data: { saml_identity: 'removed', identity_provider_id: null, linked_by_self: false },
    });
  });

  it('answers NO_SAML_IDENTITY when there is none, and records nothing', async () => {
    const s = setup();
    s.repo.removeUserIdentity.mockResolvedValue(false);
    await expect(s.service.remove(caller(), 'u2')).rejects.toMatchObject({
      code: 'identity_providers.NO_SAML_IDENTITY',
    });
    expect(s.events.record).not.toHaveBeenCalled();
    expect(s.audit.change).not.toHaveBeenCalled();
  });
});
