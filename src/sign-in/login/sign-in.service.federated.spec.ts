import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { SystemDomainsService } from '../../accounts/system-domains/system-domains.service.js';
import { ApiError } from '../../base/common/errors/api-error.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { TokenEntity } from '../../base/model/token.entity.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import type { CredentialMintService } from '../../credentials/mint/credential-mint.service.js';
import type { AuditOrigin } from '../../delivery/audit/audit-origin.js';
import type { LiveMembership, LoginRepository } from './login.repository.js';
import { SignInService, type TenantMethod } from './sign-in.service.js';
import { fixedClock, passThroughTransaction } from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';

// SignInService.signInToDomain: a tenant's authenticator vouched for a person in one domain. Where the
// authenticator asks for it (a directory: the service's own second factor still applies), a factor owed gives
// a temporary token, tenant-marked with the authority's ceiling; SAML and OpenID never owe here.

const EM = { em: 'tx' } as unknown as EntityManager;
const MANAGER = { em: 'outside' } as unknown as EntityManager;
const ORIGIN: AuditOrigin = {
  actorUserId: null,
  actorAppId: null,
  actorKind: null,
  requestId: 'r1',
  clientAddress: '203.0.113.9',
};
const CAP = ['@admin'];
const user = { id: 'u1', status: 'ACTIVE', is_super_admin: false, system_domain_id: 'd1' } as UserEntity;
const unauthorized = () => new ApiError(401, ['refused']);

const domainOf = (over: Partial<SystemDomainEntity> = {}) =>
  ({
    id: 'd1',
    name: 'Corp',
    base_url: 'https://media.corp.example/',
    status: 'ACTIVE',
    type: 'CUSTOMER',
    is_plg: false,
    warning_message: null,
    freeze_date: null,
    deactivate_date: null,
    mfa_required: false,
    mfa_methods: ['TOTP', 'MAIL_2SV'],
    ...over,
  }) as unknown as SystemDomainEntity;

const membership = (
  domain: SystemDomainEntity,
  factors: LiveMembership['factors'] = { totp_confirmed_at: null, mail_2sv_enabled: null },
): LiveMembership => ({ domain, builtinAppId: 'app-builtin', isAdmin: true, logoSha256: null, factors });

function setup(memberships: LiveMembership[]) {
  const mint = {
    // the token's record as the issuer would write it: its kind, and the mark and ceiling it was handed
    signIn: jest.fn(async (_em: EntityManager, s: { kind: 'LOGIN' | 'TEMP'; [k: string]: unknown }) => ({
      token: s.kind === 'TEMP' ? 'temp-jwt' : 'login-jwt',
      record: {
        id: `t-${s.kind}`,
        app_id: s.appId,
        user_id: s.userId,
        system_domain_id: s.systemDomainId,
        kind: s.kind,
        is_mfa_authenticated: false,
        scopes: null,
        expires: new Date(NOW.getTime() + 3_600_000),
        revoked_at: null,
        last_used_at: null,
        date_created: NOW,
        date_modified: NOW,
      } as unknown as TokenEntity,
    })),
  };
  const domains = { builtinAppId: jest.fn(async () => 'app-looked-up') };
  const users = {
    manager: MANAGER,
    liveMemberships: jest.fn(async (_userId: string) => memberships),
    transaction: passThroughTransaction(EM),
  };
  const config = { http: { publicBaseUrl: 'https://auth.example' } } as BaseConfig;
  const service = new SignInService(
    mint as unknown as CredentialMintService,
    domains as unknown as SystemDomainsService,
    fixedClock(NOW),
    config,
    users as unknown as LoginRepository,
  );
  return { service, mint, domains, users };
}

const how = (method: TenantMethod, secondFactor: boolean, rightsCap: string[] | null = CAP) => ({
  method,
  rightsCap,
  origin: ORIGIN,
  secondFactor,
});

/** What the mint was asked for, and the audit entry it would write for the record it issued. */
function minted(s: ReturnType<typeof setup>) {
  expect(s.mint.signIn).toHaveBeenCalledTimes(1);
  const [em, subject, audit] = s.mint.signIn.mock.calls[0] as unknown as [
    EntityManager,
    Record<string, unknown>,
    { origin: AuditOrigin; entry: (row: unknown) => { action: string; details: Record<string, unknown> } },
  ];
  const entry = audit.entry({ id: 't', system_domain_id: 'd1', user_id: 'u1', is_mfa_authenticated: false });
  return { em, subject, origin: audit.origin, entry };
}

describe('SignInService.signInToDomain with secondFactor (a directory)', () => {
  it.each([
    ['the domain requires a factor', domainOf({ mfa_required: true }), undefined],
    [
      'the user has confirmed a factor',
      domainOf(),
      { totp_confirmed_at: new Date('2026-01-01T00:00:00Z'), mail_2sv_enabled: false },
    ],
    ['the user has mail 2SV on', domainOf(), { totp_confirmed_at: null, mail_2sv_enabled: true }],
  ])(
    '%s: a tenant-marked TEMP token with the ceiling; token null, temp_token set',
    async (_w, domain, factors) => {
      const s = setup([membership(domain, factors)]);
      const out = await s.service.signInToDomain(user, 'd1', unauthorized, how('directory', true));
      const m = minted(s);
      expect(m.em).toBe(EM);
      expect(m.subject).toEqual({
        userId: 'u1',
        appId: 'app-builtin',
        systemDomainId: 'd1',
        kind: 'TEMP',
        tenantVouched: true,
        rightsCap: CAP,
      });
      expect(m.origin).toEqual({ ...ORIGIN, actorUserId: 'u1' });
      expect(m.entry).toMatchObject({
        action: 'signin.second_factor_owed',
        details: { method: 'directory' },
      });
      expect(out).toMatchObject({
        token: null,
        temp_token: 'temp-jwt',
        kind: 'TEMP',
        system_domain_id: 'd1',
      });
      expect(out.auth_system_domains).toEqual([
        expect.objectContaining({ system_domain_id: 'd1', token: null, mfa_required: true }),
      ]);
      // not signed in yet: last_login waits for the factor (nothing rides on the temporary token)
      expect(minted(s).subject).not.toHaveProperty('signInWrites.touchLastLogin', true);
    },
  );

  it('no factor owed: a tenant-marked LOGIN token with the ceiling, no temp_token, last_login now', async () => {
    const s = setup([membership(domainOf())]);
    const out = await s.service.signInToDomain(user, 'd1', unauthorized, how('directory', true));
    const m = minted(s);
    expect(m.subject).toEqual({
      userId: 'u1',
      appId: 'app-builtin',
      systemDomainId: 'd1',
      kind: 'LOGIN',
      mfa: false,
      tenantVouched: true,
      rightsCap: CAP,
      // a tenant's sign-in records no methods of its own: OpenID Connect reads sso from its mark
      amr: null,
      // last_login now, in the token's statement
      signInWrites: { touchLastLogin: true },
    });
    expect(m.entry).toMatchObject({ action: 'signin.success', details: { method: 'directory' } });
    expect(out).toMatchObject({ token: 'login-jwt', kind: 'LOGIN' });
    expect(out).not.toHaveProperty('temp_token');
    expect(out.auth_system_domains).toEqual([
      expect.objectContaining({ token: 'login-jwt', mfa_required: false }),
    ]);
  });
});

describe('SignInService.signInToDomain without secondFactor (SAML, OpenID)', () => {
  it.each(['saml', 'oidc'] as const)(
    '%s never owes a factor here: a LOGIN token even where the domain requires one',
    async (method) => {
      const factors = { totp_confirmed_at: new Date('2026-01-01T00:00:00Z'), mail_2sv_enabled: true };
      const s = setup([membership(domainOf({ mfa_required: true }), factors)]);
      const out = await s.service.signInToDomain(user, 'd1', unauthorized, how(method, false, null));
      const m = minted(s);
      expect(m.subject).toMatchObject({ kind: 'LOGIN', tenantVouched: true, rightsCap: null });
      expect(m.entry).toMatchObject({ action: 'signin.success', details: { method } });
      expect(out).toMatchObject({ token: 'login-jwt' });
      expect(out).not.toHaveProperty('temp_token');
      expect(out.auth_system_domains[0]).toMatchObject({ token: 'login-jwt', mfa_required: false });
    },
  );
});

describe('SignInService.signInToDomain: who and where', () => {
  it('the ceiling bounds the answer’s rights: an administrator under a ceiling without @admin is not one', async () => {
    const capped = setup([membership(domainOf())]);
    const out = await capped.service.signInToDomain(user, 'd1', unauthorized, how('directory', true, []));
    expect(out.is_admin).toBe(false);
    const uncapped = setup([membership(domainOf())]);
    const full = await uncapped.service.signInToDomain(
      user,
      'd1',
      unauthorized,
      how('directory', true, null),
    );
    expect(full.is_admin).toBe(true);
  });

  it('only the one domain: system_domains names it alone, even for a member of several', async () => {
    const s = setup([membership(domainOf({ id: 'd0', name: 'Other' })), membership(domainOf())]);
    const out = await s.service.signInToDomain(user, 'd1', unauthorized, how('oidc', false));
    expect(out.system_domains).toEqual(['d1']);
    expect(out.auth_system_domains.map((d) => d.system_domain_id)).toEqual(['d1']);
  });

  it.each([
    ['the domain is not (or no longer) one of the user’s live domains', [] as LiveMembership[], user],
    ['the user is not active', [membership(domainOf())], { ...user, status: 'INACTIVE' } as UserEntity],
  ])('%s: the caller’s refusal, nothing issued', async (_w, memberships, who) => {
    const s = setup(memberships);
    await expect(
      s.service.signInToDomain(who, 'd1', unauthorized, how('directory', true)),
    ).rejects.toMatchObject({ status: 401, errors: ['refused'] });
    expect(s.mint.signIn).not.toHaveBeenCalled();
  });
});
