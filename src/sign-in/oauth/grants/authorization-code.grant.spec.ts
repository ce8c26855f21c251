import { jest } from '@jest/globals';
import { sha256Hex } from '../../../base/common/crypto/secrets.js';
import type { AuditOrigin } from '../../../delivery/audit/audit-origin.js';
import type { AppEntity } from '../../../base/model/app.entity.js';
import type { AuthorizationCodeEntity } from '../../../base/model/authorization-code.entity.js';
import type { AuthenticatedClient } from '../client-auth.service.js';
import type { TokenResponse } from '../oauth-tokens.service.js';
import { s256 } from '../pkce.js';
import { AuthorizationCodeGrant } from './authorization-code.grant.js';
import { fixedClock, repoWithTransaction } from '../../../../test/utils/fakes.js';
import { EM, NOW } from '../../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../../test/utils/fakes/construct.js';

const VERIFIER = 'v'.repeat(43);
const ORIGIN = { requestId: 'r1', ip: '203.0.113.9' } as unknown as AuditOrigin;
const client = { app: { id: 'app1' } as AppEntity, authenticated: true } as AuthenticatedClient;
const RESPONSE = { access_token: 'at', refresh_token: 'rt' } as TokenResponse;

const code = (over: Partial<AuthorizationCodeEntity> = {}) =>
  ({
    app_id: 'app1',
    user_id: 'u1',
    system_domain_id: 'd1',
    scopes: ['read'],
    grant_id: 'g1',
    is_mfa_authenticated: true,
    redirect_uri: 'https://client.example/cb',
    code_challenge: s256(VERIFIER),
    expires: new Date(NOW.getTime() + 30_000),
    used_at: null,
    ...over,
  }) as AuthorizationCodeEntity;

const UNCLAIMED = 'unclaimed';

function setup(
  claimed: AuthorizationCodeEntity | typeof UNCLAIMED = code(),
  replay: AuthorizationCodeEntity | null = null,
) {
  const repo = repoWithTransaction(EM, {
    claimCode: jest.fn(async () => (claimed === UNCLAIMED ? undefined : claimed)),
    findCode: jest.fn(async () => replay),
  });
  const tokens = {
    issue: jest.fn(async () => RESPONSE),
    revokeGrant: jest.fn(async () => undefined),
  };
  // a plain OAuth grant has no id_token (IdTokenService answers undefined): the OpenID suite covers the other
  const idTokens = { issue: jest.fn(async (): Promise<string | undefined> => undefined) };
  const grant = construct(AuthorizationCodeGrant, tokens, fixedClock(NOW), repo, idTokens);
  return { grant, repo, tokens, idTokens };
}

const params = (over: Record<string, string | undefined> = {}) => ({
  code: 'the-code',
  redirect_uri: 'https://client.example/cb',
  code_verifier: VERIFIER,
  ...over,
});

const grantError = (description: string) =>
  expect.objectContaining({ error: 'invalid_grant', description, status: 400 });

describe('AuthorizationCodeGrant', () => {
  it('a good exchange: claims the code, then issues the grant’s tokens with a refresh token, in one transaction', async () => {
    const s = setup();
    await expect(s.grant.handle(client, params(), ORIGIN)).resolves.toBe(RESPONSE);
    expect(s.repo.transaction).toHaveBeenCalledTimes(1);
    expect(s.repo.claimCode).toHaveBeenCalledWith(EM, sha256Hex('the-code'), 'app1', NOW);
    expect(s.tokens.issue).toHaveBeenCalledWith(
      EM,
      {
        appId: 'app1',
        userId: 'u1',
        systemDomainId: 'd1',
        scopes: ['read'],
        grantId: 'g1',
        mfa: true,
        origin: ORIGIN,
      },
      true,
    );
  });

  it.each([
    ['code', 'code is required'],
    ['redirect_uri', 'redirect_uri is required'],
    ['code_verifier', 'code_verifier is required (PKCE is mandatory)'],
  ])('missing %s: invalid_request before any statement', async (name, description) => {
    const s = setup();
    await expect(s.grant.handle(client, params({ [name]: undefined }), ORIGIN)).rejects.toMatchObject({
      error: 'invalid_request',
      description,
    });
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it.each([
    ['42 characters', 'A'.repeat(42)],
    ['129 characters', 'A'.repeat(129)],
    ['a character outside the unreserved set', `${'A'.repeat(42)}+`],
    ['a space', `${'A'.repeat(21)} ${'A'.repeat(21)}`],
  ])('a verifier of %s: invalid_request, and the code is not spent (no claim)', async (_w, verifier) => {
    const s = setup();
    await expect(s.grant.handle(client, params({ code_verifier: verifier }), ORIGIN)).rejects.toMatchObject({
      error: 'invalid_request',
      description: 'code_verifier must be 43 to 128 unreserved characters',
    });
    expect(s.repo.transaction).not.toHaveBeenCalled();
    expect(s.repo.claimCode).not.toHaveBeenCalled();
  });

  it('verifiers of 43 and of 128 unreserved characters pass the shape check', async () => {
    for (const verifier of ['A'.repeat(43), `${'a-._~'.repeat(25)}Zz09`.slice(0, 128)]) {
      const s = setup(code({ code_challenge: s256(verifier) }));
      await expect(s.grant.handle(client, params({ code_verifier: verifier }), ORIGIN)).resolves.toBe(
        RESPONSE,
      );
    }
  });

  it.each([
    ['a trailing slash added', 'https://client.example/cb/'],
    ['another port', 'https://client.example:8443/cb'],
    ['the explicit default port', 'https://client.example:443/cb'],
    ['another scheme', 'http://client.example/cb'],
    ['a query added', 'https://client.example/cb?x=1'],
    ['another URI', 'http://localhost:8080/cb'],
  ])('redirect_uri with %s: not identical, invalid_grant', async (_w, redirectUri) => {
    const s = setup();
    await expect(s.grant.handle(client, params({ redirect_uri: redirectUri }), ORIGIN)).rejects.toEqual(
      grantError('redirect_uri does not match the authorization request'),
    );
    expect(s.tokens.issue).not.toHaveBeenCalled();
  });

  it('the challenge itself sent as the verifier (plain PKCE): invalid_grant', async () => {
    const s = setup();
    await expect(s.grant.handle(client, params({ code_verifier: s256(VERIFIER) }), ORIGIN)).rejects.toEqual(
      grantError('code_verifier does not match'),
    );
  });

  it.each([
    ['expired', code({ expires: NOW }), 'The authorization code has expired'],
    [
      'another redirect URI',
      code({ redirect_uri: 'https://client.example/other' }),
      'redirect_uri does not match the authorization request',
    ],
    [
      'another verifier’s challenge',
      code({ code_challenge: s256('w'.repeat(43)) }),
      'code_verifier does not match',
    ],
  ])(
    'a claimed code %s: invalid_grant, nothing issued (the claim stays: the code is used up)',
    async (_w, c, msg) => {
      const s = setup(c);
      await expect(s.grant.handle(client, params(), ORIGIN)).rejects.toEqual(grantError(msg));
      expect(s.tokens.issue).not.toHaveBeenCalled();
      expect(s.tokens.revokeGrant).not.toHaveBeenCalled();
    },
  );

  it('a code used before (a replay): what its first exchange issued is revoked, then invalid_grant', async () => {
    const s = setup(UNCLAIMED, code({ used_at: new Date(NOW.getTime() - 1000) }));
    await expect(s.grant.handle(client, params(), ORIGIN)).rejects.toEqual(
      grantError('The authorization code is invalid, expired or already used'),
    );
    expect(s.repo.findCode).toHaveBeenCalledWith(EM, sha256Hex('the-code'), 'app1');
    expect(s.tokens.revokeGrant).toHaveBeenCalledWith('g1', { requestId: 'r1', origin: ORIGIN });
    expect(s.tokens.issue).not.toHaveBeenCalled();
  });

  it('an unknown code (or another client’s): invalid_grant, nothing revoked', async () => {
    const s = setup(UNCLAIMED, null);
    await expect(s.grant.handle(client, params(), ORIGIN)).rejects.toEqual(
      grantError('The authorization code is invalid, expired or already used'),
    );
    expect(s.tokens.revokeGrant).not.toHaveBeenCalled();
  });

  it('declares only the parameters it reads', () => {
    expect(setup().grant.parameters).toEqual(['code', 'redirect_uri', 'code_verifier']);
    expect(setup().grant.grantType).toBe('authorization_code');
  });
});
