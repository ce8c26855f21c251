import type { Request } from 'express';
import { ApiError } from '../../../base/common/errors/api-error.js';
import {
  CSRF_COOKIE,
  domain,
  FIELDS,
  PENDING_COOKIES,
  SESSION_COOKIES,
  setup,
  v,
} from '../../../../test/utils/consent-flow-fakes.js';
import { expectPage, factorOwed } from '../../../../test/utils/fakes/pages.js';
import { expectRethrown } from '../../../../test/utils/fakes/expect.js';
import { dbOutage } from '../../../../test/utils/fakes/fixtures.js';

// The federated steps of the consent page (issue 39): the OpenID provider's return, the email step routed to
// a directory or provider, "Continue with …", and the directory's password form. The OAuth steps are
// consent-flow.service.spec.ts, OpenID Connect's consent-flow.openid.spec.ts.

/** A public request as Express gives it: the audit origin of each sign-in comes from it. */
const REQ = { id: 'req-7', ip: '203.0.113.9' } as unknown as Request;
const ORIGIN = {
  actorUserId: null,
  actorAppId: null,
  actorKind: null,
  requestId: 'req-7',
  clientAddress: '203.0.113.9',
};
const FEDERATION_DOWN = 'did not answer; please try again later.';
const BACK = /^\/oauth\/authorize\?client_id=app1&redirect_uri=https%3A%2F%2Fphotos\.example%2Fcb&state=st$/;
const form = { ...FIELDS, csrf: 'csrf', email: 'jo@corp.example', password: 'pw' };

/** The flow with no session, so that GET shows the sign-in form; the app's domain offers `choices`. */
function signedOut(choices?: {
  providers?: { id: string; name: string }[];
  directories?: { name: string }[];
}) {
  const s = setup();
  s.sessions.current.mockResolvedValue(null);
  s.federation.choices.mockResolvedValue({
    providers: choices?.providers ?? [],
    directories: choices?.directories ?? [],
  });
  return s;
}

describe('ConsentFlow.show: back from an OpenID provider (oauth_code)', () => {
  it('the code becomes the session, then the same request again (303), the code left out', async () => {
    const s = setup();
    const out = await s.flow.show(REQ, { ...FIELDS, prompt: 'login', oauth_code: 'one-time' });
    expect(s.federation.oauthReturn).toHaveBeenCalledWith('one-time', ORIGIN);
    expect(s.sessions.startWith).toHaveBeenCalledWith('oidc-jwt');
    expect(out).toMatchObject({ status: 303, cookies: [CSRF_COOKIE, ...SESSION_COOKIES] });
    // signed in just now: prompt=login is satisfied, and the code is not sent round again
    expect(out.redirect).toMatch(BACK);
    expect(s.sso.exchange).not.toHaveBeenCalled();
    expect(s.sessions.current).not.toHaveBeenCalled();
  });

  it.each([
    ['refused (401)', () => Promise.reject(new ApiError(401, ['The sign-in code is invalid']))],
    ['answered without a token', () => Promise.resolve({})],
  ])('a code %s: 401 sign-in form saying single sign-on failed, no session', async (_w, answer) => {
    const s = setup();
    s.federation.oauthReturn.mockImplementationOnce(answer as never);
    const out = await s.flow.show(REQ, { ...FIELDS, oauth_code: 'used' });
    expectPage(out, 401, 'Single sign-on failed.');
    expect(s.sessions.startWith).not.toHaveBeenCalled();
  });

  it('the database down at the exchange is thrown on (the 503 page of the filter)', async () => {
    const s = setup();
    await expectRethrown(
      s.federation.oauthReturn,
      () => s.flow.show(REQ, { ...FIELDS, oauth_code: 'x' }),
      dbOutage(),
    );
  });
});

describe('ConsentFlow: the sign-in form’s “Continue with …” choices', () => {
  it('lists the app’s domain’s providers and directory, names HTML-escaped', async () => {
    const s = signedOut({
      providers: [
        { id: 'p1', name: 'Corp Entra' },
        { id: 'p2', name: '<img src=x onerror=alert(1)> & "Co"' },
      ],
      directories: [{ name: '<b>HQ</b> LDAP' }],
    });
    const out = await s.flow.show(REQ, FIELDS);
    expect(s.federation.choices).toHaveBeenCalledWith('d1');
    expectPage(
      out,
      200,
      'Continue with Corp Entra',
      'name="provider_id" value="p1"',
      'Continue with &lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;',
      'Continue with &lt;b&gt;HQ&lt;/b&gt; LDAP',
      'name="directory" value="form"',
    );
    expect(out.html).not.toContain('<img');
    expect(out.html).not.toContain('<b>');
  });

  it('a domain without providers or directory: the form without “Continue with” buttons', async () => {
    const s = signedOut();
    const out = await s.flow.show(REQ, FIELDS);
    expect(out.html).toContain('type="password"');
    expect(out.html).not.toContain('name="provider_id"');
    expect(out.html).not.toContain('name="directory"');
  });
});

describe('ConsentFlow.show with login_hint: the email step', () => {
  const hinted = (s: ReturnType<typeof setup>) =>
    s.requests.validate.mockResolvedValue({ ...v, loginHint: 'Jo@Corp.example' });

  it('an email routed to a directory: its password form, pre-filled', async () => {
    const s = signedOut();
    hinted(s);
    s.federation.emailStep.mockResolvedValueOnce({ directory: 'Corp LDAP' } as never);
    const out = await s.flow.show(REQ, { ...FIELDS, login_hint: 'Jo@Corp.example' });
    expect(s.federation.emailStep).toHaveBeenCalledWith(
      'jo@corp.example',
      expect.stringMatching(/^\/oauth\/authorize\?/),
    );
    expectPage(out, 200, 'With your Corp LDAP account', 'name="directory" value="1"');
  });

  it('an OpenID provider that does not answer (503): the 503 form, not a 500', async () => {
    const s = signedOut();
    hinted(s);
    s.federation.emailStep.mockRejectedValueOnce(new ApiError(503, ['The OpenID provider did not answer']));
    const out = await s.flow.show(REQ, { ...FIELDS, login_hint: 'jo@corp.example' });
    expectPage(out, 503, FEDERATION_DOWN);
  });
});

describe('ConsentFlow.login: single sign-on by email (sso=1)', () => {
  it('an email routed to a directory: the directory’s password form (200) with its name and the email', async () => {
    const s = setup();
    s.federation.emailStep.mockResolvedValueOnce({ directory: 'Corp LDAP' } as never);
    const out = await s.flow.login(REQ, { ...form, sso: '1', email: ' Jo@Corp.Example ' });
    expect(s.federation.emailStep).toHaveBeenCalledWith(
      'jo@corp.example',
      expect.stringMatching(/^\/oauth\/authorize\?/),
    );
    expectPage(
      out,
      200,
      'With your Corp LDAP account',
      'value="jo@corp.example"',
      'name="directory" value="1"',
    );
    expect(s.credentials.verify).not.toHaveBeenCalled();
  });

  it('an email routed to an OpenID provider: the redirect page to it', async () => {
    const s = setup();
    s.federation.emailStep.mockResolvedValueOnce({ url: 'https://op.example/auth?client_id=c&state=s' });
    const out = await s.flow.login(REQ, { ...form, sso: '1' });
    expectPage(out, 200, 'url=https://op.example/auth?client_id=c&amp;state=s');
  });

  it('a provider that does not answer (503): the form with 503 and "did not answer", not "No single sign-on"', async () => {
    const s = setup();
    s.federation.emailStep.mockRejectedValueOnce(new ApiError(503, ['The OpenID provider did not answer']));
    const out = await s.flow.login(REQ, { ...form, sso: '1' });
    expectPage(out, 503, FEDERATION_DOWN);
    expect(out.html).not.toContain('No single sign-on');
    expect(out.html).toContain('value="jo@corp.example"');
  });

  it('no authenticator for the email (null, or a 404 of the provider lookup): 404 "No single sign-on"', async () => {
    const s = setup();
    s.federation.emailStep.mockResolvedValueOnce(null);
    const none = await s.flow.login(REQ, { ...form, sso: '1' });
    expectPage(none, 404, 'No single sign-on for this email.');
    s.federation.emailStep.mockRejectedValueOnce(
      new ApiError(404, ['No OpenID provider serves this email domain']),
    );
    expect((await s.flow.login(REQ, { ...form, sso: '1' })).status).toBe(404);
  });
});

describe('ConsentFlow.login: “Continue with” a provider (provider_id)', () => {
  it('one of the app’s domain’s providers: the redirect page to its authorization URL', async () => {
    const s = setup();
    const out = await s.flow.login(REQ, { ...form, provider_id: 'p1' });
    expect(s.federation.startProvider).toHaveBeenCalledWith(
      'p1',
      'd1',
      expect.stringMatching(/^\/oauth\/authorize\?client_id=app1/),
    );
    expectPage(out, 200, 'url=https://op.example/auth');
    expect(s.credentials.verify).not.toHaveBeenCalled();
  });

  it('not one of the domain’s providers: 404 "not available"', async () => {
    const s = setup();
    s.federation.startProvider.mockResolvedValueOnce(null);
    const out = await s.flow.login(REQ, { ...form, provider_id: 'p-other' });
    expectPage(out, 404, 'This sign-in option is not available.');
    expect(out.html).not.toContain('op.example');
  });

  it('the provider does not answer: 503', async () => {
    const s = setup();
    s.federation.startProvider.mockRejectedValueOnce(new ApiError(503, ['down']));
    const out = await s.flow.login(REQ, { ...form, provider_id: 'p1' });
    expectPage(out, 503, FEDERATION_DOWN);
  });
});

describe('ConsentFlow.login: the directory’s password form', () => {
  const withDirectory = () => signedOut({ directories: [{ name: 'Corp LDAP' }] });
  const dirForm = { ...form, directory: '1' };

  it('directory=form: the app’s domain’s directory’s form; none: 404', async () => {
    const s = withDirectory();
    const out = await s.flow.login(REQ, { ...form, directory: 'form', email: '' });
    expectPage(out, 200, 'With your Corp LDAP account', 'name="directory" value="1"');
    const t = signedOut();
    const none = await t.flow.login(REQ, { ...form, directory: 'form' });
    expectPage(none, 404, 'This sign-in option is not available.');
  });

  it('directory=1, the password accepted: the Token becomes the session, 303 back to the request', async () => {
    const s = withDirectory();
    const out = await s.flow.login(REQ, { ...dirForm, email: ' Jo@Corp.example ' });
    expect(s.federation.directoryLogin).toHaveBeenCalledWith('jo@corp.example', 'pw', 'd1', ORIGIN);
    expect(s.sessions.startWith).toHaveBeenCalledWith('dir-jwt');
    expect(out).toMatchObject({ status: 303, cookies: [CSRF_COOKIE, ...SESSION_COOKIES] });
    expect(out.redirect).toMatch(BACK);
    expect(s.credentials.verify).not.toHaveBeenCalled();
  });

  it('directory=1, a factor owed (temp_token): the second step with the pending cookie, no session', async () => {
    const s = withDirectory();
    s.federation.directoryLogin.mockResolvedValueOnce(factorOwed('dir-temp'));
    s.mfa.owedFor.mockResolvedValueOnce(['TOTP', 'RECOVERY']);
    const out = await s.flow.login(REQ, dirForm);
    expect(s.domains.byId).toHaveBeenCalledWith('d1');
    expect(s.mfa.owedFor).toHaveBeenCalledWith('u1', domain);
    expect(s.sessions.startPending).toHaveBeenCalledWith('dir-temp');
    expect(out).toMatchObject({ status: 200, cookies: [CSRF_COOKIE, ...PENDING_COOKIES] });
    expect(out.html).toContain('action="/oauth/authorize/mfa"');
    expect(s.sessions.startWith).not.toHaveBeenCalled();
    expect(s.mfa.issueTemp).not.toHaveBeenCalled();
  });

  it('directory=1, a factor owed that cannot be passed here: 403 on the directory form, no pending cookie', async () => {
    const s = withDirectory();
    s.federation.directoryLogin.mockResolvedValueOnce(factorOwed('t'));
    s.mfa.owedFor.mockResolvedValueOnce([]);
    const out = await s.flow.login(REQ, dirForm);
    expectPage(out, 403, 'requires an authenticator app');
    expect(s.sessions.startPending).not.toHaveBeenCalled();
  });

  it('directory=1, refused (401): the directory form again, 401 "Invalid email or password"', async () => {
    const s = withDirectory();
    s.federation.directoryLogin.mockRejectedValueOnce(new ApiError(401, ['Invalid email or password']));
    const out = await s.flow.login(REQ, dirForm);
    expectPage(out, 401, 'Invalid email or password', 'With your Corp LDAP account');
    expect(s.sessions.startWith).not.toHaveBeenCalled();
  });

  it('directory=1, the directory does not answer (503): the directory form, 503 "did not answer"', async () => {
    const s = withDirectory();
    s.federation.directoryLogin.mockRejectedValueOnce(new ApiError(503, ['The directory did not answer']));
    const out = await s.flow.login(REQ, dirForm);
    expectPage(out, 503, FEDERATION_DOWN, 'With your Corp LDAP account');
  });

  it('directory=1, anything else is thrown on', async () => {
    const s = withDirectory();
    await expectRethrown(s.federation.directoryLogin, () => s.flow.login(REQ, dirForm));
  });

  it('a stale CSRF token: 403 before any directory is asked', async () => {
    const s = withDirectory();
    s.sessions.csrfValid.mockReturnValueOnce(false);
    expect((await s.flow.login(REQ, dirForm)).status).toBe(403);
    expect(s.federation.directoryLogin).not.toHaveBeenCalled();
  });
});
