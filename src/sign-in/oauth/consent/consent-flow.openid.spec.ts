import type { AuthContext } from '../../../base/common/auth/auth-context.js';
import { ApiError } from '../../../base/common/errors/api-error.js';
import { CSRF_COOKIE, FIELDS, REQ, session, setup, v } from '../../../../test/utils/consent-flow-fakes.js';
import { AuthorizationRequestError, type ValidAuthorization } from '../authorization-request.service.js';
import { expectPage } from '../../../../test/utils/fakes/pages.js';
import { expectRethrown } from '../../../../test/utils/fakes/expect.js';
import { NOW, dbOutage } from '../../../../test/utils/fakes/fixtures.js';

// The OpenID Connect steps of the consent page (issue 40); the OAuth ones are consent-flow.service.spec.ts.

describe('ConsentFlow.show: OpenID Connect’s prompt, max_age and login_hint, remembered consent', () => {
  const ISSUER = 'https://auth.example';
  /** A signed-in session whose sign-in was `ago` seconds before NOW (auth_time; or date_created when none). */
  const signedIn = (ago: number, field: 'auth_time' | 'date_created' = 'auth_time') =>
    ({
      ...session,
      record: {
        auth_time: field === 'auth_time' ? new Date(NOW.getTime() - ago * 1000) : null,
        date_created: new Date(NOW.getTime() - ago * 1000),
      },
    }) as unknown as AuthContext;
  const oidc = (over: Partial<ValidAuthorization> = {}): ValidAuthorization => ({
    ...v,
    scopes: ['openid', 'email'],
    openid: true,
    nonce: 'n1',
    ...over,
  });
  function withRequest(over: Partial<ValidAuthorization>) {
    const s = setup(NOW);
    s.requests.validate.mockResolvedValue(oidc(over));
    return s;
  }
  const isSignInForm = (html?: string) => expect(html).toContain('type="password"');

  it('prompt=none without a session: login_required to the client (303), no form', async () => {
    const s = withRequest({ prompt: ['none'] });
    s.sessions.current.mockResolvedValueOnce(null);
    const out = await s.flow.show(REQ, { ...FIELDS, prompt: 'none' });
    expect(s.requests.errorRedirect).toHaveBeenCalledWith(
      oidc({ prompt: ['none'] }),
      'login_required',
      expect.any(String),
      ISSUER,
    );
    expect(out).toMatchObject({ status: 303, redirect: 'https://photos.example/cb?error=login_required' });
    expect(s.requests.decide).not.toHaveBeenCalled();
    expect(s.sso.loginUrl).not.toHaveBeenCalled();
  });

  it('prompt=none with a session that must sign in again (another domain, a factor owed): login_required', async () => {
    const s = withRequest({ prompt: ['none'] });
    s.requests.requireApprover.mockRejectedValueOnce(
      new AuthorizationRequestError('Second factor required', 'again', 403, true),
    );
    const out = await s.flow.show(REQ, FIELDS);
    expect(out.redirect).toBe('https://photos.example/cb?error=login_required');
  });

  it('prompt=none with a sign-in older than max_age: login_required', async () => {
    const s = withRequest({ prompt: ['none'], maxAge: 60 });
    s.sessions.current.mockResolvedValueOnce(signedIn(61));
    const out = await s.flow.show(REQ, FIELDS);
    expect(out.redirect).toBe('https://photos.example/cb?error=login_required');
  });

  it('prompt=none with a session, nothing remembered: consent_required, nothing decided', async () => {
    const s = withRequest({ prompt: ['none'] });
    const out = await s.flow.show(REQ, FIELDS);
    expect(s.requests.consentRemembered).toHaveBeenCalledWith(oidc({ prompt: ['none'] }), 'u1');
    expect(s.requests.errorRedirect).toHaveBeenCalledWith(
      expect.anything(),
      'consent_required',
      expect.any(String),
      ISSUER,
    );
    expect(out).toMatchObject({ status: 303, redirect: 'https://photos.example/cb?error=consent_required' });
    expect(s.requests.decide).not.toHaveBeenCalled();
  });

  it.each([[[]], [['none']]])(
    'a remembered consent (prompt %j): approved without the screen, decide(…, true), 303 to the client',
    async (prompt) => {
      const s = withRequest({ prompt });
      s.requests.consentRemembered.mockResolvedValueOnce(true);
      const out = await s.flow.show(REQ, FIELDS);
      expect(s.requests.decide).toHaveBeenCalledWith(oidc({ prompt }), session, true, ISSUER);
      expect(out).toMatchObject({
        status: 303,
        redirect: 'https://photos.example/cb?code=abc',
        cookies: [CSRF_COOKIE],
      });
      expect(s.requests.errorRedirect).not.toHaveBeenCalled();
    },
  );

  it('nothing remembered, no prompt: the consent page', async () => {
    const s = withRequest({});
    const out = await s.flow.show(REQ, FIELDS);
    expectPage(out, 200, 'wants to access your account');
    expect(s.requests.decide).not.toHaveBeenCalled();
  });

  it('prompt=consent: the consent page even when the consent is remembered', async () => {
    const s = withRequest({ prompt: ['consent'] });
    s.requests.consentRemembered.mockResolvedValue(true);
    const out = await s.flow.show(REQ, { ...FIELDS, prompt: 'consent' });
    expectPage(out, 200, 'wants to access your account');
    expect(s.requests.decide).not.toHaveBeenCalled();
  });

  it.each([[['login']], [['select_account']], [['login', 'consent']]])(
    'prompt %j with a good session: the sign-in form, nothing remembered or decided',
    async (prompt) => {
      const s = withRequest({ prompt });
      s.requests.consentRemembered.mockResolvedValue(true);
      const out = await s.flow.show(REQ, { ...FIELDS, prompt: prompt.join(' ') });
      expect(out.status).toBe(200);
      isSignInForm(out.html);
      expect(s.requests.consentRemembered).not.toHaveBeenCalled();
      expect(s.requests.decide).not.toHaveBeenCalled();
    },
  );

  it('max_age: a sign-in older than it signs in again; one within it (or exactly at it) is kept', async () => {
    const s = withRequest({ maxAge: 300 });
    s.sessions.current.mockResolvedValueOnce(signedIn(301));
    isSignInForm((await s.flow.show(REQ, FIELDS)).html);
    s.sessions.current.mockResolvedValueOnce(signedIn(300));
    expect((await s.flow.show(REQ, FIELDS)).html).toContain('wants to access your account');
    s.sessions.current.mockResolvedValueOnce(signedIn(10));
    expect((await s.flow.show(REQ, FIELDS)).html).toContain('wants to access your account');
  });

  it('max_age: a record without auth_time is measured from its creation', async () => {
    const s = withRequest({ maxAge: 300 });
    s.sessions.current.mockResolvedValueOnce(signedIn(301, 'date_created'));
    isSignInForm((await s.flow.show(REQ, FIELDS)).html);
    s.sessions.current.mockResolvedValueOnce(signedIn(299, 'date_created'));
    expect((await s.flow.show(REQ, FIELDS)).html).toContain('wants to access your account');
  });

  it('max_age=0: any sign-in that is not this instant signs in again', async () => {
    const s = withRequest({ maxAge: 0 });
    s.sessions.current.mockResolvedValueOnce(signedIn(1));
    isSignInForm((await s.flow.show(REQ, FIELDS)).html);
  });

  it('login_hint whose domain signs in with SSO: the IdP’s redirect page (the hint lower-cased, back to this request)', async () => {
    const s = withRequest({ loginHint: 'Ada@Tenant.EXAMPLE', prompt: ['login'] });
    const q = { ...FIELDS, login_hint: 'Ada@Tenant.EXAMPLE', prompt: 'login' };
    const out = await s.flow.show(REQ, q);
    expect(s.sso.loginUrl).toHaveBeenCalledWith('ada@tenant.example', expect.any(String));
    const back = new URL(s.sso.loginUrl.mock.calls[0][1], 'https://auth.example');
    expect(back.pathname).toBe('/oauth/authorize');
    // the SSO return signs in, and drops prompt=login then (the saml_code step)
    expect(Object.fromEntries(back.searchParams)).toEqual({ ...q });
    expectPage(out, 200, 'https://idp.example/sso');
    expect(out.html).not.toContain('type="password"');
  });

  it('login_hint without SSO: the sign-in form pre-filled with it (escaped)', async () => {
    const s = withRequest({ loginHint: 'ada@example.test' });
    s.sessions.current.mockResolvedValue(null);
    s.sso.loginUrl.mockResolvedValueOnce(null);
    const out = await s.flow.show(REQ, { ...FIELDS, login_hint: 'ada@example.test' });
    expectPage(out, 200, 'value="ada@example.test"');
    const hostile = '"><script>alert(1)</script>';
    s.requests.validate.mockResolvedValue(oidc({ loginHint: hostile }));
    s.sso.loginUrl.mockResolvedValueOnce(null);
    const escaped = await s.flow.show(REQ, { ...FIELDS, login_hint: hostile });
    expect(escaped.html).not.toContain('<script>alert(1)');
    expect(escaped.html).toContain('type="password"');
  });

  it('login_hint: an SSO lookup refused is the pre-filled form; the database down is thrown on', async () => {
    const s = withRequest({ loginHint: 'ada@example.test' });
    s.sessions.current.mockResolvedValue(null);
    s.sso.loginUrl.mockRejectedValueOnce(new ApiError(404, ['no sso']));
    const out = await s.flow.show(REQ, { ...FIELDS, login_hint: 'ada@example.test' });
    expect(out.html).toContain('value="ada@example.test"');
    await expectRethrown(
      s.sso.loginUrl,
      () => s.flow.show(REQ, { ...FIELDS, login_hint: 'ada@example.test' }),
      dbOutage(),
    );
  });

  it('no login_hint: no SSO lookup, an empty form', async () => {
    const s = withRequest({});
    s.sessions.current.mockResolvedValueOnce(null);
    const out = await s.flow.show(REQ, FIELDS);
    expect(s.sso.loginUrl).not.toHaveBeenCalled();
    expect(out.html).toContain('name="email" type="email" autocomplete="username" value=""');
  });
});

describe('ConsentFlow: after signing in, the request again without prompt=login and max_age', () => {
  const q = {
    ...FIELDS,
    scope: 'openid email',
    nonce: 'n1',
    prompt: 'login consent',
    max_age: '0',
    login_hint: 'a@example.test',
  };
  const params = (location?: string) =>
    Object.fromEntries(new URL(location as string, 'https://auth.example').searchParams);
  const kept = { ...FIELDS, scope: 'openid email', nonce: 'n1', login_hint: 'a@example.test' };

  it('a password sign-in: prompt=login and max_age dropped, every other field kept', async () => {
    const s = setup();
    const out = await s.flow.login(REQ, { ...q, csrf: 'csrf', email: 'a@example.test', password: 'pw' });
    expect(out.status).toBe(303);
    expect(out.redirect).toMatch(/^\/oauth\/authorize\?/);
    expect(params(out.redirect)).toEqual({ ...kept, prompt: 'consent' });
  });

  it.each([['login'], ['select_account'], ['login select_account']])(
    'prompt=%s alone: no prompt left at all',
    async (prompt) => {
      const s = setup();
      const out = await s.flow.login(REQ, {
        ...q,
        prompt,
        csrf: 'csrf',
        email: 'a@example.test',
        password: 'pw',
      });
      expect(params(out.redirect)).toEqual(kept);
    },
  );

  it('a second factor passed: the same', async () => {
    const s = setup();
    const out = await s.flow.secondFactor(REQ, { ...q, csrf: 'csrf', otp: '123456', otp_type: 'TOTP' });
    expect(params(out.redirect)).toEqual({ ...kept, prompt: 'consent' });
  });

  it('back from single sign-on: the same (the saml_code itself is not carried on)', async () => {
    const s = setup();
    const out = await s.flow.show(REQ, { ...q, saml_code: 'code' });
    expect(params(out.redirect)).toEqual({ ...kept, prompt: 'consent' });
  });

  it('the SSO button: the IdP returns to the request as it was (prompt=login kept until the return signs in)', async () => {
    const s = setup();
    await s.flow.login(REQ, { ...q, csrf: 'csrf', sso: '1', email: 'a@example.test' });
    expect(params(s.sso.loginUrl.mock.calls[0][1])).toEqual({
      ...kept,
      prompt: q.prompt,
      max_age: '0',
    });
  });
});
