import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { IdentityProviderDomainEntity } from '../../base/model/identity-provider.entity.js';
import { DnsUnavailableError } from './dns-txt.js';
import type { AuthenticatorColumn, BindingKey } from './domain-bindings.repository.js';
import { DomainBindingsService } from './domain-bindings.service.js';
import { adminContext, repoWithTransaction, uniqueViolation, wire } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const UNIQUE = uniqueViolation();
const admin = adminContext();
const superAdmin = { ...admin, isSuperAdmin: true } as AuthContext;
const bind = { domain: ' Corp.TEST ', identity_provider_id: 'i1' };

/** The authenticators of domain d1, by the column that names each kind (another domain has 'i9'). */
const AUTHENTICATORS: Record<AuthenticatorColumn, string[]> = {
  identity_provider_id: ['i1', 'i2'],
  directory_id: ['dir1'],
  oidc_provider_id: ['op1'],
};

/** corp.test claimed by d1 for its IdP i1, not verified yet. */
const CLAIMED = {
  domain: 'corp.test',
  system_domain_id: 'd1',
  identity_provider_id: 'i1',
  directory_id: null,
  oidc_provider_id: null,
  verified_at: null,
};

const binding = (over: Partial<IdentityProviderDomainEntity> = {}) =>
  ({
    ...CLAIMED,
    challenge_token: 'tok',
    date_created: NOW,
    ...over,
  }) as IdentityProviderDomainEntity;

function setup(
  o: { rows?: IdentityProviderDomainEntity[]; contested?: number; elsewhere?: boolean; txt?: string[] } = {},
) {
  const rows = [...(o.rows ?? [])];
  const find = (k: BindingKey) =>
    rows.find((r) => r.domain === k.domain && r.system_domain_id === k.system_domain_id);
  const repo = repoWithTransaction(EM, {
    manager: EM,
    authenticatorOfDomain: jest.fn(async (column: AuthenticatorColumn, id: string, d: string) =>
      d === 'd1' && AUTHENTICATORS[column].includes(id) ? { system_domain_id: 'd1' } : null,
    ),
    binding: jest.fn(async (k: BindingKey) => find(k) ?? null),
    bindingOrFail: jest.fn(async (_em: unknown, k: BindingKey) => find(k)!),
    bindingsNamed: jest.fn(async (_em: unknown, domain: string, d?: string) =>
      rows.filter((r) => r.domain === domain && (d === undefined || r.system_domain_id === d)),
    ),
    removeBinding: jest.fn(async (_em: unknown, _k: BindingKey) => undefined),
    contestedUsers: jest.fn(async (..._a: unknown[]) => o.contested ?? 0),
    verifiedElsewhere: jest.fn(async (..._a: unknown[]) => o.elsewhere ?? false),
    claim: jest.fn(async (_em: unknown, row: IdentityProviderDomainEntity) => {
      rows.push({ ...row, date_created: NOW });
    }),
    markVerified: jest.fn(async (_em: unknown, domain: string, d: string) => {
      const r = find({ domain, system_domain_id: d });
      if (r && !r.verified_at) r.verified_at = NOW;
    }),
  });
  const access = { require: jest.fn(async (..._a: unknown[]) => undefined) };
  const audit = {
    record: jest.fn(async (_em: unknown, _o: unknown, _e: Record<string, unknown>) => undefined),
  };
  const dns = { lookup: jest.fn(async (_n: string) => o.txt ?? []) };
  const service = construct(DomainBindingsService, access, audit, repo, dns);
  return { service, repo, access, audit, dns, rows };
}

const details = (s: ReturnType<typeof setup>) => s.audit.record.mock.calls.map((c) => c[2].details);

describe('DomainBindingsService.bind', () => {
  it('claims the name for an IdP, normalised, unverified and with its challenge, and audits it', async () => {
    const s = setup();
    const view = await s.service.bind(admin, bind);
    expect(s.access.require).toHaveBeenCalledWith(admin, 'identity_provider', ['i1']);
    expect(s.repo.authenticatorOfDomain).toHaveBeenCalledWith('identity_provider_id', 'i1', 'd1');
    expect(s.repo.claim.mock.calls[0][1]).toMatchObject(CLAIMED);
    expect(view).toMatchObject({
      identity_provider_id: 'i1',
      directory_id: null,
      oidc_provider_id: null,
      verified: false,
      verification: { type: 'TXT', name: '_portcullis-challenge.corp.test' },
    });
    expect(details(s)).toEqual([{ operation: 'bind', identity_provider_id: 'i1' }]);
  });

  it.each([
    ['a directory', 'directory_id', 'dir1'],
    ['an OpenID provider', 'oidc_provider_id', 'op1'],
  ] as const)('binds a name to %s of the domain: that column only', async (_what, column, id) => {
    const s = setup();
    const view = await s.service.bind(admin, { domain: 'Corp.test', [column]: id });
    expect(s.repo.authenticatorOfDomain).toHaveBeenCalledWith(column, id, 'd1');
    const claimed = s.repo.claim.mock.calls[0][1];
    expect(claimed).toMatchObject({ domain: 'corp.test', system_domain_id: 'd1', verified_at: null });
    expect({
      identity_provider_id: claimed.identity_provider_id,
      directory_id: claimed.directory_id,
      oidc_provider_id: claimed.oidc_provider_id,
    }).toEqual({ identity_provider_id: null, directory_id: null, oidc_provider_id: null, [column]: id });
    expect(view).toMatchObject({ [column]: id, identity_provider_id: null, verified: false });
    expect(details(s)).toEqual([{ operation: 'bind', [column]: id }]);
    // the IdP access rule is the IdP's; a directory or provider is found in the caller's domain or not at all
    expect(s.access.require).not.toHaveBeenCalled();
  });

  it.each([
    ['none', {}, 'identity_provider_id'],
    [
      'an IdP and an OpenID provider',
      { identity_provider_id: 'i1', oidc_provider_id: 'op1' },
      'oidc_provider_id',
    ],
    [
      'a directory and an OpenID provider',
      { directory_id: 'dir1', oidc_provider_id: 'op1' },
      'oidc_provider_id',
    ],
    [
      'all three',
      { identity_provider_id: 'i1', directory_id: 'dir1', oidc_provider_id: 'op1' },
      'directory_id',
    ],
  ])('naming %s of the authenticators: 400, nothing looked up or claimed', async (_what, named, field) => {
    const s = setup();
    const e = await s.service.bind(admin, { domain: 'corp.test', ...named }).catch((x: unknown) => x);
    expect(wire(e)).toEqual({
      status: 400,
      code: 'identity_providers.INVALID',
      errors: { [field]: 'name exactly one of identity_provider_id, directory_id, oidc_provider_id' },
    });
    expect(s.repo.authenticatorOfDomain).not.toHaveBeenCalled();
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('refuses what is not a domain name, and force from anyone but a super administrator', async () => {
    const s = setup();
    await expect(s.service.bind(admin, { ...bind, domain: 'not a domain' })).rejects.toMatchObject({
      code: 'identity_providers.INVALID',
    });
    await expect(s.service.bind(admin, { ...bind, force: true })).rejects.toMatchObject({
      code: 'identity_providers.FORCE_FORBIDDEN',
    });
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it.each([
    ['an IdP', { identity_provider_id: 'i9' }],
    ['a directory', { directory_id: 'dir9' }],
    ['an OpenID provider', { oidc_provider_id: 'op9' }],
    // an id of one kind does not name an authenticator of another
    ['an IdP’s id given as a directory', { directory_id: 'i1' }],
  ])('answers NOT_FOUND for %s not of the caller’s domain', async (_what, named) => {
    const s = setup();
    await expect(s.service.bind(admin, { domain: 'corp.test', ...named })).rejects.toMatchObject({
      code: 'identity_providers.NOT_FOUND',
    });
    expect(s.repo.claim).not.toHaveBeenCalled();
  });

  it('refuses a system_domain_id other than the authenticator’s', async () => {
    const s = setup();
    await expect(
      s.service.bind(superAdmin, { domain: 'corp.test', directory_id: 'dir1', system_domain_id: 'd2' }),
    ).rejects.toMatchObject({ code: 'identity_providers.INVALID' });
    expect(s.repo.claim).not.toHaveBeenCalled();
  });

  it('refuses a name bound to another IdP of the domain, or verified by another domain', async () => {
    const s = setup({ rows: [binding({ identity_provider_id: 'i2' })] });
    await expect(s.service.bind(admin, bind)).rejects.toMatchObject({
      code: 'identity_providers.DOMAIN_TAKEN',
    });
    const t = setup({ elsewhere: true });
    await expect(t.service.bind(admin, bind)).rejects.toMatchObject({
      code: 'identity_providers.DOMAIN_FOREIGN',
    });
    expect(t.repo.claim).not.toHaveBeenCalled();
  });

  it.each([
    ['an IdP', binding(), { directory_id: 'dir1' }],
    ['an IdP', binding(), { oidc_provider_id: 'op1' }],
    [
      'a directory',
      binding({ identity_provider_id: null, directory_id: 'dir1' }),
      { identity_provider_id: 'i1' },
    ],
    [
      'a directory',
      binding({ identity_provider_id: null, directory_id: 'dir1' }),
      { oidc_provider_id: 'op1' },
    ],
    [
      'an OpenID provider',
      binding({ identity_provider_id: null, oidc_provider_id: 'op1' }),
      { directory_id: 'dir1' },
    ],
  ])(
    'a name bound to %s cannot be bound to another authenticator of the domain (%j)',
    async (_w, row, named) => {
      const s = setup({ rows: [row] });
      await expect(s.service.bind(admin, { domain: 'corp.test', ...named })).rejects.toMatchObject({
        code: 'identity_providers.DOMAIN_TAKEN',
      });
      expect(s.repo.claim).not.toHaveBeenCalled();
      expect(s.audit.record).not.toHaveBeenCalled();
    },
  );

  it('leaves a name people of other domains use to a super administrator’s decision', async () => {
    const s = setup({ contested: 2 });
    await expect(s.service.bind(admin, bind)).rejects.toMatchObject({
      code: 'identity_providers.DOMAIN_CONTESTED',
    });
    const t = setup({ contested: 2 });
    const view = await t.service.bind(superAdmin, { ...bind, force: true });
    expect(view.verified).toBe(true);
    expect(details(t)).toEqual([
      { operation: 'bind', identity_provider_id: 'i1' },
      { operation: 'verify', method: 'decision' },
    ]);
  });

  it.each([
    ['IdP', binding(), { identity_provider_id: 'i1' }],
    ['directory', binding({ identity_provider_id: null, directory_id: 'dir1' }), { directory_id: 'dir1' }],
    [
      'OpenID provider',
      binding({ identity_provider_id: null, oidc_provider_id: 'op1' }),
      { oidc_provider_id: 'op1' },
    ],
  ])('binding the same name to the same %s again changes nothing', async (_w, row, named) => {
    const s = setup({ rows: [row] });
    const view = await s.service.bind(admin, { domain: 'corp.test', ...named });
    expect(view).toMatchObject(named);
    expect(s.repo.claim).not.toHaveBeenCalled();
    expect(s.audit.record).not.toHaveBeenCalled();
  });
});

describe('DomainBindingsService.verify', () => {
  it('verifies by the TXT record carrying the binding’s value', async () => {
    const s = setup({ rows: [binding()], txt: ['other', ' portcullis-domain-verification=tok '] });
    const view = await s.service.verify(admin, 'Corp.test', {});
    expect(s.dns.lookup).toHaveBeenCalledWith('_portcullis-challenge.corp.test');
    expect(view.verified).toBe(true);
    expect(details(s)).toEqual([{ operation: 'verify', method: 'dns' }]);
  });

  it('answers NOT_VERIFIED without the record, DNS_UNAVAILABLE when the resolvers fail', async () => {
    const s = setup({ rows: [binding()], txt: ['portcullis-domain-verification=other'] });
    await expect(s.service.verify(admin, 'corp.test', {})).rejects.toMatchObject({
      code: 'identity_providers.NOT_VERIFIED',
    });
    s.dns.lookup.mockRejectedValue(new DnsUnavailableError('timeout'));
    await expect(s.service.verify(admin, 'corp.test', {})).rejects.toMatchObject({
      code: 'identity_providers.DNS_UNAVAILABLE',
    });
    expect(s.repo.markVerified).not.toHaveBeenCalled();
  });

  it('a verified binding answers as it is; one verified elsewhere meanwhile wins (DOMAIN_FOREIGN)', async () => {
    const s = setup({ rows: [binding({ verified_at: NOW })] });
    await expect(s.service.verify(admin, 'corp.test', {})).resolves.toMatchObject({ verified: true });
    expect(s.dns.lookup).not.toHaveBeenCalled();
    const t = setup({ rows: [binding()], txt: ['portcullis-domain-verification=tok'] });
    t.repo.markVerified.mockRejectedValue(UNIQUE);
    await expect(t.service.verify(admin, 'corp.test', {})).rejects.toMatchObject({
      code: 'identity_providers.DOMAIN_FOREIGN',
    });
  });

  it('another domain’s binding is NOT_FOUND to an administrator; a super administrator may decide it', async () => {
    const s = setup({ rows: [binding({ system_domain_id: 'd2' })] });
    await expect(s.service.verify(admin, 'corp.test', { system_domain_id: 'd2' })).rejects.toMatchObject({
      code: 'identity_providers.DOMAIN_NOT_FOUND',
    });
    await expect(s.service.verify(admin, 'corp.test', { force: true })).rejects.toMatchObject({
      code: 'identity_providers.FORCE_FORBIDDEN',
    });
    const view = await s.service.verify(superAdmin, 'corp.test', { system_domain_id: 'd2', force: true });
    expect(view.verified).toBe(true);
    expect(s.dns.lookup).not.toHaveBeenCalled();
  });
});

describe('DomainBindingsService.unbind', () => {
  it('removes the caller’s domain’s binding only; a super administrator without a domain removes every one', async () => {
    const rows = [binding(), binding({ system_domain_id: 'd2' })];
    const s = setup({ rows });
    await s.service.unbind(admin, 'Corp.test');
    expect(s.repo.removeBinding.mock.calls.map((c) => c[1])).toEqual([
      { domain: 'corp.test', system_domain_id: 'd1' },
    ]);
    const t = setup({ rows });
    await t.service.unbind(superAdmin, 'corp.test');
    expect(t.repo.removeBinding).toHaveBeenCalledTimes(2);
    expect(details(t)).toEqual([{ operation: 'unbind' }, { operation: 'unbind' }]);
  });

  it('answers DOMAIN_NOT_FOUND for a name the domain has not bound, and for another domain’s to an administrator', async () => {
    const s = setup({ rows: [binding({ system_domain_id: 'd2' })] });
    await expect(s.service.unbind(admin, 'corp.test')).rejects.toMatchObject({
      code: 'identity_providers.DOMAIN_NOT_FOUND',
    });
    await expect(s.service.unbind(admin, 'corp.test', 'd2')).rejects.toMatchObject({
      code: 'identity_providers.DOMAIN_NOT_FOUND',
    });
    expect(s.repo.removeBinding).not.toHaveBeenCalled();
  });
});
