import { jest } from '@jest/globals';
import { sha256Hex } from '../../../base/common/crypto/secrets.js';
import type { AuditOrigin } from '../../../delivery/audit/audit-origin.js';
import type { AppEntity } from '../../../base/model/app.entity.js';
import type { RefreshTokenEntity } from '../../../base/model/refresh-token.entity.js';
import type { RefreshFacts } from '../../../credentials/mint/refresh-rotation.js';
import type { AuthenticatedClient } from '../client-auth.service.js';
import type { TokenResponse } from '../oauth-tokens.service.js';
import { RefreshTokenGrant } from './refresh-token.grant.js';
import { fixedClock } from '../../../../test/utils/fakes.js';
import { NOW } from '../../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../../test/utils/fakes/construct.js';
import { refreshTokenRow as row } from '../../../../test/utils/fakes/oauth.js';

const ORIGIN = { requestId: 'r1' } as unknown as AuditOrigin;
const client = (allowed = ['read', 'write']) =>
  ({ app: { id: 'app1', allowed_scopes: allowed } as AppEntity, authenticated: true }) as AuthenticatedClient;

const FACTS: RefreshFacts = {
  grantId: 'g1',
  appId: 'app1',
  userId: 'u1',
  systemDomainId: 'd1',
  scopes: ['read', 'write'],
  mfa: false,
};

function setup(rows: (RefreshTokenEntity | null)[] = [row()], rotated: (TokenResponse | null)[] = []) {
  let n = 0;
  const repo = { refreshToken: jest.fn(async () => rows[Math.min(n++, rows.length - 1)]) };
  let r = 0;
  const tokens = {
    rotate: jest.fn(async (_h: string, _f: RefreshFacts, scopes: string[]) =>
      r < rotated.length
        ? rotated[r++]
        : ({ refresh_token: `new-${r++}`, scope: scopes.join(' ') } as TokenResponse),
    ),
    revokeGrant: jest.fn(async () => undefined),
  };
  const idTokens = { issue: jest.fn(async (): Promise<string | undefined> => undefined) };
  const grant = construct(RefreshTokenGrant, tokens, fixedClock(NOW), repo, idTokens);
  return { grant, repo, tokens };
}

const grantError = (description: string) => expect.objectContaining({ error: 'invalid_grant', description });

describe('RefreshTokenGrant', () => {
  it('rotates a live token with the facts read from its row (the client’s own)', async () => {
    const s = setup();
    const out = await s.grant.handle(client(), { refresh_token: 'rt' }, ORIGIN);
    expect(out.refresh_token).toBe('new-0');
    expect(s.repo.refreshToken).toHaveBeenCalledWith(sha256Hex('rt'), 'app1');
    expect(s.tokens.rotate).toHaveBeenCalledWith(sha256Hex('rt'), FACTS, ['read', 'write'], ORIGIN);
  });

  it('a token this instance issued is rotated from the remembered facts, with no read', async () => {
    const s = setup();
    const first = await s.grant.handle(client(), { refresh_token: 'rt', scope: 'read' }, ORIGIN);
    s.repo.refreshToken.mockClear();
    await s.grant.handle(client(), { refresh_token: first.refresh_token }, ORIGIN);
    expect(s.repo.refreshToken).not.toHaveBeenCalled();
    expect(s.tokens.rotate).toHaveBeenLastCalledWith(
      sha256Hex(first.refresh_token as string),
      { ...FACTS, scopes: ['read'] },
      ['read'],
      ORIGIN,
    );
  });

  it('remembered facts of another client are not used: the row is read for this client', async () => {
    const s = setup([row(), null]);
    const first = await s.grant.handle(client(), { refresh_token: 'rt' }, ORIGIN);
    const other = { app: { id: 'app2', allowed_scopes: ['read'] } as AppEntity, authenticated: true };
    await expect(
      s.grant.handle(other as AuthenticatedClient, { refresh_token: first.refresh_token }, ORIGIN),
    ).rejects.toEqual(grantError('The refresh token is invalid, expired or revoked'));
    expect(s.repo.refreshToken).toHaveBeenLastCalledWith(sha256Hex(first.refresh_token as string), 'app2');
  });

  it('scope may only narrow; scopes the app has lost since are dropped', async () => {
    const s = setup();
    await expect(
      s.grant.handle(client(), { refresh_token: 'rt', scope: 'read admin' }, ORIGIN),
    ).rejects.toMatchObject({
      error: 'invalid_scope',
      description: 'A refresh may only narrow the scope of the authorization; allowed scopes: read write',
    });
    expect(s.tokens.rotate).not.toHaveBeenCalled();
    const t = setup();
    await t.grant.handle(client(['write']), { refresh_token: 'rt' }, ORIGIN);
    expect(t.tokens.rotate.mock.calls[0][2]).toEqual(['write']);
  });

  it('refresh_token missing: invalid_request', async () => {
    await expect(setup().grant.handle(client(), {}, ORIGIN)).rejects.toMatchObject({
      error: 'invalid_request',
      description: 'refresh_token is required',
    });
  });

  it.each([
    ['unknown', null],
    ['revoked', row({ revoked_at: NOW })],
    ['expired', row({ expires: NOW })],
    ['used and revoked already', row({ used_at: NOW, revoked_at: NOW })],
  ])('%s: invalid_grant, nothing rotated or revoked', async (_w, found) => {
    const s = setup([found]);
    await expect(s.grant.handle(client(), { refresh_token: 'rt' }, ORIGIN)).rejects.toEqual(
      grantError('The refresh token is invalid, expired or revoked'),
    );
    expect(s.tokens.rotate).not.toHaveBeenCalled();
    expect(s.tokens.revokeGrant).not.toHaveBeenCalled();
  });

  it('a used token presented again (a replay) revokes the whole grant', async () => {
    const s = setup([row({ used_at: NOW })]);
    await expect(s.grant.handle(client(), { refresh_token: 'rt' }, ORIGIN)).rejects.toEqual(
      grantError('The refresh token was already used; the authorization has been revoked'),
    );
    expect(s.tokens.revokeGrant).toHaveBeenCalledWith('g1', { requestId: 'r1', origin: ORIGIN });
  });

  it('not claimed while still live: the user is no longer active in the domain', async () => {
    const s = setup([row(), row()], [null]);
    await expect(s.grant.handle(client(), { refresh_token: 'rt' }, ORIGIN)).rejects.toEqual(
      grantError('The user of this grant is no longer active in the application’s domain'),
    );
  });

  it('not claimed because a concurrent presentation won: that is a replay, the grant is revoked', async () => {
    const s = setup([row(), row({ used_at: NOW })], [null]);
    await expect(s.grant.handle(client(), { refresh_token: 'rt' }, ORIGIN)).rejects.toEqual(
      grantError('The refresh token was already used; the authorization has been revoked'),
    );
    expect(s.tokens.revokeGrant).toHaveBeenCalledWith('g1', { requestId: 'r1', origin: ORIGIN });
  });
});
