import { jest } from '@jest/globals';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import { ApiError } from '../../base/common/errors/api-error.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import type { RefreshTokenEntity } from '../../base/model/refresh-token.entity.js';
import type { TokenEntity } from '../../base/model/token.entity.js';
import type { AuthenticatedClient } from './client-auth.service.js';
import { TokenEndpointService } from './token-endpoint.service.js';
import { fixedClock } from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { refreshTokenRow } from '../../../test/utils/fakes/oauth.js';

const config = { http: { publicBaseUrl: 'https://auth.example' } } as BaseConfig;
const req = (body: Record<string, unknown>) =>
  ({ id: 'r1', body, is: (t: string) => t === 'application/x-www-form-urlencoded' }) as unknown as Request;
const client = (authenticated = true): AuthenticatedClient => ({
  app: { id: 'app1', system_domain_id: 'd1' } as AppEntity,
  authenticated,
});
const refresh = (over: Partial<RefreshTokenEntity> = {}) => refreshTokenRow({ scopes: ['a', 'b'], ...over });

function setup(c: AuthenticatedClient = client()) {
  const repo = {
    refreshToken: jest.fn(async (): Promise<RefreshTokenEntity | null> => null),
    clientToken: jest.fn(async (): Promise<TokenEntity | null> => null),
  };
  const clients = { authenticate: jest.fn(async () => c) };
  const handler = {
    parameters: ['scope'],
    handle: jest.fn(async (_c: unknown, _p: Record<string, string | undefined>) => ({ access_token: 'at' })),
  };
  const grants = { get: jest.fn(() => handler) };
  const oauthTokens = {
    revokeGrant: jest.fn(async () => undefined),
    isActiveMember: jest.fn(async () => true),
  };
  const tokens = {
    revoke: jest.fn(async () => true),
    authenticate: jest.fn(async (): Promise<AuthContext> => {
      throw new Error('not set');
    }),
  };
  const jwt = { verifyOrNull: jest.fn(async (): Promise<unknown> => null) };
  const service = construct(
    TokenEndpointService,
    repo,
    config,
    clients,
    grants,
    oauthTokens,
    tokens,
    jwt,
    fixedClock(NOW),
  );
  return { service, repo, clients, grants, handler, oauthTokens, tokens, jwt };
}

describe('TokenEndpointService.token (client, then grant, then the grant’s own parameters)', () => {
  it('grant_type missing: invalid_request after the client is authenticated', async () => {
    const s = setup();
    await expect(s.service.token(req({}))).rejects.toMatchObject({
      error: 'invalid_request',
      description: 'grant_type is required',
    });
    expect(s.clients.authenticate).toHaveBeenCalled();
    expect(s.grants.get).not.toHaveBeenCalled();
  });

  it('the handler receives only the parameters it declares', async () => {
    const s = setup();
    const out = await s.service.token(req({ grant_type: 'x', scope: 's', code: 'leak' }));
    expect(out.response).toEqual({ access_token: 'at' });
    expect(s.handler.handle.mock.calls[0][1]).toEqual({ scope: 's' });
  });
});

describe('TokenEndpointService.revoke (RFC 7009: no oracle)', () => {
  it('token missing: invalid_request', async () => {
    await expect(setup().service.revoke(req({}))).rejects.toMatchObject({ error: 'invalid_request' });
  });

  it('a refresh token of the client ends its whole grant', async () => {
    const s = setup();
    s.repo.refreshToken.mockResolvedValueOnce(refresh());
    await s.service.revoke(req({ token: 'rt' }));
    expect(s.repo.refreshToken).toHaveBeenCalledWith(sha256Hex('rt'), 'app1');
    expect(s.oauthTokens.revokeGrant).toHaveBeenCalledWith('g1', { requestId: 'r1' });
    expect(s.jwt.verifyOrNull).not.toHaveBeenCalled();
  });

  it('an access token of the client is revoked; another app’s, or an unknown one, silently not', async () => {
    const s = setup();
    s.jwt.verifyOrNull.mockResolvedValue({ id: 't1', app_id: 'app1' });
    s.repo.clientToken.mockResolvedValueOnce({ id: 't1' } as TokenEntity);
    await s.service.revoke(req({ token: 'jwt' }));
    expect(s.repo.clientToken).toHaveBeenCalledWith('t1', 'app1');
    expect(s.tokens.revoke).toHaveBeenCalledWith('t1', { requestId: 'r1' });

    s.tokens.revoke.mockClear();
    await s.service.revoke(req({ token: 'jwt' })); // no record of this client
    s.jwt.verifyOrNull.mockResolvedValue({ id: 't2', app_id: 'app2' });
    await s.service.revoke(req({ token: 'jwt' })); // another app's token: not even looked up
    expect(s.repo.clientToken).toHaveBeenCalledTimes(2);
    expect(s.tokens.revoke).not.toHaveBeenCalled();
  });
});

describe('TokenEndpointService.introspect (RFC 7662: the client’s own domain only)', () => {
  it('a public client is refused (invalid_client)', async () => {
    await expect(setup(client(false)).service.introspect(req({ token: 't' }))).rejects.toMatchObject({
      error: 'invalid_client',
      status: 401,
    });
  });

  it('a live refresh token of the domain: active, with its claims', async () => {
    const s = setup();
    s.repo.refreshToken.mockResolvedValueOnce(refresh());
    const { response } = await s.service.introspect(req({ token: 'rt' }));
    expect(s.repo.refreshToken).toHaveBeenCalledWith(sha256Hex('rt'));
    expect(response).toEqual({
      active: true,
      token_type: 'refresh_token',
      scope: 'a b',
      client_id: 'app1',
      sub: 'u1',
      exp: Math.floor((NOW.getTime() + 60_000) / 1000),
      iat: Math.floor((NOW.getTime() - 60_000) / 1000),
      iss: 'https://auth.example',
    });
  });

  it.each([
    ['used', refresh({ used_at: NOW })],
    ['revoked', refresh({ revoked_at: NOW })],
    ['expired', refresh({ expires: NOW })],
    ['of another domain', refresh({ system_domain_id: 'd2' })],
  ])('a refresh token %s: inactive', async (_w, row) => {
    const s = setup();
    s.repo.refreshToken.mockResolvedValueOnce(row);
    expect((await s.service.introspect(req({ token: 'rt' }))).response).toEqual({ active: false });
  });

  it('a refresh token whose user is no longer an active member: inactive', async () => {
    const s = setup();
    s.repo.refreshToken.mockResolvedValueOnce(refresh());
    s.oauthTokens.isActiveMember.mockResolvedValueOnce(false);
    expect((await s.service.introspect(req({ token: 'rt' }))).response).toEqual({ active: false });
    expect(s.oauthTokens.isActiveMember).toHaveBeenCalledWith('u1', 'd1');
  });

  it('an access token: active when the lookup accepts it in the client’s domain', async () => {
    const s = setup();
    s.jwt.verifyOrNull.mockResolvedValue({ id: 't1', iat: 100 });
    const auth = {
      systemDomainId: 'd1',
      scopes: ['a'],
      appId: 'app9',
      userId: 'u1',
      user: { email: 'a@example.test' },
      expires: new Date(NOW.getTime() + 1000),
      tokenId: 't1',
      kind: 'OAUTH',
    } as unknown as AuthContext;
    s.tokens.authenticate.mockResolvedValueOnce(auth);
    const { response } = await s.service.introspect(req({ token: 'jwt' }));
    expect(response).toMatchObject({ active: true, token_type: 'Bearer', sub: 'u1', jti: 't1', iat: 100 });
    s.tokens.authenticate.mockResolvedValueOnce({ ...auth, systemDomainId: 'd2' } as AuthContext);
    expect((await s.service.introspect(req({ token: 'jwt' }))).response).toEqual({ active: false });
  });

  it('an access token the lookup refuses is inactive; a database fault is thrown on', async () => {
    const s = setup();
    s.jwt.verifyOrNull.mockResolvedValue({ id: 't1', iat: 100 });
    s.tokens.authenticate.mockRejectedValueOnce(new ApiError(401, ['revoked']));
    expect((await s.service.introspect(req({ token: 'jwt' }))).response).toEqual({ active: false });
    const fault = new Error('connection lost');
    s.tokens.authenticate.mockRejectedValueOnce(fault);
    await expect(s.service.introspect(req({ token: 'jwt' }))).rejects.toBe(fault);
  });
});
