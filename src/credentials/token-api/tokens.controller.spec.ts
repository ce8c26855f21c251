import { jest } from '@jest/globals';
import { expectNotFound, useControllerSpec } from '../../../test/utils/controller-spec-suite.js';
import { TokenLifecycleService } from './token-lifecycle.service.js';
import { TokenQueriesService } from '../tokens/token-queries.service.js';
import { TokensController } from './tokens.controller.js';

const AUTH = '/API/auth/v1/auth';
const TOKEN = '99999999-9999-4999-8999-999999999999';
const APP = '88888888-8888-4888-8888-888888888888';
const ok = (r: { status: number }) => expect(r.status).toBeLessThan(300);

describe('TokensController (HTTP layer, faked services)', () => {
  const lifecycle = {
    describeCurrent: jest.fn(async () => ({ id: 'current' })),
    renew: jest.fn(async () => ({ token: 't' })),
    revoke: jest.fn(async () => undefined),
    describe: jest.fn(async () => ({ id: TOKEN })),
  };
  const queries = {
    listForUser: jest.fn(async () => ({ objects: [] })),
    listForApp: jest.fn(async () => ({ objects: [] })),
  };
  const s = useControllerSpec({
    controllers: [TokensController],
    providers: [
      { provide: TokenLifecycleService, useValue: lifecycle },
      { provide: TokenQueriesService, useValue: queries },
    ],
    callers: {
      colleague: {},
      frozen: { status: 'FROZEN' },
      deactivated: { status: 'DEACTIVATED' },
      tokenReader: { roles: ['can_read_tokens'] },
    },
    entities: {
      token: { label: 'Token', ids: [TOKEN], owners: { [TOKEN]: 'user' } },
      app: { label: 'App', ids: [APP] },
    },
  });

  it('needs a token (401); the temporary sign-in token and a deactivated domain’s are refused (401)', async () => {
    const res = await s.http.get(`${AUTH}/token`).expect(401);
    expect(res.body).toEqual({ errors: ['Authentication credentials were not provided'] });
    await s.http.get(`${AUTH}/token`).set(s.as('temp')).expect(401);
    const gone = await s.http.get(`${AUTH}/token`).set(s.as('deactivated')).expect(401);
    expect(gone.body).toEqual({ errors: ['System domain is deactivated'] });
    expect(lifecycle.describeCurrent).not.toHaveBeenCalled();
  });

  it('an OAuth token with any scope describes and revokes itself, but renewing needs user_impersonation', async () => {
    await s.http.get(`${AUTH}/token`).set(s.as('oauth')).expect(200);
    expect(lifecycle.describeCurrent).toHaveBeenCalledWith(s.callers.oauth, expect.anything());
    await s.http.delete(`${AUTH}/token`).set(s.as('oauth')).expect(ok);
    expect(lifecycle.revoke).toHaveBeenCalledWith(s.callers.oauth.tokenId, s.callers.oauth);
    const res = await s.http.post(`${AUTH}/token`).set(s.as('oauth')).expect(403);
    expect(res.body).toEqual({ errors: ['This route needs the user_impersonation scope'] });
    await s.http.post(`${AUTH}/token`).set(s.as('impersonation')).expect(ok);
    expect(lifecycle.renew).toHaveBeenCalledWith(s.callers.impersonation, false);
  });

  it('a frozen domain still renews and revokes (whileFrozen)', async () => {
    await s.http.post(`${AUTH}/token`).set(s.as('frozen')).expect(ok);
    await s.http.put(`${AUTH}/token`).set(s.as('frozen')).expect(ok);
    expect(lifecycle.renew).toHaveBeenLastCalledWith(s.callers.frozen, true);
    await s.http.delete(`${AUTH}/token`).set(s.as('frozen')).expect(ok);
  });

  it('a token is its owner’s and the administrators’: anyone else, another domain or a bad id gets 404', async () => {
    await s.http.get(`${AUTH}/token/${TOKEN}`).set(s.as('user')).expect(200);
    expect(lifecycle.describe).toHaveBeenCalledWith(TOKEN, s.callers.user);
    await s.http.get(`${AUTH}/token/${TOKEN}`).set(s.as('admin')).expect(200);
    lifecycle.describe.mockClear();
    const hidden = [
      ['colleague', TOKEN],
      ['otherAdmin', TOKEN],
      ['admin', 'nonsense'],
    ] as const;
    await expectNotFound(s, hidden, 'Token not found', (id) => [
      s.http.get(`${AUTH}/token/${id}`),
      s.http.delete(`${AUTH}/token/${id}`),
    ]);
    expect(lifecycle.describe).not.toHaveBeenCalled();
    expect(lifecycle.revoke).not.toHaveBeenCalled();
  });

  it('an app’s tokens need an administrator with can_read_tokens, and the app in the caller’s domain', async () => {
    const res = await s.http.get(`${AUTH}/${APP}/tokens`).set(s.as('tokenReader')).expect(403);
    expect(res.body).toEqual({ errors: ['Requires an administrator'] });
    await s.http.get(`${AUTH}/${APP}/tokens`).set(s.as('otherAdmin')).expect(404);
    await s.http.get(`${AUTH}/${APP}/tokens`).set(s.as('admin')).expect(200);
    expect(queries.listForApp).toHaveBeenCalledWith(
      APP,
      s.callers.admin.systemDomainId,
      expect.anything(),
      `${AUTH}/${APP}/tokens`,
    );
  });

  it('the caller’s own tokens: any caller, their own user and domain', async () => {
    await s.http.get(`${AUTH}/tokens`).set(s.as('user')).expect(200);
    expect(queries.listForUser).toHaveBeenCalledWith(
      s.callers.user.userId,
      s.callers.user.systemDomainId,
      expect.anything(),
      `${AUTH}/tokens`,
    );
  });
});
