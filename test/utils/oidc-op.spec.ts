import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { CookieJar, startOidcOp, type OidcOp } from './oidc-op.js';

/**
 * The test OpenID provider (oidc-op.ts) against openid-client v6, the certified relying-party library: if
 * these pass, an e2e failure of our service's sign-in through it is our service's, not the harness's.
 */
const REDIRECT = 'http://127.0.0.1:9/auth/oidc/callback'; // never fetched: authorize() stops before it
const CLIENT = { client_id: 'portcullis', client_secret: 'rp-secret', redirect_uris: [REDIRECT] };
const ALICE = {
  login: 'alice',
  email: 'alice@corp.example',
  email_verified: true,
  given_name: 'Alice',
  family_name: 'Liddell',
  groups: ['staff', 'media-editors'],
};

/**
 * `verified`: also checks the id_token's signature against the JWKS. openid-client skips that check by default
 * for id_tokens from the token endpoint (OpenID Connect Core 3.1.3.7 lets TLS stand in for it), so a forged
 * signature there is only refused with enableNonRepudiationChecks.
 */
const discover = (op: OidcOp, o: { auth?: client.ClientAuth; verified?: boolean } = {}) =>
  client.discovery(
    new URL(op.issuer),
    CLIENT.client_id,
    undefined,
    o.auth ?? client.ClientSecretBasic(CLIENT.client_secret),
    { execute: [client.allowInsecureRequests, ...(o.verified ? [client.enableNonRepudiationChecks] : [])] },
  );

/** What openid-client refused with: its code and the underlying reason. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: { code?: string; cause?: { message?: string } }) => `${e.code}: ${e.cause?.message}`,
  );

async function signIn(
  op: OidcOp,
  config: client.Configuration,
  login: string,
  opts: { jar?: CookieJar; prompts?: string[] } = {},
) {
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const landed = await op.authorize(url.href, login, opts);
  const grant = () =>
    client.authorizationCodeGrant(config, new URL(landed), {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: true,
    });
  return { landed, state, grant };
}

describe('the test OpenID provider (test/utils/oidc-op.ts) with openid-client as relying party', () => {
  let op: OidcOp;
  let config: client.Configuration;

  beforeAll(async () => {
    op = await startOidcOp({ clients: [CLIENT] });
    op.addAccount(ALICE);
    op.addAccount({ login: 'bob', email: 'bob@corp.example', email_verified: false });
    config = await discover(op);
  });
  afterAll(() => op?.stop());

  it('publishes discovery and JWKS on its loopback http issuer', async () => {
    expect(op.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(op.issuer);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.response_types_supported).toEqual(['code']);
    expect(meta.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
    );
    expect(meta.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['RS256', 'ES256']));
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'groups']));
    expect(meta.claims_supported).toEqual(expect.arrayContaining(['email', 'email_verified', 'groups']));
    const published = await (await fetch(meta.jwks_uri!)).json();
    expect(published).toEqual(op.jwks);
    expect(op.jwks.keys.map((k) => [k.kty, k.alg])).toEqual([
      ['RSA', 'RS256'],
      ['EC', 'ES256'],
    ]);
    expect(JSON.stringify(published)).not.toMatch(/"d":/);
  });

  it('signs a person in through the login form alone: code, state, RS256 id_token with email and groups', async () => {
    for (const auth of [
      client.ClientSecretBasic(CLIENT.client_secret),
      client.ClientSecretPost(CLIENT.client_secret),
    ]) {
      const prompts: string[] = [];
      const { landed, state, grant } = await signIn(op, await discover(op, { auth }), 'alice', { prompts });
      expect(prompts).toEqual(['login']);
      const callback = new URL(landed);
      expect(callback.origin + callback.pathname).toBe(REDIRECT);
      expect(callback.searchParams.get('state')).toBe(state);
      expect(callback.searchParams.get('code')).toBeTruthy();
      const tokens = await grant();
      expect(decodeProtectedHeader(tokens.id_token!)).toMatchObject({
        alg: 'RS256',
        kid: op.jwks.keys[0].kid,
      });
      expect(tokens.claims()).toMatchObject({
        iss: op.issuer,
        aud: CLIENT.client_id,
        sub: 'alice',
        email: 'alice@corp.example',
        email_verified: true,
        given_name: 'Alice',
        family_name: 'Liddell',
        groups: ['staff', 'media-editors'],
      });
    }
  });

  it('reads the account at each sign-in: a replaced account gives new claims', async () => {
    op.addAccount({ login: 'carol', email: 'carol@corp.example', email_verified: false });
    expect((await (await signIn(op, config, 'carol')).grant()).claims()).not.toHaveProperty('groups');
    op.addAccount({ login: 'carol', email: 'carol@new.example', email_verified: true, groups: ['ops'] });
    expect((await (await signIn(op, config, 'carol')).grant()).claims()).toMatchObject({
      email: 'carol@new.example',
      email_verified: true,
      groups: ['ops'],
    });
  });

  it('keeps the session in a passed cookie jar: the second sign-in shows no page', async () => {
    const jar = new CookieJar();
    await signIn(op, config, 'bob', { jar });
    const prompts: string[] = [];
    const again = await signIn(op, config, 'someone-else', { jar, prompts });
    expect(prompts).toEqual([]);
    expect((await again.grant()).claims()).toMatchObject({ sub: 'bob', email_verified: false });
  });

  it('requires PKCE and refuses an unknown login', async () => {
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state: 's1',
    });
    const landed = new URL(await op.authorize(url.href, 'alice'));
    expect(landed.searchParams.get('error')).toBe('invalid_request');
    expect(landed.searchParams.get('error_description')).toMatch(/requires PKCE/);
    await expect(signIn(op, config, 'mallory')).rejects.toThrow(/refused the login "mallory"/);
  });

  it('signs id_tokens with its current key, or a foreign one under the same kid', async () => {
    const jwks = createLocalJWKSet(op.jwks);
    const claims = { iss: op.issuer, sub: 'alice', aud: CLIENT.client_id };
    for (const alg of ['RS256', 'ES256'] as const) {
      const { payload, protectedHeader } = await jwtVerify(await op.signIdToken(claims, { alg }), jwks);
      expect(payload).toEqual(claims);
      expect(protectedHeader.alg).toBe(alg);
    }
    const forged = await op.signIdToken(claims, { key: 'foreign' });
    expect(decodeProtectedHeader(forged).kid).toBe(op.jwks.keys[0].kid);
    await expect(jwtVerify(forged, jwks)).rejects.toThrow(/signature verification failed/);
  });

  it('hands out a tampered id_token once: re-signed claims pass, a changed nonce or a foreign key does not', async () => {
    const verified = await discover(op, { verified: true });
    op.tamperNextIdToken((c) => ({ ...c, groups: ['admins'] }));
    expect((await (await signIn(op, verified, 'alice')).grant()).claims()).toMatchObject({
      groups: ['admins'],
    });

    op.tamperNextIdToken((c) => ({ ...c, nonce: 'replayed-nonce' }));
    expect(await refusal((await signIn(op, config, 'alice')).grant())).toBe(
      'OAUTH_JWT_CLAIM_COMPARISON_FAILED: unexpected ID Token "nonce" claim value',
    );

    op.tamperNextIdToken((c) => op.signIdToken(c, { key: 'foreign' }));
    expect(await refusal((await signIn(op, verified, 'alice')).grant())).toBe(
      'OAUTH_INVALID_RESPONSE: JWT signature verification failed',
    );
    // openid-client's default: the token endpoint's id_token signature is not checked at all
    op.tamperNextIdToken((c) => op.signIdToken(c, { key: 'foreign' }));
    expect(await refusal((await signIn(op, config, 'alice')).grant())).toBe('accepted');

    // used up: the next sign-in is untouched
    const untouched = await (await signIn(op, verified, 'alice')).grant();
    expect(untouched.claims()!.groups).toEqual(['staff', 'media-editors']);
  });

  it('rotates its keys behind the same issuer: a fresh configuration validates, sessions are gone', async () => {
    const stale = await discover(op, { verified: true });
    const jar = new CookieJar();
    await (await signIn(op, stale, 'alice', { jar })).grant(); // stale now holds the old JWKS
    const before = op.jwks.keys.map((k) => k.kid);
    await op.rotateKeys();
    const after = op.jwks.keys.map((k) => k.kid);
    expect(after.filter((kid) => before.includes(kid))).toEqual([]);

    const prompts: string[] = [];
    const fresh = await discover(op, { verified: true });
    expect(fresh.serverMetadata().issuer).toBe(op.issuer);
    const tokens = await (await signIn(op, fresh, 'alice', { jar, prompts })).grant();
    expect(prompts).toEqual(['login']);
    expect(decodeProtectedHeader(tokens.id_token!).kid).toBe(after[0]);
    expect(tokens.claims()!.email).toBe('alice@corp.example');

    // openid-client fetches the JWKS again for an unknown kid only once its copy is 60 s old: a relying party
    // that keeps its Configuration (and checks signatures) refuses the new key until then
    expect(await refusal((await signIn(op, stale, 'alice')).grant())).toMatch(/no applicable keys found/);
  });

  it('signs with its ES256 key for a client registered for ES256', async () => {
    const es = await startOidcOp({ clients: [{ ...CLIENT, id_token_signed_response_alg: 'ES256' }] });
    try {
      es.addAccount(ALICE);
      const verified = await discover(es, { verified: true });
      es.tamperNextIdToken((c) => ({ ...c, groups: ['re-signed'] }));
      for (const groups of [['re-signed'], ALICE.groups]) {
        const tokens = await (await signIn(es, verified, 'alice')).grant();
        expect(decodeProtectedHeader(tokens.id_token!)).toMatchObject({
          alg: 'ES256',
          kid: es.jwks.keys[1].kid,
        });
        expect(tokens.claims()!.groups).toEqual(groups);
      }
    } finally {
      await es.stop();
    }
  });

  it('shows and confirms the consent page when consent is not automatic', async () => {
    const manual = await startOidcOp({ clients: [CLIENT], autoConsent: false });
    try {
      manual.addAccount(ALICE);
      const prompts: string[] = [];
      const tokens = await (await signIn(manual, await discover(manual), 'alice', { prompts })).grant();
      expect(prompts).toEqual(['login', 'consent']);
      expect(tokens.claims()).toMatchObject({ email: ALICE.email, groups: ALICE.groups });
    } finally {
      await manual.stop();
    }
  });
});
