import { jest } from '@jest/globals';
import type { AuditOrigin } from '../../../delivery/audit/audit-origin.js';
import type { AppEntity } from '../../../base/model/app.entity.js';
import type { AuthenticatedClient } from '../client-auth.service.js';
import type { OAuthTokensService, TokenResponse } from '../oauth-tokens.service.js';
import { ClientCredentialsGrant } from './client-credentials.grant.js';

const ORIGIN = { requestId: 'r1' } as unknown as AuditOrigin;
const RESPONSE = { access_token: 'at' } as TokenResponse;
const app = (over: Partial<AppEntity> = {}) =>
  ({
    id: 'app1',
    oauth_client_type: 'confidential',
    default_user_id: 'u1',
    allowed_scopes: ['assets:read', 'assets:write'],
    ...over,
  }) as AppEntity;

function setup() {
  const tokens = { clientCredentials: jest.fn(async () => RESPONSE) };
  return { grant: new ClientCredentialsGrant(tokens as unknown as OAuthTokensService), tokens };
}

describe('ClientCredentialsGrant', () => {
  it('a confidential client that proved its secret: the app’s token for the scopes asked (all allowed when none)', async () => {
    const s = setup();
    const a = app();
    await expect(
      s.grant.handle({ app: a, authenticated: true }, { scope: 'assets:read' }, ORIGIN),
    ).resolves.toBe(RESPONSE);
    expect(s.tokens.clientCredentials).toHaveBeenCalledWith(a, ['assets:read'], ORIGIN);
    await s.grant.handle({ app: a, authenticated: true }, {}, ORIGIN);
    expect(s.tokens.clientCredentials).toHaveBeenLastCalledWith(a, ['assets:read', 'assets:write'], ORIGIN);
  });

  it.each([
    ['a public client', { app: app({ oauth_client_type: 'public' }), authenticated: true }],
    ['a client that did not prove a secret', { app: app(), authenticated: false }],
  ])('%s: invalid_client (401)', async (_w, client) => {
    const s = setup();
    await expect(s.grant.handle(client as AuthenticatedClient, {}, ORIGIN)).rejects.toMatchObject({
      error: 'invalid_client',
      status: 401,
      description: 'Public clients cannot use the client_credentials grant',
    });
    expect(s.tokens.clientCredentials).not.toHaveBeenCalled();
  });

  it('no acting user: unauthorized_client', async () => {
    const s = setup();
    await expect(
      s.grant.handle({ app: app({ default_user_id: null }), authenticated: true }, {}, ORIGIN),
    ).rejects.toMatchObject({
      error: 'unauthorized_client',
      description: 'This client has no acting user (default_user_id) for client_credentials',
    });
    expect(s.tokens.clientCredentials).not.toHaveBeenCalled();
  });

  it('an app without scopes: invalid_scope says none may be asked for', async () => {
    const s = setup();
    await expect(
      s.grant.handle(
        { app: app({ allowed_scopes: [] }), authenticated: true },
        { scope: 'assets:read' },
        ORIGIN,
      ),
    ).rejects.toMatchObject({
      error: 'invalid_scope',
      description: "The requested scope is unknown or outside the application's allowed scopes: (none)",
    });
  });

  it('repeated scopes and extra spaces are tolerated', async () => {
    const s = setup();
    const a = app();
    await s.grant.handle({ app: a, authenticated: true }, { scope: ' assets:read  assets:read ' }, ORIGIN);
    expect(s.tokens.clientCredentials).toHaveBeenCalledWith(a, ['assets:read'], ORIGIN);
  });

  it.each(['assets:delete', 'no-such-scope'])(
    'a scope outside the app’s (%s): invalid_scope',
    async (scope) => {
      const s = setup();
      await expect(
        s.grant.handle({ app: app(), authenticated: true }, { scope }, ORIGIN),
      ).rejects.toMatchObject({
        error: 'invalid_scope',
        description:
          "The requested scope is unknown or outside the application's allowed scopes: assets:read assets:write",
      });
      expect(s.tokens.clientCredentials).not.toHaveBeenCalled();
    },
  );
});
