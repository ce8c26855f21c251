import { Secret, TOTP } from 'otpauth';
import { Clock } from '../../src/base/common/clock.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedText } from '../utils/mail.js';
import {
  authorizationRequest,
  CookieJar,
  createOAuthApp,
  exchangeCode,
  hiddenField,
  obtainTokens,
  OAUTH,
  type OAuthApp,
  pkce,
  refreshGrant,
  SESSION_COOKIE,
} from '../utils/oauth.js';

const MFA = '/oauth/authorize/mfa';
const PENDING = 'portcullis_pending';

describe('consent page sign-in with a second factor', () => {
  let t: TestApp;
  let clock: Clock;
  let app: OAuthApp;
  let user: UserEntity;
  let secret: string;
  const code = (steps = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({
      timestamp: clock.now().getTime() + steps * 30_000,
    });

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.get(Clock);
    app = await createOAuthApp(t, {
      kind: 'browser',
      name: 'Photo Organizer',
      scopes: ['assets:read'],
      redirectUris: ['https://photos.example/callback'],
    });
    user = await createUser(t);
    const login = bearer((await tokenFor(t, user)).token);
    secret = (await t.http.post('/API/users/v1/users/current/totp/configure/').set(login).expect(201)).body
      .secret;
    await t.http
      .post('/API/users/v1/users/current/totp/validate_configuration/')
      .set(login)
      .send({ otp: code() })
      .expect(200);
    clock.advance(30_000);
  });
  afterAll(async () => {
    clock.reset();
    await t.close();
  });

  /** The password step: answers the jar and the second-factor page. */
  async function passwordStep(params: Record<string, string>, email = user.email) {
    const jar = new CookieJar();
    const page = await t.http.get(OAUTH.consent).query(params).expect(200);
    jar.store(page);
    const res = await t.http
      .post(OAUTH.consentLogin)
      .set(jar.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, email, password: DEFAULT_PASSWORD });
    jar.store(res);
    return { jar, res };
  }

  const submit = (
    jar: CookieJar,
    params: Record<string, string>,
    html: string,
    extra: Record<string, string>,
  ) =>
    t.http
      .post(MFA)
      .set(jar.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(html, 'csrf') as string, ...extra });

  it('the password alone does not sign in: the second step asks for the code; the right one signs in', async () => {
    const p = pkce();
    const params = authorizationRequest(app, p, { scope: 'assets:read' });
    const { jar, res } = await passwordStep(params);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Confirm it is you');
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
    expect(jar.get(PENDING)).toEqual(expect.any(String));
    // the pending token opens no API route
    await t.http
      .get('/API/auth/v1/auth/token/')
      .set(bearer(jar.get(PENDING)!))
      .expect(401);
    await t.http
      .get('/API/auth/v1/auth/token/')
      .set({ 'Temp-Auth-Token': jar.get(PENDING)! })
      .expect(401);
    // nor the consent decision
    const decision = await t.http.get(OAUTH.consent).query(params).set(jar.header()).expect(200);
    expect(decision.text).toContain('Sign in to continue');

    const wrong = await submit(jar, params, res.text, { otp: '000000', otp_type: 'TOTP', action: 'verify' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Invalid or expired code');
    const forged = await submit(jar, params, '<input type="hidden" name="csrf" value="x">', { otp: code() });
    expect(forged.status).toBe(403);

    const ok = await submit(jar, params, res.text, {
      otp: code(),
      otp_type: 'TOTP',
      action: 'verify',
    }).expect(303);
    jar.store(ok);
    expect(jar.get(SESSION_COOKIE)).toEqual(expect.any(String));
    const session = await t.http
      .get('/API/auth/v1/auth/token/')
      .set(bearer(jar.get(SESSION_COOKIE)!))
      .expect(200);
    expect(session.body.is_mfa_authenticated).toBe(true);

    const consent = await t.http.get(OAUTH.consent).query(params).set(jar.header()).expect(200);
    const allow = await t.http
      .post(OAUTH.consent)
      .set(jar.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(consent.text, 'csrf') as string, decision: 'allow' })
      .expect(303);
    const authCode = new URL(allow.headers.location).searchParams.get('code')!;
    const tokens = await exchangeCode(t, app, authCode, p.verifier).expect(200);
    // the app's tokens say the approving sign-in passed a second factor, through every refresh
    const access = await t.http
      .get('/API/auth/v1/auth/token/')
      .set(bearer(tokens.body.access_token as string))
      .expect(200);
    expect(access.body).toMatchObject({ kind: 'OAUTH', is_mfa_authenticated: true });
    const refreshed = await refreshGrant(t, app, tokens.body.refresh_token as string).expect(200);
    const renewed = await t.http
      .get('/API/auth/v1/auth/token/')
      .set(bearer(refreshed.body.access_token as string))
      .expect(200);
    expect(renewed.body.is_mfa_authenticated).toBe(true);
    clock.advance(30_000);
  });

  it('an authorization approved by a sign-in without a second factor says so', async () => {
    const plain = await createUser(t);
    const tokens = await obtainTokens(t, app, plain, { scope: 'assets:read' });
    const access = await t.http.get('/API/auth/v1/auth/token/').set(bearer(tokens.access_token)).expect(200);
    expect(access.body.is_mfa_authenticated).toBe(false);
    const refreshed = await refreshGrant(t, app, tokens.refresh_token).expect(200);
    const renewed = await t.http
      .get('/API/auth/v1/auth/token/')
      .set(bearer(refreshed.body.access_token as string))
      .expect(200);
    expect(renewed.body.is_mfa_authenticated).toBe(false);
  });

  it('the pending sign-in is used once; a replayed code or an expired pending token is refused', async () => {
    const params = authorizationRequest(app, pkce(), { scope: 'assets:read' });
    const { jar, res } = await passwordStep(params);
    const used = code();
    const before = jar.get(PENDING)!;
    await submit(jar, params, res.text, { otp: used, action: 'verify' }).expect(303);
    // the same pending token again
    const again = new CookieJar().set(PENDING, before);
    const page = await t.http.get(OAUTH.consent).query(params).set(again.header());
    again.store(page);
    const replay = await t.http
      .post(MFA)
      .set(again.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, otp: code(1) });
    expect(replay.status).toBe(401);
    expect(replay.text).toContain('Please sign in again');
    // the same code with a new pending sign-in
    const second = await passwordStep(params);
    await submit(second.jar, params, second.res.text, { otp: used, action: 'verify' }).expect(401);
    // an expired pending sign-in
    clock.advance(301_000);
    await submit(second.jar, params, second.res.text, { otp: code(), action: 'verify' }).expect(401);
  });

  it('a domain requiring mail codes: "Email me a code", then that code', async () => {
    await t.http
      .patch('/API/auth/v1/system_domains/current/mfa/')
      .set(bearer((await tokenFor(t, t.admin)).token))
      .send({ mfa_required: true, mfa_methods: ['MAIL_2SV'] })
      .expect(200);
    const member = await createUser(t);
    const params = authorizationRequest(app, pkce(), { scope: 'assets:read' });
    const { jar, res } = await passwordStep(params, member.email);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Email me a code');
    const sent = await submit(jar, params, res.text, { action: 'send' }).expect(200);
    expect(sent.text).toContain('We mailed a code');
    const mailed = /sign-in code is (\d{6})/.exec(await mailedText(t, member.email))![1];
    const ok = await submit(jar, params, sent.text, {
      otp: mailed,
      otp_type: 'MAIL_2SV',
      action: 'verify',
    }).expect(303);
    jar.store(ok);
    expect(jar.get(SESSION_COOKIE)).toEqual(expect.any(String));
    await t.http
      .patch('/API/auth/v1/system_domains/current/mfa/')
      .set(bearer((await tokenFor(t, t.admin)).token))
      .send({ mfa_required: false })
      .expect(200);
  });
});
