import { jest } from '@jest/globals';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import type { LookupRow, RevokedRow } from './tokens.repository.js';
import { type JwtClaims, TokensService } from './tokens.service.js';
import { fixedClock, recordingEvents, repoWithTransaction } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const RAW = 'header.payload.signature';

const row = (over: Partial<LookupRow> = {}): LookupRow => ({
  id: 't1',
  app_id: 'a1',
  user_id: 'u1',
  system_domain_id: 'd1',
  kind: 'LOGIN',
  scopes: null,
  token_hash: sha256Hex(RAW),
  expires: new Date(NOW.getTime() + 3_600_000),
  revoked_at: null,
  // the hint is wall-clock time (Date.now), not the injectable clock
  last_used_at: new Date(Date.now() - 1000),
  is_mfa_authenticated: false,
  auth_time: NOW,
  rights_cap: null,
  date_created: NOW,
  date_modified: NOW,
  system_domains: ['d1', 'd2'],
  vouched_by_tenant: false,
  amr: null,
  tenant_owns_account: null,
  u_email: 'a@example.test',
  u_first_name: 'A',
  u_last_name: 'B',
  u_status: 'ACTIVE',
  u_is_super_admin: false,
  u_system_domain_id: 'd1',
  d_name: 'One',
  d_status: 'ACTIVE',
  d_type: 'CUSTOMER' as LookupRow['d_type'],
  d_is_plg: false,
  d_warning_message: null,
  d_freeze_date: null,
  d_deactivate_date: null,
  d_base_url: 'https://one.example.test',
  group_roles: ['can_read_assets'],
  is_member: true,
  is_domain_admin: false,
  a_oauth_client_type: null,
  a_allowed_origins: [],
  ...over,
});
const claims: JwtClaims = { id: 't1', app_id: 'a1', sys: 'd1', user_id: 'u1', exp: 0, iat: 0 };

function setup(found: LookupRow | null = row()) {
  const repo = repoWithTransaction(EM, {
    lookup: jest.fn(async () => found ?? undefined),
    touchLastUsed: jest.fn(),
    revokeMatching: jest.fn(async (): Promise<RevokedRow[]> => []),
  });
  const events = recordingEvents();
  const audit = { record: jest.fn(async () => undefined) };
  const service = construct(TokensService, repo, fixedClock(NOW), events, audit);
  return { service, repo, events, audit };
}

const code = (c: string) => expect.objectContaining({ status: 401, code: `auth.${c}` });

describe('TokensService.authenticate (the per-request lookup)', () => {
  it('builds the caller from one lookup: user, domain, rights from membership and group roles', async () => {
    const { service, repo } = setup();
    const auth = await service.authenticate(claims, RAW, 'req-1');
    expect(repo.lookup).toHaveBeenCalledWith('t1');
    expect(auth).toEqual(
      expect.objectContaining({
        tokenId: 't1',
        userId: 'u1',
        systemDomainId: 'd1',
        kind: 'LOGIN',
        requestId: 'req-1',
      }),
    );
    expect(auth.isAdmin).toBe(false);
    expect([...auth.roles]).toContain('can_read_assets');
    expect(auth.systemDomains).toEqual(['d1', 'd2']);
    expect(auth.user.email).toBe('a@example.test');
    expect(auth.record.revoked_at).toBeNull();
  });

  it('refuses an unknown token and a token whose hash does not match (altered or forged)', async () => {
    await expect(setup(null).service.authenticate(claims, RAW, 'r')).rejects.toEqual(code('INVALID_TOKEN'));
    await expect(setup().service.authenticate(claims, RAW + 'x', 'r')).rejects.toEqual(code('INVALID_TOKEN'));
  });

  it.each([
    ['app', { app_id: 'a2' }],
    ['user', { user_id: 'u2' }],
    ['domain', { sys: 'd2' }],
  ])('refuses claims that name another %s than the record (a token replayed elsewhere)', async (_n, over) => {
    await expect(setup().service.authenticate({ ...claims, ...over }, RAW, 'r')).rejects.toEqual(
      code('INVALID_TOKEN'),
    );
  });

  it('refuses revoked and expired tokens (expiry read from the clock, to the millisecond)', async () => {
    await expect(setup(row({ revoked_at: NOW })).service.authenticate(claims, RAW, 'r')).rejects.toEqual(
      code('TOKEN_REVOKED'),
    );
    await expect(setup(row({ expires: NOW })).service.authenticate(claims, RAW, 'r')).rejects.toEqual(
      code('TOKEN_EXPIRED'),
    );
    const justLive = row({ expires: new Date(NOW.getTime() + 1) });
    await expect(setup(justLive).service.authenticate(claims, RAW, 'r')).resolves.toBeDefined();
  });

  it('refuses an inactive user, a former member, and a deactivated domain (also by a passed date)', async () => {
    const s = (over: Partial<LookupRow>) => setup(row(over)).service.authenticate(claims, RAW, 'r');
    await expect(s({ u_status: 'INACTIVE' })).rejects.toEqual(code('USER_INACTIVE'));
    await expect(s({ is_member: false })).rejects.toEqual(code('NOT_A_MEMBER'));
    await expect(s({ d_status: 'DEACTIVATED' })).rejects.toEqual(code('DOMAIN_DEACTIVATED'));
    await expect(s({ d_deactivate_date: new Date(NOW.getTime() - 1) })).rejects.toEqual(
      code('DOMAIN_DEACTIVATED'),
    );
  });

  it('lets a super administrator act in a domain they are not a member of, but not through a capped token', async () => {
    const superRow = { u_is_super_admin: true, is_member: false };
    const auth = await setup(row(superRow)).service.authenticate(claims, RAW, 'r');
    expect(auth.isSuperAdmin).toBe(true);
    expect(auth.isAdmin).toBe(true);
    await expect(
      setup(row({ ...superRow, rights_cap: '@admin can_read_assets' })).service.authenticate(
        claims,
        RAW,
        'r',
      ),
    ).rejects.toEqual(code('NOT_A_MEMBER'));
  });

  it('cuts the user’s rights to the token’s ceiling (an app never holds more than its setter)', async () => {
    const admin = row({ is_domain_admin: true, group_roles: ['can_read_assets', 'can_write_assets'] });
    const capped = await setup({ ...admin, rights_cap: 'can_read_assets' }).service.authenticate(
      claims,
      RAW,
      'r',
    );
    expect(capped.isAdmin).toBe(false);
    expect([...capped.roles]).toEqual(['can_read_assets']);
    expect(capped.rightsCap).toEqual(['can_read_assets']);
    const uncapped = await setup(admin).service.authenticate(claims, RAW, 'r');
    expect(uncapped.isAdmin).toBe(true);
    expect(uncapped.roles.has('can_write_assets')).toBe(true);
  });

  it('a frozen domain (status or passed date) passes the lookup as FROZEN with its message', async () => {
    const auth = await setup(row({ d_freeze_date: new Date(NOW.getTime() - 1) })).service.authenticate(
      claims,
      RAW,
      'r',
    );
    expect(auth.domain.status).toBe('FROZEN');
    expect(auth.domain.warning_message).toMatch(/frozen/);
  });

  it('records use at most once a minute', async () => {
    const recent = setup();
    await recent.service.authenticate(claims, RAW, 'r');
    expect(recent.repo.touchLastUsed).not.toHaveBeenCalled();
    const stale = setup(row({ last_used_at: new Date(Date.now() - 61_000) }));
    await stale.service.authenticate(claims, RAW, 'r');
    expect(stale.repo.touchLastUsed).toHaveBeenCalledWith('t1');
    const never = setup(row({ last_used_at: null }));
    await never.service.authenticate(claims, RAW, 'r');
    expect(never.repo.touchLastUsed).toHaveBeenCalledWith('t1');
  });
});

describe('TokensService revocation', () => {
  const revoked: RevokedRow = {
    id: 't1',
    app_id: 'a1',
    user_id: 'u1',
    system_domain_id: 'd1',
    kind: 'PAT',
    scopes: null,
    expires: NOW,
    is_mfa_authenticated: false,
    revoked_at: NOW,
    date_created: NOW,
  };

  it('revokes in its own transaction and emits one event per token revoked, without the hash', async () => {
    const { service, repo, events } = setup();
    repo.revokeMatching.mockResolvedValueOnce([revoked, { ...revoked, id: 't2', system_domain_id: 'd2' }]);
    expect(await service.revokeWhere({ user_id: 'u1' }, { requestId: 'r1' })).toBe(2);
    expect(repo.transaction).toHaveBeenCalledTimes(1);
    expect(repo.revokeMatching).toHaveBeenCalledWith(EM, 't.user_id = $1', ['u1']);
    expect(events.record).toHaveBeenCalledTimes(2);
    const [em, event] = events.record.mock.calls[1] as unknown as [unknown, Record<string, any>];
    expect(em).toBe(EM);
    expect(event).toEqual(
      expect.objectContaining({
        systemDomainId: 'd2',
        objectId: 't2',
        realm: 'token',
        operation: 'revoke',
        requestId: 'r1',
      }),
    );
    expect(event.data).not.toHaveProperty('token_hash');
    expect(event.data.revoked_at).toBe(wireDate(NOW));
  });

  it('uses the caller’s transaction when given, and answers whether the one token was live', async () => {
    const { service, repo, events } = setup();
    const callerEm = { caller: true };
    expect(await service.revoke('t9', { em: callerEm as never, requestId: null })).toBe(false);
    expect(repo.transaction).not.toHaveBeenCalled();
    expect(repo.revokeMatching).toHaveBeenCalledWith(callerEm, 't.id = $1', ['t9']);
    expect(events.record).not.toHaveBeenCalled();
    repo.revokeMatching.mockResolvedValueOnce([revoked]);
    expect(await service.revoke('t1', { em: callerEm as never, requestId: null })).toBe(true);
  });

  it('revokeWhere: both conditions together, parameters numbered; the values never enter the SQL', async () => {
    const { service, repo } = setup();
    await service.revokeWhere({ app_id: "a'1", user_id: 'u1' }, { requestId: null });
    expect(repo.revokeMatching).toHaveBeenCalledWith(EM, 't.app_id = $1 AND t.user_id = $2', ["a'1", 'u1']);
    await service.revokeGrantTokens('g1', { requestId: null });
    expect(repo.revokeMatching).toHaveBeenLastCalledWith(EM, 't.grant_id = $1', ['g1']);
  });
});
