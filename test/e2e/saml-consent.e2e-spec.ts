import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  authorizationRequest,
  CookieJar,
  createOAuthApp,
  exchangeCode,
  hiddenField,
  OAUTH,
  type OAuthApp,
  pkce,
} from '../utils/oauth.js';
import { authnRequestOf } from '../utils/saml-idp.js';
import { samlWorld, type SamlWorld } from '../utils/saml-setup.js';

/** The consent page offers single sign-on for an email whose domain has an IdP, and comes back to the request. */
describe('consent page: single sign-on', () => {
  let t: TestApp;
  let w: SamlWorld;
  let app: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    w = await samlWorld(t);
    app = await createOAuthApp(t, {
      kind: 'browser',
      name: 'Acme Photos',
      scopes: ['assets:read'],
      redirectUris: ['https://photos.acme.test/callback'],
      domainId: w.domainId,
    });
  });
  afterAll(() => t?.close());

  const path = (url: string) => {
    const u = new URL(url, t.config.http.publicBaseUrl);
    return u.pathname + u.search;
  };

  async function startSso(params: Record<string, string>, email: string, jar: CookieJar) {
    const page = await t.http.get(OAUTH.consent).query(params).set(jar.header()).expect(200);
    jar.store(page);
    expect(page.text).toContain('Continue with single sign-on');
    return t.http
      .post(OAUTH.consentLogin)
      .set(jar.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, sso: '1', email });
  }

  it('email → IdP → ACS → back to the same authorization request, signed in → Allow → a code that exchanges', async () => {
    const p = pkce();
    const params = authorizationRequest(app, p);
    const jar = new CookieJar();
    const onward = await startSso(params, w.member.email.toUpperCase(), jar);
    expect(onward.status).toBe(200);
    const sso = /href="([^"]+)"/.exec(onward.text)![1].replace(/&amp;/g, '&');
    expect(sso).toContain(`/sso/${w.idp.public_id}/?return_to=`);
    const toIdp = await t.http.get(path(sso)).expect(302);
    const id = authnRequestOf(toIdp.headers.location).id;
    const acs = await w.post(w.response({ inResponseTo: id }));
    expect(acs.status).toBe(302);
    const back = new URL(acs.location!);
    expect(back.pathname).toBe('/oauth/authorize');
    expect(back.searchParams.get('saml_code')).toBeTruthy();
    expect(back.searchParams.get('client_id')).toBe(app.id);
    const signedIn = await t.http
      .get(back.pathname + back.search)
      .set(jar.header())
      .expect(303);
    jar.store(signedIn);
    const again = new URL(signedIn.headers.location, t.config.http.publicBaseUrl);
    expect(Object.fromEntries(again.searchParams)).toEqual(params);
    const consent = await t.http
      .get(again.pathname + again.search)
      .set(jar.header())
      .expect(200);
    expect(consent.text).toContain(`Signed in as ${w.member.email}`);
    const allow = await t.http
      .post(OAUTH.consent)
      .set(jar.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(consent.text, 'csrf') as string, decision: 'allow' })
      .expect(303);
    const callback = new URL(allow.headers.location);
    expect(callback.searchParams.get('state')).toBe(params.state);
    const token = await exchangeCode(t, app, callback.searchParams.get('code')!, p.verifier).expect(200);
    expect(token.body.access_token).toBeTruthy();
  });

  it('an email without an IdP stays on the sign-in page; a used or forged code signs no one in', async () => {
    const params = authorizationRequest(app, pkce());
    const none = await startSso(params, 'someone@no-idp.test', new CookieJar());
    expect(none.status).toBe(404);
    expect(none.text).toContain('No single sign-on for this email.');
    const forged = await t.http
      .get(OAUTH.consent)
      .query({ ...params, saml_code: 'forged' })
      .expect(401);
    expect(forged.text).toContain('Single sign-on failed.');
    expect(forged.headers['set-cookie'] ?? []).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/session/i)]),
    );
  });
});
