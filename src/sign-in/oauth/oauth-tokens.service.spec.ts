import { jest } from '@jest/globals';
import type { BaseConfig } from '../../base/config/config.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import { InactiveMemberError, type OAuthSubject } from '../../credentials/mint/credential-mint.service.js';
import type { RefreshFacts } from '../../credentials/mint/refresh-rotation.js';
import type { RefreshTokenEntity } from '../../base/model/refresh-token.entity.js';
import { OAuthTokensService } from './oauth-tokens.service.js';
import { repoWithTransaction } from '../../../test/utils/fakes.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const MANAGER = { manager: 'outside a transaction' };
const TX = { em: 'tx' };
const config = { auth: { accessTokenTtlSeconds: 300 } } as BaseConfig;
const subject: OAuthSubject = {
  appId: 'app1',
  userId: 'u1',
  systemDomainId: 'd1',
  scopes: ['a', 'b'],
  grantId: 'g1',
};
const fkViolation = () => Object.assign(new Error('fk'), { code: '23503' });

function setup() {
  const repo = repoWithTransaction(TX, {
    manager: MANAGER,
    appExists: jest.fn(async () => false),
    revokeGrantRefreshTokens: jest.fn(async () => undefined),
    refreshToken: jest.fn(async (): Promise<RefreshTokenEntity | null> => null),
    isActiveMember: jest.fn(async () => true),
  });
  const tokens = { revokeGrantTokens: jest.fn(async () => 2) };
  const clients = { changed: jest.fn(async () => undefined) };
  const mint = {
    oauth: jest.fn(async (): Promise<unknown> => ({ access: { token: 'at' }, refresh: 'rt' })),
    clientCredentials: jest.fn(async (): Promise<unknown> => ({ access: { token: 'cc' } })),
    rotation: jest.fn(async (): Promise<unknown> => ({ access: { token: 'at2' }, refresh: 'rt2' })),
  };
  const service = construct(OAuthTokensService, config, tokens, clients, mint, repo);
  return { service, repo, tokens, clients, mint };
}

describe('OAuthTokensService', () => {
  it('issue: the mint’s access and refresh token as the token response (token mirrors access_token)', async () => {
    const s = setup();
    await expect(s.service.issue(TX as never, subject, true)).resolves.toEqual({
      access_token: 'at',
      token: 'at',
      token_type: 'Bearer',
      expires_in: 300,
      scope: 'a b',
      refresh_token: 'rt',
    });
    expect(s.mint.oauth).toHaveBeenCalledWith(TX, subject, true);
  });

  it('issue: a user no longer an active member is invalid_grant with the caller’s message', async () => {
    const s = setup();
    s.mint.oauth.mockRejectedValueOnce(new InactiveMemberError());
    await expect(s.service.issue(TX as never, subject, true, 'gone')).rejects.toMatchObject({
      error: 'invalid_grant',
      description: 'gone',
    });
  });

  it('issue in a transaction: a deleted client (foreign key) is invalid_grant, and no app lookup', async () => {
    const s = setup();
    s.mint.oauth.mockRejectedValueOnce(fkViolation());
    await expect(s.service.issue(TX as never, subject, true)).rejects.toMatchObject({
      error: 'invalid_grant',
      description: 'The authorization no longer exists',
    });
    expect(s.repo.appExists).not.toHaveBeenCalled();
  });

  it('client credentials: one statement outside a transaction, no refresh token, the app as its user', async () => {
    const s = setup();
    const app = { id: 'app1', default_user_id: 'u9', system_domain_id: 'd1' } as AppEntity;
    const out = await s.service.clientCredentials(app, ['a'], undefined);
    expect(out).toEqual({
      access_token: 'cc',
      token: 'cc',
      token_type: 'Bearer',
      expires_in: 300,
      scope: 'a',
    });
    expect(s.mint.clientCredentials).toHaveBeenCalledWith(MANAGER, app, ['a'], undefined);
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('client credentials of a client deleted behind the cache: its registration is dropped, invalid_client', async () => {
    const s = setup();
    s.mint.clientCredentials.mockRejectedValueOnce(fkViolation());
    const app = { id: 'app1', default_user_id: 'u9', system_domain_id: 'd1' } as AppEntity;
    await expect(s.service.clientCredentials(app, ['a'])).rejects.toMatchObject({
      error: 'invalid_client',
      status: 401,
    });
    expect(s.repo.appExists).toHaveBeenCalledWith('app1');
    expect(s.clients.changed).toHaveBeenCalledWith('app1');
  });

  it('a foreign key violation while the app still exists is not the client’s: thrown on unchanged', async () => {
    const s = setup();
    const e = fkViolation();
    s.mint.clientCredentials.mockRejectedValueOnce(e);
    s.repo.appExists.mockResolvedValueOnce(true);
    const app = { id: 'app1', default_user_id: 'u9', system_domain_id: 'd1' } as AppEntity;
    await expect(s.service.clientCredentials(app, ['a'])).rejects.toBe(e);
    expect(s.clients.changed).not.toHaveBeenCalled();
  });

  it('rotate: the new pair, or null when the presented token was not claimed', async () => {
    const s = setup();
    const facts = { grantId: 'g1' } as RefreshFacts;
    await expect(s.service.rotate('h', facts, ['a'])).resolves.toEqual({
      access_token: 'at2',
      token: 'at2',
      token_type: 'Bearer',
      expires_in: 300,
      scope: 'a',
      refresh_token: 'rt2',
    });
    s.mint.rotation.mockResolvedValueOnce(null);
    await expect(s.service.rotate('h', facts, ['a'])).resolves.toBeNull();
  });

  it('revokeGrant without a transaction: refresh and access tokens of the grant in one new transaction', async () => {
    const s = setup();
    await s.service.revokeGrant('g1', { requestId: 'r1' });
    expect(s.repo.transaction).toHaveBeenCalledTimes(1);
    expect(s.repo.revokeGrantRefreshTokens).toHaveBeenCalledWith(TX, 'g1');
    expect(s.tokens.revokeGrantTokens).toHaveBeenCalledWith('g1', {
      em: TX,
      requestId: 'r1',
      origin: undefined,
    });
  });

  it('revokeGrant inside the caller’s transaction opens none', async () => {
    const s = setup();
    const em = { em: 'caller' } as never;
    await s.service.revokeGrant('g1', { em, requestId: null });
    expect(s.repo.transaction).not.toHaveBeenCalled();
    expect(s.repo.revokeGrantRefreshTokens).toHaveBeenCalledWith(em, 'g1');
  });

  it('revokeRefreshToken: by the token’s hash (any client), ending its grant; an unknown token changes nothing', async () => {
    const s = setup();
    await s.service.revokeRefreshToken('unknown', 'r1');
    expect(s.repo.refreshToken).toHaveBeenCalledWith(sha256Hex('unknown'));
    expect(s.repo.transaction).not.toHaveBeenCalled();
    s.repo.refreshToken.mockResolvedValueOnce({ grant_id: 'g7' } as RefreshTokenEntity);
    await s.service.revokeRefreshToken('rt', 'r2');
    expect(s.repo.revokeGrantRefreshTokens).toHaveBeenCalledWith(TX, 'g7');
    expect(s.tokens.revokeGrantTokens).toHaveBeenCalledWith('g7', {
      em: TX,
      requestId: 'r2',
      origin: undefined,
    });
  });
});
