import { ApiError } from '../../../base/common/errors/api-error.js';
import {
  CSRF_COOKIE,
  domain,
  FIELDS,
  pending,
  PENDING_COOKIES,
  REQ,
  session,
  SESSION_COOKIES,
  setup,
  user,
  v,
} from '../../../../test/utils/consent-flow-fakes.js';
import { AuthorizationRequestError } from '../authorization-request.service.js';
import { APPROVER, PENDING_SIGN_IN } from './consent-step.js';
import { expectPage } from '../../../../test/utils/fakes/pages.js';
import { expectRethrown } from '../../../../test/utils/fakes/expect.js';
import { dbOutage } from '../../../../test/utils/fakes/fixtures.js';

describe('ConsentFlow: every step validates the request first', () => {
  it('a bad request: its error page with the error’s status, never a redirect; nothing else runs', async () => {
    const s = setup();
    s.requests.validate.mockRejectedValueOnce(new AuthorizationRequestError('Unknown application', 'nope'));
    const out = await s.flow.decide(REQ, { ...FIELDS, decision: 'allow', csrf: 'csrf' });
    expect(out.status).toBe(400);
    expect(out.redirect).toBeUndefined();
    expect(out.html).toContain('Unknown application');
    expect(s.requests.decide).not.toHaveBeenCalled();
    expect(s.sessions.current).not.toHaveBeenCalled();
  });

  it('a 403 refusal (another domain) is a page with the sign-in note', async () => {
    const s = setup();
    s.requests.requireApprover.mockRejectedValueOnce(
      new AuthorizationRequestError('Wrong domain', 'no', 403),
    );
    const out = await s.flow.show(REQ, FIELDS);
    expectPage(out, 403, 'ask its administrator for access');
  });

  it('anything but a refusal of the request is thrown on (a 503 page, a logged 500)', async () => {
    const s = setup();
    await expectRethrown(s.requests.validate, () => s.flow.show(REQ, FIELDS), new Error('database down'));
  });

  it('every page of a valid request carries the CSRF cookie minted for it and lets the form post to the redirect URI', async () => {
    const s = setup();
    const out = await s.flow.show(REQ, FIELDS);
    expect(out.cookies).toEqual([CSRF_COOKIE]);
    expect(out.formTarget).toBe('https://photos.example/cb');
  });
});

describe('ConsentFlow.show', () => {
  it('signed in, may approve: the consent page naming the user and the scopes', async () => {
    const s = setup();
    const out = await s.flow.show(REQ, FIELDS);
    expectPage(out, 200, 'a@example.test');
    expect(s.sessions.current).toHaveBeenCalledWith(REQ, APPROVER);
  });

  it.each([
    ['no session', () => null],
    ['a session that must sign in again (another domain, a factor owed)', () => 'again'],
  ])('%s: the sign-in form (200)', async (_w, kind) => {
    const s = setup();
    if (kind() === null) s.sessions.current.mockResolvedValueOnce(null);
    else
      s.requests.requireApprover.mockRejectedValueOnce(
        new AuthorizationRequestError('Signed in to another domain', 'again', 403, true),
      );
    const out = await s.flow.show(REQ, FIELDS);
    expectPage(out, 200, 'type="password"');
  });

  it('back from single sign-on: the code becomes the session, then the same request again (303)', async () => {
    const s = setup();
    const out = await s.flow.show(REQ, { ...FIELDS, saml_code: 'code' });
    expect(s.sso.exchange).toHaveBeenCalledWith('code');
    expect(out).toMatchObject({ status: 303, cookies: [CSRF_COOKIE, ...SESSION_COOKIES] });
    expect(out.redirect).toMatch(/^\/oauth\/authorize\?client_id=app1&redirect_uri=/);
    expect(s.sessions.startWith).toHaveBeenCalledWith('sso-jwt');
  });

  it('a single sign-on code refused: 401 sign-in form; the database down is thrown on', async () => {
    const s = setup();
    s.sso.exchange.mockRejectedValueOnce(new ApiError(401, ['bad code']));
    const out = await s.flow.show(REQ, { ...FIELDS, saml_code: 'code' });
    expectPage(out, 401, 'Single sign-on failed.');
    await expectRethrown(
      s.sso.exchange,
      () => s.flow.show(REQ, { ...FIELDS, saml_code: 'code' }),
      dbOutage(),
    );
  });
});

describe('ConsentFlow.login (the password form)', () => {
  const form = { ...FIELDS, csrf: 'csrf', email: 'a@example.test', password: 'pw' };

  it('a stale or forged CSRF token: 403, no password checked', async () => {
    const s = setup();
    s.sessions.csrfValid.mockReturnValueOnce(false);
    expect((await s.flow.login(REQ, form)).status).toBe(403);
    expect(s.credentials.verify).not.toHaveBeenCalled();
  });

  it('a wrong password: 401 on the form', async () => {
    const s = setup();
    s.credentials.verify.mockResolvedValueOnce(null);
    const out = await s.flow.login(REQ, form);
    expectPage(out, 401, 'Invalid email or password');
  });

  it('no factor owed: signed in for the app’s domain, 303 back to the request with the session cookies', async () => {
    const s = setup();
    const out = await s.flow.login(REQ, form);
    expect(out).toMatchObject({ status: 303, cookies: [CSRF_COOKIE, ...SESSION_COOKIES] });
    expect(s.sessions.start).toHaveBeenCalledWith(user, 'd1');
    expect(s.mfa.owedFor).toHaveBeenCalledWith('u1', domain);
  });

  it('a factor owed: the second step with a temporary token in its own cookie, no session yet', async () => {
    const s = setup();
    s.mfa.owedFor.mockResolvedValueOnce(['TOTP', 'RECOVERY']);
    const out = await s.flow.login(REQ, form);
    expect(out).toMatchObject({ status: 200, cookies: [CSRF_COOKIE, ...PENDING_COOKIES] });
    expect(s.mfa.issueTemp).toHaveBeenCalledWith('u1', 'd1');
    expect(s.sessions.start).not.toHaveBeenCalled();
  });

  it('a factor owed that the user cannot pass here (TOTP only, none set up): 403, no temporary token', async () => {
    const s = setup();
    s.mfa.owedFor.mockResolvedValueOnce([]);
    const out = await s.flow.login(REQ, form);
    expectPage(out, 403, 'requires an authenticator app');
    expect(s.mfa.issueTemp).not.toHaveBeenCalled();
  });

  it('single sign-on: the IdP’s redirect page for the email’s domain, or 404 when it has none', async () => {
    const s = setup();
    const out = await s.flow.login(REQ, { ...form, sso: '1', email: ' A@Example.TEST ' });
    expect(out.status).toBe(200);
    expect(s.sso.loginUrl).toHaveBeenCalledWith(
      'a@example.test',
      expect.stringMatching(/^\/oauth\/authorize\?/),
    );
    expect(s.credentials.verify).not.toHaveBeenCalled();
    s.sso.loginUrl.mockResolvedValueOnce(null);
    expect((await s.flow.login(REQ, { ...form, sso: '1' })).status).toBe(404);
  });
});

describe('ConsentFlow.secondFactor', () => {
  const form = { ...FIELDS, csrf: 'csrf', otp: '123456', otp_type: 'TOTP' };

  it('no pending sign-in: 401, sign in again', async () => {
    const s = setup();
    s.sessions.pending.mockResolvedValueOnce(null);
    const out = await s.flow.secondFactor(REQ, form);
    expect(out.status).toBe(401);
    expect(s.sessions.pending).toHaveBeenCalledWith(REQ, PENDING_SIGN_IN);
  });

  it('a good code: the session, 303 back to the request', async () => {
    const s = setup();
    s.mfa.owedFor.mockResolvedValueOnce(['TOTP', 'RECOVERY']);
    const out = await s.flow.secondFactor(REQ, form);
    expect(s.mfa.completeWithCode).toHaveBeenCalledWith(
      pending,
      'd1',
      ['TOTP', 'RECOVERY'],
      'TOTP',
      '123456',
    );
    expect(out).toMatchObject({ status: 303, cookies: [CSRF_COOKIE, ...SESSION_COOKIES] });
  });

  it('an unknown otp_type is none (the first accepted type then)', async () => {
    const s = setup();
    s.mfa.owedFor.mockResolvedValueOnce(['MAIL_2SV']);
    await s.flow.secondFactor(REQ, { ...form, otp_type: 'SMS' });
    expect(s.mfa.completeWithCode).toHaveBeenCalledWith(pending, 'd1', ['MAIL_2SV'], null, '123456');
  });

  it('a refused code: 401 on the second step; another failure is thrown on', async () => {
    const s = setup();
    s.mfa.completeWithCode.mockRejectedValueOnce(new ApiError(401, ['bad']));
    const out = await s.flow.secondFactor(REQ, form);
    expectPage(out, 401, 'Invalid or expired code');
    await expectRethrown(s.mfa.completeWithCode, () => s.flow.secondFactor(REQ, form), new Error('bug'));
  });

  it('send: a mailed code where the domain accepts one, no code checked', async () => {
    const s = setup();
    s.mfa.owedFor.mockResolvedValueOnce(['MAIL_2SV']);
    const out = await s.flow.secondFactor(REQ, { ...form, action: 'send' });
    expect(out.status).toBe(200);
    expect(s.mfa.generateForCurrent).toHaveBeenCalledWith(pending);
    expect(s.mfa.completeWithCode).not.toHaveBeenCalled();
  });

  it('a stale CSRF token: 403, nothing mailed or checked', async () => {
    const s = setup();
    s.sessions.csrfValid.mockReturnValueOnce(false);
    expect((await s.flow.secondFactor(REQ, { ...form, action: 'send' })).status).toBe(403);
    expect(s.mfa.generateForCurrent).not.toHaveBeenCalled();
    expect(s.mfa.completeWithCode).not.toHaveBeenCalled();
  });
});

describe('ConsentFlow.decide', () => {
  it('Allow: 303 to where the authorization request service sends the browser (issuer: the public base URL)', async () => {
    const s = setup();
    const out = await s.flow.decide(REQ, { ...FIELDS, csrf: 'csrf', decision: 'allow' });
    expect(out).toMatchObject({ status: 303, redirect: 'https://photos.example/cb?code=abc' });
    expect(s.requests.decide).toHaveBeenCalledWith(v, session, true, 'https://auth.example');
  });

  it.each([['deny'], ['yes'], [undefined]])('decision %s is a denial', async (decision) => {
    const s = setup();
    await s.flow.decide(REQ, { ...FIELDS, csrf: 'csrf', decision });
    expect(s.requests.decide).toHaveBeenCalledWith(v, session, false, 'https://auth.example');
  });

  it('no session: 401 sign-in form, nothing decided', async () => {
    const s = setup();
    s.sessions.current.mockResolvedValueOnce(null);
    expect((await s.flow.decide(REQ, { ...FIELDS, csrf: 'csrf', decision: 'allow' })).status).toBe(401);
    expect(s.requests.decide).not.toHaveBeenCalled();
  });

  it('a stale or forged CSRF token: 403 Request expired, nothing decided', async () => {
    const s = setup();
    s.sessions.csrfValid.mockReturnValueOnce(false);
    const out = await s.flow.decide(REQ, { ...FIELDS, csrf: 'x', decision: 'allow' });
    expectPage(out, 403, 'Request expired');
    expect(s.requests.decide).not.toHaveBeenCalled();
  });
});
