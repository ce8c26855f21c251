import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { type AuthorizationParams, type ValidAuthorization } from './authorization-request.service.js';
import { app, APP_ID, params, setup } from '../../../test/utils/authorization-request-fakes.js';
import {
  approver as memberOfBoth,
  refusal,
  validRequest as valid,
} from '../../../test/utils/fakes/authorization-request.js';

// The OpenID Connect part of AuthorizationRequestService (issue 40); the OAuth part is
// authorization-request.service.spec.ts.

/** The approver, a member of d1 only. */
const approver = (over: Partial<AuthContext> = {}) => memberOfBoth({ systemDomains: ['d1'], ...over });

describe('AuthorizationRequestService.validate: the OpenID Connect parameters (Core §3.1.2.1)', () => {
  const oidcApp = () => app({ allowed_scopes: ['openid', 'profile', 'email', 'read'] });
  const title = async (p: Partial<AuthorizationParams>, found = oidcApp()) =>
    (await refusal(setup(found).service.validate(params(p)))).title;
  const ok = (p: Partial<AuthorizationParams>, found = oidcApp()) => setup(found).service.validate(params(p));

  it('all of them: read into the valid request', async () => {
    const v = await ok({
      scope: 'openid email',
      nonce: 'n-0S6_WzA2Mj',
      prompt: 'login consent',
      max_age: '600',
      login_hint: 'ada@example.test',
    });
    expect(v).toMatchObject({
      scopes: ['openid', 'email'],
      openid: true,
      nonce: 'n-0S6_WzA2Mj',
      prompt: ['login', 'consent'],
      maxAge: 600,
      loginHint: 'ada@example.test',
    });
  });

  it('openid: set by the openid scope, asked for or granted by default; not otherwise', async () => {
    expect((await ok({ scope: 'openid' })).openid).toBe(true);
    expect((await ok({})).openid).toBe(true); // no scope asked: every allowed scope, openid among them
    expect((await ok({ scope: 'read profile' })).openid).toBe(false);
    expect((await ok({}, app())).openid).toBe(false);
    // an app not allowed openid cannot ask for it
    expect(await title({ scope: 'openid' }, app())).toBe('Invalid scope');
    // scope names are exact
    expect(await title({ scope: 'OpenID' })).toBe('Invalid scope');
  });

  it('nonce: optional (empty is none), at most 512 characters', async () => {
    expect((await ok({ nonce: '' })).nonce).toBeNull();
    expect((await ok({ nonce: 'n'.repeat(512) })).nonce).toHaveLength(512);
    expect(await title({ nonce: 'n'.repeat(513) })).toBe('Invalid nonce');
    expect((await ok({ nonce: ['a', 'b'] as unknown as string })).nonce).toBeNull();
  });

  it('prompt: none, login, consent, select_account, space separated, duplicates dropped', async () => {
    for (const p of ['none', 'login', 'consent', 'select_account'])
      expect((await ok({ prompt: p })).prompt).toEqual([p]);
    expect((await ok({ prompt: ' login  login consent ' })).prompt).toEqual(['login', 'consent']);
    expect((await ok({ prompt: '' })).prompt).toEqual([]);
    expect((await ok({ prompt: ['none', 'x'] as unknown as string })).prompt).toEqual([]);
  });

  it.each([['bogus'], ['LOGIN'], ['login,consent'], ['login\tconsent'], ['none\u00a0'], ['consent create']])(
    'prompt %j: Invalid prompt',
    async (prompt) => {
      expect(await title({ prompt })).toBe('Invalid prompt');
    },
  );

  it('prompt=none with any other value is refused (Core §3.1.2.1)', async () => {
    for (const prompt of ['none login', 'consent none', 'none select_account', 'none none login']) {
      const e = await refusal(setup(oidcApp()).service.validate(params({ prompt })));
      expect([e.title, e.detail]).toEqual([
        'Invalid prompt',
        'prompt=none cannot be combined with other values.',
      ]);
    }
    expect((await ok({ prompt: 'none none' })).prompt).toEqual(['none']);
  });

  it('max_age: whole seconds, digits only (at most 9)', async () => {
    expect((await ok({ max_age: '0' })).maxAge).toBe(0);
    expect((await ok({ max_age: '3600' })).maxAge).toBe(3600);
    expect((await ok({ max_age: '999999999' })).maxAge).toBe(999999999);
    expect((await ok({ max_age: '' })).maxAge).toBeNull();
    expect((await ok({})).maxAge).toBeNull();
  });

  it.each([['-1'], ['1.5'], ['1e3'], [' 60'], ['60 '], ['0x10'], ['60s'], ['1000000000'], ['+5'], ['٣']])(
    'max_age %j: Invalid max_age',
    async (max_age) => {
      expect(await title({ max_age })).toBe('Invalid max_age');
    },
  );

  it('login_hint: trimmed, at most 320 characters, blank is none', async () => {
    expect((await ok({ login_hint: '  ada@example.test ' })).loginHint).toBe('ada@example.test');
    expect((await ok({ login_hint: '   ' })).loginHint).toBeNull();
    expect((await ok({ login_hint: 'a'.repeat(320) })).loginHint).toHaveLength(320);
    expect(await title({ login_hint: 'a'.repeat(321) })).toBe('Invalid login_hint');
    expect((await ok({ login_hint: ['a', 'b'] as unknown as string })).loginHint).toBeNull();
  });

  it('the OpenID parameters are checked after the client and its redirect URI (an error page either way)', async () => {
    expect(await title({ redirect_uri: 'https://evil.example/', nonce: 'n'.repeat(600) })).toBe(
      'Unregistered redirect URI',
    );
    expect(await title({ code_challenge: undefined, prompt: 'bogus' })).toBe('PKCE required');
  });
});

describe('AuthorizationRequestService.decide with openid', () => {
  const oidcRequest = (over: Partial<ValidAuthorization> = {}): ValidAuthorization => ({
    ...valid(),
    scopes: ['openid', 'email'],
    openid: true,
    nonce: 'n1',
    ...over,
  });
  const record = { id: 'session-1', is_mfa_authenticated: true };
  const signedIn = () => approver({ record } as unknown as Partial<AuthContext>);

  /** The transaction's manager, and the order of begin, the statements and commit. */
  function tracked() {
    const s = setup();
    const order: string[] = [];
    const em = { tx: 1 };
    s.repo.transaction.mockImplementation(async <T>(work: (em: unknown) => Promise<T>) => {
      order.push('begin');
      const out = await work(em);
      order.push('commit');
      return out;
    });
    s.repo.insertCode.mockImplementation(async () => void order.push('code'));
    s.idTokens.recordGrant.mockImplementation(async () => void order.push('grant'));
    s.consents.remember.mockImplementation(async () => void order.push('remember'));
    return { ...s, order, em };
  }

  it('allow: the grant’s sign-in recorded and the consent remembered, in the transaction that stores the code', async () => {
    const s = tracked();
    const url = new URL(await s.service.decide(oidcRequest(), signedIn(), true, 'https://issuer.example'));
    expect(url.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.order).toEqual(['begin', 'code', 'grant', 'remember', 'commit']);
    const [codeEm, row] = s.repo.insertCode.mock.calls[0];
    expect(codeEm).toBe(s.em);
    expect(s.idTokens.recordGrant).toHaveBeenCalledWith(s.em, {
      grantId: row.grant_id,
      appId: APP_ID,
      userId: 'u1',
      session: record,
      nonce: 'n1',
    });
    expect(s.consents.remember).toHaveBeenCalledWith(s.em, 'u1', APP_ID, ['openid', 'email']);
  });

  it('a request without a nonce records none', async () => {
    const s = tracked();
    await s.service.decide(oidcRequest({ nonce: null }), signedIn(), true, 'https://i');
    expect((s.idTokens.recordGrant.mock.calls[0] as unknown[])[1]).toMatchObject({ nonce: null });
  });

  it('without openid: neither recorded nor remembered', async () => {
    const s = tracked();
    await s.service.decide(valid(), signedIn(), true, 'https://i');
    expect(s.order).toEqual(['begin', 'code', 'commit']);
    expect(s.idTokens.recordGrant).not.toHaveBeenCalled();
    expect(s.consents.remember).not.toHaveBeenCalled();
  });

  it('deny: nothing stored, recorded or remembered', async () => {
    const s = tracked();
    const url = new URL(await s.service.decide(oidcRequest(), signedIn(), false, 'https://i'));
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(s.order).toEqual([]);
    expect(s.idTokens.recordGrant).not.toHaveBeenCalled();
    expect(s.consents.remember).not.toHaveBeenCalled();
  });

  it('recording the sign-in fails: the decision fails with it (no code reaches the client)', async () => {
    const s = tracked();
    const fault = new Error('insert failed');
    s.idTokens.recordGrant.mockRejectedValueOnce(fault);
    await expect(s.service.decide(oidcRequest(), signedIn(), true, 'https://i')).rejects.toBe(fault);
    expect(s.consents.remember).not.toHaveBeenCalled();
    expect(s.order).not.toContain('commit');
  });
});

describe('AuthorizationRequestService.errorRedirect and consentRemembered', () => {
  it('errorRedirect: the error, its description, the state and the issuer on the redirect URI', () => {
    const url = new URL(
      setup().service.errorRedirect(
        valid(),
        'login_required',
        'The user must sign in',
        'https://issuer.example',
      ),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://client.example/cb');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      x: '1',
      error: 'login_required',
      error_description: 'The user must sign in',
      state: 'st',
      iss: 'https://issuer.example',
    });
    const none = new URL(
      setup().service.errorRedirect({ ...valid(), state: null }, 'consent_required', 'd', 'https://i'),
    );
    expect(none.searchParams.has('state')).toBe(false);
  });

  it('consentRemembered: asks the consent memory for the person, the app and the request’s scopes', async () => {
    const s = setup();
    s.consents.covers.mockResolvedValueOnce(true);
    expect(await s.service.consentRemembered({ ...valid(), scopes: ['openid', 'read'] }, 'u1')).toBe(true);
    expect(s.consents.covers).toHaveBeenCalledWith('u1', APP_ID, ['openid', 'read']);
  });
});
