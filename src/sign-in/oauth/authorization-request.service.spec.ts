import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import { CODE_TTL_SECONDS } from './authorization-request.service.js';
import {
  app,
  APP_ID,
  CHALLENGE,
  NOW,
  params,
  setup,
} from '../../../test/utils/authorization-request-fakes.js';
import { approver, refusal, validRequest as valid } from '../../../test/utils/fakes/authorization-request.js';

describe('AuthorizationRequestService.validate (the request, in an order that trusts nothing unverified)', () => {
  it('a valid request: the app, the redirect URI, every allowed scope when none is asked, the challenge', async () => {
    const s = setup();
    const v = await s.service.validate(params({ state: 'xyz' }));
    expect(s.repo.clientApp).toHaveBeenCalledWith(APP_ID);
    expect(v).toEqual({
      ...valid(),
      redirectUri: 'https://client.example/cb',
      scopes: ['read', 'write'],
      state: 'xyz',
    });
  });

  it.each([
    ['missing', undefined],
    ['not a UUID', 'abc'],
    ['not a string', ['a', 'b'] as unknown as string],
  ])('client_id %s: Unknown application, and no lookup', async (_what, clientId) => {
    const s = setup();
    const e = await refusal(s.service.validate(params({ client_id: clientId })));
    expect([e.title, e.status]).toEqual(['Unknown application', 400]);
    expect(s.repo.clientApp).not.toHaveBeenCalled();
  });

  it('no such (third-party) app: Unknown application', async () => {
    const e = await refusal(setup(null).service.validate(params()));
    expect([e.title, e.detail]).toEqual(['Unknown application', 'No application has this client_id.']);
  });

  it('a service-account app: Not an OAuth application, before the redirect URI is looked at', async () => {
    const e = await refusal(
      setup(app({ type: 'PAT' } as Partial<AppEntity>)).service.validate(params({ redirect_uri: 'x' })),
    );
    expect(e.title).toBe('Not an OAuth application');
  });

  it('the redirect URI: required, and registered exactly or in the form registration would store', async () => {
    const s = setup();
    expect((await refusal(s.service.validate(params({ redirect_uri: '' })))).title).toBe(
      'Missing redirect URI',
    );
    expect(
      (await refusal(s.service.validate(params({ redirect_uri: 'https://client.example/other' })))).title,
    ).toBe('Unregistered redirect URI');
    expect(
      (await refusal(s.service.validate(params({ redirect_uri: 'https://client.example/cb#f' })))).title,
    ).toBe('Unregistered redirect URI');
    for (const other of ['https://client.example:444/cb', 'https://client.example/cb/']) {
      expect((await refusal(s.service.validate(params({ redirect_uri: other })))).title).toBe(
        'Unregistered redirect URI',
      );
    }
    const v = await s.service.validate(params({ redirect_uri: 'https://CLIENT.example/cb' }));
    expect(v.redirectUri).toBe('https://CLIENT.example/cb');
  });

  it('a bad redirect URI is told before a bad response type (the redirect is not trusted yet)', async () => {
    const e = await refusal(
      setup().service.validate(params({ redirect_uri: 'https://evil.example/', response_type: 'token' })),
    );
    expect(e.title).toBe('Unregistered redirect URI');
  });

  it.each([['token'], [undefined]])('response_type must be code (%s is not)', async (responseType) => {
    const e = await refusal(setup().service.validate(params({ response_type: responseType })));
    expect(e.title).toBe('Unsupported response type');
  });

  it('PKCE: a challenge is required, S256 only, 43 base64url characters', async () => {
    const s = setup();
    expect((await refusal(s.service.validate(params({ code_challenge: undefined })))).title).toBe(
      'PKCE required',
    );
    expect((await refusal(s.service.validate(params({ code_challenge_method: 'plain' })))).title).toBe(
      'PKCE method not supported',
    );
    expect((await refusal(s.service.validate(params({ code_challenge_method: undefined })))).title).toBe(
      'PKCE method not supported',
    );
    expect((await refusal(s.service.validate(params({ code_challenge: 'short' })))).title).toBe(
      'Invalid PKCE challenge',
    );
  });

  it('scopes: a subset of the app’s, duplicates and extra spaces dropped; others named with the allowed ones', async () => {
    const s = setup();
    expect((await s.service.validate(params({ scope: ' read  read ' }))).scopes).toEqual(['read']);
    expect((await s.service.validate(params({ scope: '' }))).scopes).toEqual(['read', 'write']);
    const e = await refusal(s.service.validate(params({ scope: 'read admin' })));
    expect([e.title, e.detail]).toEqual([
      'Invalid scope',
      'Not allowed for this application: admin. Allowed: read write.',
    ]);
    const none = await refusal(
      setup(app({ allowed_scopes: [] })).service.validate(params({ scope: 'read' })),
    );
    expect(none.detail).toBe('Not allowed for this application: read. Allowed: (none).');
  });

  it('state: optional (null), at most 1024 characters', async () => {
    const s = setup();
    expect((await s.service.validate(params())).state).toBeNull();
    expect((await s.service.validate(params({ state: 's'.repeat(1024) }))).state).toHaveLength(1024);
    expect((await refusal(s.service.validate(params({ state: 's'.repeat(1025) })))).title).toBe(
      'Invalid state',
    );
  });
});

describe('AuthorizationRequestService.requireApprover (who may approve an app of domain B)', () => {
  it('a member signed in to B with a factor that passed: no domain or factor read', async () => {
    const s = setup(app(), ['TOTP']);
    await s.service.requireApprover(valid(), approver({}, true));
    expect(s.domains.byId).not.toHaveBeenCalled();
    expect(s.mfa.owedFor).not.toHaveBeenCalled();
  });

  it('not a member of B: 403 Wrong domain, not offered to sign in again', async () => {
    const e = await refusal(
      setup().service.requireApprover(valid(), approver({ systemDomains: ['d2'], systemDomainId: 'd2' })),
    );
    expect([e.title, e.status, e.signInAgain]).toEqual(['Wrong domain', 403, false]);
  });

  it('a member signed in to another of their domains: 403, may sign in again', async () => {
    const e = await refusal(setup().service.requireApprover(valid(), approver({ systemDomainId: 'd2' })));
    expect([e.title, e.status, e.signInAgain]).toEqual(['Signed in to another domain', 403, true]);
  });

  it('a session with a ceiling (a tenant’s SSO of an account it does not own): 403, sign in with the password', async () => {
    const e = await refusal(
      setup().service.requireApprover(
        valid(),
        approver({ rightsCap: { roles: [] } } as unknown as Partial<AuthContext>),
      ),
    );
    expect([e.title, e.status, e.signInAgain]).toEqual(['Sign in with your password', 403, true]);
  });

  it('a sign-in without a factor where B owes one now: 403 Second factor required, may sign in again', async () => {
    const s = setup(app(), ['TOTP', 'RECOVERY']);
    const e = await refusal(s.service.requireApprover(valid(), approver()));
    expect([e.title, e.status, e.signInAgain]).toEqual(['Second factor required', 403, true]);
    expect(s.domains.byId).toHaveBeenCalledWith('d1');
    expect(s.mfa.owedFor).toHaveBeenCalledWith('u1', s.domain);
  });

  it('a sign-in without a factor where none is owed passes', async () => {
    await expect(setup(app(), null).service.requireApprover(valid(), approver())).resolves.toBeUndefined();
  });
});

describe('AuthorizationRequestService.decide (where the browser goes next)', () => {
  it('allow: stores the code’s hash bound to the request (60 s, one grant, the sign-in’s factor) and redirects with it', async () => {
    const s = setup();
    const url = new URL(await s.service.decide(valid(), approver({}, true), true, 'https://issuer.example'));
    const code = url.searchParams.get('code') as string;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(`${url.origin}${url.pathname}`).toBe('https://client.example/cb');
    expect(url.searchParams.get('x')).toBe('1');
    expect(url.searchParams.get('state')).toBe('st');
    expect(url.searchParams.get('iss')).toBe('https://issuer.example');
    expect(s.repo.insertCode).toHaveBeenCalledTimes(1);
    const row = s.repo.insertCode.mock.calls[0][1];
    expect(row).toEqual({
      code_hash: sha256Hex(code),
      app_id: APP_ID,
      user_id: 'u1',
      system_domain_id: 'd1',
      redirect_uri: 'https://client.example/cb?x=1',
      scopes: ['read'],
      code_challenge: CHALLENGE,
      expires: new Date(NOW.getTime() + CODE_TTL_SECONDS * 1000),
      grant_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      is_mfa_authenticated: true,
    });
  });

  it('deny: access_denied with the state and issuer, no code stored', async () => {
    const s = setup();
    const url = new URL(await s.service.decide(valid(), approver(), false, 'https://issuer.example'));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      x: '1',
      error: 'access_denied',
      error_description: 'The user denied the request',
      state: 'st',
      iss: 'https://issuer.example',
    });
    expect(s.repo.insertCode).not.toHaveBeenCalled();
  });

  it('no state in the request: none in the redirect', async () => {
    const url = new URL(
      await setup().service.decide({ ...valid(), state: null }, approver(), false, 'https://i'),
    );
    expect(url.searchParams.has('state')).toBe(false);
  });

  it('the approver is checked first: a refused approver gets no code, not even a denial redirect', async () => {
    const s = setup();
    await refusal(s.service.decide(valid(), approver({ systemDomainId: 'd2' }), true, 'https://i'));
    await refusal(s.service.decide(valid(), approver({ systemDomainId: 'd2' }), false, 'https://i'));
    expect(s.repo.insertCode).not.toHaveBeenCalled();
  });
});

describe('AuthorizationRequestService.describeScopes', () => {
  it('known scopes get their description, unknown ones their name', () => {
    const [unknown] = setup().service.describeScopes(['no-such-scope']);
    expect(unknown).toEqual({ name: 'no-such-scope', description: 'no-such-scope' });
  });
});
