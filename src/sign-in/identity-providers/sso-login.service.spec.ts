import { jest } from '@jest/globals';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { IdentityProviderEntity } from '../../base/model/identity-provider.entity.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type { SignInAuthority, TenantAssertion } from '../login/sign-in-authority.js';
import type { IdentityProvidersRepository, TakenLoginCode } from './identity-providers.repository.js';
import type { AcceptedAssertion } from './saml.service.js';
import { fixedClock, repoWithTransaction } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';

// the group mappings run in the sign-on's transaction over the groups' repository: faked here, they say which
// groups the assertion named and for whom
const applyGroupMappings = jest.fn(async (..._a: unknown[]) => ({ joined: [], left: [] }));
jest.unstable_mockModule('../../accounts/groups/group-mappings.js', () => ({
  applyGroupMappings,
  GROUP_ATTRIBUTES: ['groups'],
}));
const { SsoLoginService, CODE_TTL_MS } = await import('./sso-login.service.js');
const { SignInRefusal } = await import('../login/sign-in-authority.js');
const { SamlRefusal } = await import('./saml.service.js');

const OWN = 'https://auth.example.test';
const APP = 'https://app.corp.test/home';
const config = { http: { publicBaseUrl: OWN } } as unknown as BaseConfig;

const idp = (settings: Record<string, unknown> = {}, over: Partial<IdentityProviderEntity> = {}) =>
  ({
    id: 'i1',
    public_id: 'p1',
    system_domain_id: 'd1',
    settings,
    enabled: true,
    ...over,
  }) as IdentityProviderEntity;
const domain = (over: Partial<SystemDomainEntity> = {}) =>
  ({
    id: 'd1',
    name: 'Corp',
    base_url: APP,
    status: 'ACTIVE',
    deactivate_date: null,
    freeze_date: null,
    ...over,
  }) as SystemDomainEntity;
const accepted = (over: Partial<AcceptedAssertion> = {}): AcceptedAssertion => ({
  email: 'Ada@Corp.Test',
  firstName: 'Ada',
  lastName: 'Lovelace',
  returnTo: null,
  spInitiated: true,
  groups: ['Engineers'],
  ...over,
});

function setup(
  o: {
    domain?: SystemDomainEntity | null;
    link?: { userId: string; bySelf: boolean };
    bound?: boolean;
    code?: TakenLoginCode;
    stored?: IdentityProviderEntity | null;
    routed?: string;
  } = {},
) {
  applyGroupMappings.mockClear();
  const repo = repoWithTransaction(EM, {
    domainOf: jest.fn(async () => (o.domain === undefined ? domain() : o.domain)),
    linkedUser: jest.fn(async (_idp: string, _email: string) => o.link),
    isDomainBound: jest.fn(async (_d: string, _idp: string) => o.bound ?? false),
    insertLoginCode: jest.fn(async (_row: Record<string, unknown>) => undefined),
    takeLoginCode: jest.fn(async (_h: string) => o.code),
    idp: jest.fn(async (_id: string) => (o.stored === undefined ? idp() : o.stored)),
    selfLinked: jest.fn(async () => true),
    routedIdpId: jest.fn(async (_d: string) => o.routed),
  });
  const authority = {
    vouch: jest.fn(async (_a: TenantAssertion) => ({ userId: 'u1', owned: true })),
    tenantSession: jest.fn(async (..._a: unknown[]) => ({ token: 'jwt' })),
  };
  const service = new SsoLoginService(
    config,
    fixedClock(NOW),
    authority as unknown as SignInAuthority,
    {} as WebhookEventsService,
    repo as unknown as IdentityProvidersRepository,
  );
  return { service, repo, authority };
}

describe('SsoLoginService.complete: what the SignInAuthority is asked', () => {
  it('hands it the IdP as a tenant authenticator, the email lower-cased, the link, the verified binding and JIT', async () => {
    const s = setup({ link: { userId: 'u9', bySelf: true }, bound: true });
    await s.service.complete(idp({ jit_provisioning: true }), accepted(), 'req1');
    expect(s.repo.linkedUser).toHaveBeenCalledWith('i1', 'ada@corp.test');
    expect(s.repo.isDomainBound).toHaveBeenCalledWith('corp.test', 'i1');
    expect(s.authority.vouch).toHaveBeenCalledWith({
      by: { kind: 'saml', id: 'i1', systemDomainId: 'd1' },
      email: 'ada@corp.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      link: { userId: 'u9', bySelf: true },
      emailDomainVerified: true,
      provision: true,
      requestId: 'req1',
    });
  });

  it('provisions only when the IdP says jit_provisioning: true; no link is null', async () => {
    const s = setup();
    await s.service.complete(idp({ jit_provisioning: 'yes' }), accepted(), null);
    expect(s.authority.vouch.mock.calls[0][0]).toMatchObject({
      provision: false,
      link: null,
      emailDomainVerified: false,
    });
  });

  it('refuses for a deactivated (or vanished) domain before asking the authority', async () => {
    for (const d of [domain({ status: 'DEACTIVATED' }), domain({ deactivate_date: NOW }), null]) {
      const s = setup({ domain: d });
      await expect(s.service.complete(idp(), accepted(), null)).rejects.toBeInstanceOf(SamlRefusal);
      expect(s.authority.vouch).not.toHaveBeenCalled();
    }
  });

  it('turns the authority’s refusal into a SamlRefusal, and writes nothing', async () => {
    const s = setup();
    s.authority.vouch.mockRejectedValue(new SignInRefusal('not the domain’s account'));
    const err = await s.service.complete(idp(), accepted(), null).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SamlRefusal);
    expect((err as Error).message).toBe('not the domain’s account');
    expect(applyGroupMappings).not.toHaveBeenCalled();
    expect(s.repo.insertLoginCode).not.toHaveBeenCalled();
    const boom = new Error('database down');
    s.authority.vouch.mockRejectedValue(boom);
    await expect(s.service.complete(idp(), accepted(), null)).rejects.toBe(boom);
  });

  it('applies the asserted groups to the vouched account in a transaction of its own', async () => {
    const s = setup();
    await s.service.complete(idp(), accepted({ groups: ['Engineers', 'Admins'] }), 'req1');
    expect(s.repo.transaction).toHaveBeenCalledTimes(1);
    expect(applyGroupMappings.mock.calls[0][0]).toBe(EM);
    expect(applyGroupMappings.mock.calls[0][2]).toEqual({
      systemDomainId: 'd1',
      userId: 'u1',
      names: ['Engineers', 'Admins'],
      requestId: 'req1',
    });
  });
});

describe('SsoLoginService.complete: the single-use code and where the browser goes', () => {
  it('stores only the hash of the code it puts in the URL, for one minute, for that user, domain and IdP', async () => {
    const s = setup();
    const url = new URL(await s.service.complete(idp(), accepted(), null));
    const code = url.searchParams.get('saml_code')!;
    expect(s.repo.insertLoginCode).toHaveBeenCalledWith({
      code_sha256: sha256Hex(code),
      user_id: 'u1',
      system_domain_id: 'd1',
      identity_provider_id: 'i1',
      expires: new Date(NOW.getTime() + CODE_TTL_MS),
    });
    expect(`${url.origin}${url.pathname}`).toBe(APP); // no return address: the domain's web app
  });

  it('returns only within the service’s origin or the domain’s web app', async () => {
    const s = setup();
    const back = async (returnTo: string) =>
      (await s.service.complete(idp(), accepted({ returnTo }), null)).split('saml_code=')[0];
    expect(await back('/account?tab=1')).toBe(`${OWN}/account?tab=1&`);
    expect(await back('https://app.corp.test/x')).toBe('https://app.corp.test/x?');
    expect(await back(`${OWN}/y`)).toBe(`${OWN}/y?`);
    expect(await back('https://evil.test/')).toBe(`${APP}?`);
    expect(await back('//evil.test/')).toBe(`${APP}?`);
    expect(await back('/\\evil.test')).toBe(`${APP}?`);
    expect(await back('javascript:alert(1)')).toBe(`${APP}?`);
  });

  it('falls back to the service’s own origin when the domain has no usable web app address', async () => {
    const s = setup({ domain: domain({ base_url: 'not a url' }) });
    expect(await s.service.complete(idp(), accepted({ returnTo: 'https://evil.test/' }), null)).toMatch(
      new RegExp(`^${OWN}/\\?saml_code=`),
    );
  });
});

describe('SsoLoginService.exchange', () => {
  const row = (over: Partial<TakenLoginCode> = {}): TakenLoginCode => ({
    user_id: 'u1',
    system_domain_id: 'd1',
    identity_provider_id: 'i1',
    expires: new Date(NOW.getTime() + 1000),
    ...over,
  });

  it('takes the code by its hash and asks the authority for the session, with whether the person linked it', async () => {
    const s = setup({ code: row() });
    await expect(s.service.exchange('the-code')).resolves.toEqual({ token: 'jwt' });
    expect(s.repo.takeLoginCode).toHaveBeenCalledWith(sha256Hex('the-code'));
    expect(s.authority.tenantSession.mock.calls[0].slice(0, 3)).toEqual([
      { kind: 'saml', id: 'i1', systemDomainId: 'd1' },
      'u1',
      true,
    ]);
  });

  it('refuses an unknown, expired or disabled-IdP code with CODE_INVALID', async () => {
    for (const o of [
      { code: undefined },
      { code: row({ expires: NOW }) },
      { code: row(), stored: idp({}, { enabled: false }) },
      { code: row(), stored: null },
    ]) {
      const s = setup(o);
      await expect(s.service.exchange('c')).rejects.toMatchObject({
        code: 'identity_providers.CODE_INVALID',
      });
      expect(s.authority.tenantSession).not.toHaveBeenCalled();
    }
  });
});

describe('SsoLoginService routing', () => {
  it('routes an email by its domain name, lower-cased, and answers NO_IDP_FOR_EMAIL when none serves it', async () => {
    const s = setup({ routed: 'i1' });
    await expect(s.service.loginUrl('ada@Corp.TEST', '/x?y=1')).resolves.toEqual({
      url: `${OWN}/API/auth/v1/auth/saml/sso/p1/?return_to=${encodeURIComponent('/x?y=1')}`,
    });
    expect(s.repo.routedIdpId).toHaveBeenCalledWith('corp.test');
    const none = setup();
    await expect(none.service.loginUrl('ada@other.test')).rejects.toMatchObject({
      code: 'identity_providers.NO_IDP_FOR_EMAIL',
    });
    await expect(none.service.multiDomain('ada@other.test')).resolves.toEqual([]);
  });
});
