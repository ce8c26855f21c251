import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import {
  apiLogin,
  type CreatedApp,
  createAppViaApi,
  type ListeningApp,
  startListeningApp,
  walkConsentPage,
} from '../utils/oauth-interop-helpers.js';

/**
 * Interoperability with `oauth4webapi`, an OAuth 2.0 client library nobody here wrote: the service listens
 * on loopback, the library discovers it through RFC 8414 and drives every grant, revocation and
 * introspection with its own request building and response validation (PKCE, state, RFC 9207 `iss`).
 * The consent page is walked over plain HTTP with cookies, like a browser submitting its forms would.
 */
describe('OAuth 2.0 interoperability with oauth4webapi', () => {
  let L: ListeningApp;
  let as: oauth.AuthorizationServer;
  let user: UserEntity;
  let serviceUser: UserEntity;
  let backend: CreatedApp;
  let serverSide: CreatedApp;
  let browserApp: CreatedApp;
  const SERVER_REDIRECT = 'https://server-side.example/oauth/callback';
  const BROWSER_REDIRECT = 'https://spa.example/callback';
  // http on loopback: the library refuses plain http unless told otherwise
  const insecure = { [oauth.allowInsecureRequests]: true } as const;

  beforeAll(async () => {
    L = await startListeningApp();
    const admin = await createUser(L.t, { isAdmin: true });
    user = await createUser(L.t);
    serviceUser = await createUser(L.t);
    const adminToken = await apiLogin(L.base, admin.email, DEFAULT_PASSWORD);
    backend = await createAppViaApi(L.base, adminToken, {
      name: 'Nightly ingest',
      type: 'OAUTH',
      oauth_client_type: 'confidential',
      default_user_id: serviceUser.id,
      allowed_scopes: ['assets:read', 'assets:write'],
    });
    serverSide = await createAppViaApi(L.base, adminToken, {
      name: 'Server-side portal',
      type: 'OAUTH',
      oauth_client_type: 'confidential',
      allowed_scopes: ['assets:read', 'assets:write', 'collections:read'],
      redirect_uris: [SERVER_REDIRECT],
    });
    browserApp = await createAppViaApi(L.base, adminToken, {
      name: 'Browser viewer',
      type: 'OAUTH',
      oauth_client_type: 'public',
      allowed_scopes: ['assets:read', 'collections:read'],
      redirect_uris: [BROWSER_REDIRECT],
      allowed_origins: ['https://spa.example'],
    });

    const issuer = new URL(L.base);
    const res = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure });
    as = await oauth.processDiscoveryResponse(issuer, res);
  });
  afterAll(() => L?.close());

  /** GET /API/auth/v1/auth/token/ with the token: the service's own validation of it. */
  const validate = (accessToken: string) =>
    fetch(`${L.base}/API/auth/v1/auth/token/`, { headers: { Authorization: `Bearer ${accessToken}` } });

  const clients = () => ({
    backend: { client: { client_id: backend.id }, auth: oauth.ClientSecretBasic(backend.client_secret!) },
    basic: { client: { client_id: serverSide.id }, auth: oauth.ClientSecretBasic(serverSide.client_secret!) },
    post: { client: { client_id: serverSide.id }, auth: oauth.ClientSecretPost(serverSide.client_secret!) },
    public: { client: { client_id: browserApp.id }, auth: oauth.None() },
  });

  /**
   * The front half of the flow: a PKCE authorization request for one of the clients, walked through the
   * consent page like a browser would; returns the callback URL and what the exchange needs.
   */
  async function consent(
    kind: 'basic' | 'post' | 'public',
    scope: string,
    decision: 'allow' | 'deny' = 'allow',
  ) {
    const { client, auth } = clients()[kind];
    const redirectUri = kind === 'public' ? BROWSER_REDIRECT : SERVER_REDIRECT;
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const { callback } = await walkConsentPage(
      url,
      { email: user.email, password: DEFAULT_PASSWORD },
      decision,
    );
    return { callback, state, verifier, client, auth, redirectUri };
  }

  /** The whole authorization-code flow as a client app would run it; returns the library's token response. */
  async function authorizationCode(
    kind: 'basic' | 'post' | 'public',
    scope: string,
  ): Promise<{ tokens: oauth.TokenEndpointResponse; client: oauth.Client; auth: oauth.ClientAuth }> {
    const { callback, state, verifier, client, auth, redirectUri } = await consent(kind, scope);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      auth,
      params,
      redirectUri,
      verifier,
      insecure,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
    return { tokens, client, auth };
  }

  /** Runs a library call expected to fail with an OAuth error body; returns the error. */
  async function oauthError(p: Promise<unknown>): Promise<oauth.ResponseBodyError> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(oauth.ResponseBodyError);
    return err as oauth.ResponseBodyError;
  }

  describe('discovery (RFC 8414)', () => {
    it('the issuer is PUBLIC_BASE_URL and every endpoint the library needs is advertised under it', () => {
      expect(as.issuer).toBe(L.base);
      expect(as).toMatchObject({
        authorization_endpoint: `${L.base}/oauth/authorize`,
        token_endpoint: `${L.base}/API/auth/v1/oauth/token/`,
        jwks_uri: `${L.base}/API/auth/v1/oauth/jwks/`,
        revocation_endpoint: `${L.base}/API/auth/v1/oauth/revoke/`,
        introspection_endpoint: `${L.base}/API/auth/v1/oauth/introspect/`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        authorization_response_iss_parameter_supported: true,
      });
      expect(as.grant_types_supported).toEqual(
        expect.arrayContaining(['authorization_code', 'client_credentials', 'refresh_token']),
      );
      expect(as.token_endpoint_auth_methods_supported).toEqual(
        expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']),
      );
    });

    it('the library refuses the document when the expected issuer differs (so the match above is real)', async () => {
      const wrong = new URL(`http://localhost:${L.port}`);
      const res = await oauth.discoveryRequest(new URL(L.base), { algorithm: 'oauth2', ...insecure });
      await expect(oauth.processDiscoveryResponse(wrong, res)).rejects.toMatchObject({
        code: oauth.JSON_ATTRIBUTE_COMPARISON,
      });
    });
  });

  describe('client_credentials (backend service, confidential)', () => {
    it('ClientSecretBasic, no scope: every scope of the app, acting as default_user_id, no refresh token', async () => {
      const { client, auth } = clients().backend;
      const res = await oauth.clientCredentialsGrantRequest(as, client, auth, {}, insecure);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const tokens = await oauth.processClientCredentialsResponse(as, client, res);
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.expires_in).toBe(12 * 3600);
      expect(tokens.refresh_token).toBeUndefined();
      expect(tokens.scope?.split(' ').sort()).toEqual(['assets:read', 'assets:write']);
      const me = await validate(tokens.access_token);
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ app_id: backend.id, user_id: serviceUser.id });
    });

    it('ClientSecretPost with a narrowed scope', async () => {
      const client = { client_id: backend.id };
      const auth = oauth.ClientSecretPost(backend.client_secret!);
      const res = await oauth.clientCredentialsGrantRequest(
        as,
        client,
        auth,
        { scope: 'assets:read' },
        insecure,
      );
      const tokens = await oauth.processClientCredentialsResponse(as, client, res);
      expect(tokens.scope).toBe('assets:read');
      expect((await validate(tokens.access_token)).status).toBe(200);
    });

    it('a scope outside the app is invalid_scope; a wrong secret is a 401 challenge the library surfaces', async () => {
      const { client, auth } = clients().backend;
      const scopeErr = await oauthError(
        oauth
          .clientCredentialsGrantRequest(as, client, auth, { scope: 'assets:delete' }, insecure)
          .then((r) => oauth.processClientCredentialsResponse(as, client, r)),
      );
      expect(scopeErr.error).toBe('invalid_scope');
      expect(scopeErr.status).toBe(400);

      const wrong = oauth.ClientSecretBasic('not-the-secret');
      const res = await oauth.clientCredentialsGrantRequest(as, client, wrong, {}, insecure);
      const err = await oauth.processClientCredentialsResponse(as, client, res).then(
        () => null,
        (e: unknown) => e,
      );
      // 401 + WWW-Authenticate: the library reports the challenge (RFC 6749 §5.2 invalid_client)
      expect(err).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
      const challenge = err as oauth.WWWAuthenticateChallengeError;
      expect(challenge.status).toBe(401);
      expect(challenge.cause[0]).toMatchObject({ scheme: 'basic', parameters: { realm: 'portcullis' } });
    });

    it('a public client cannot use client credentials (invalid_client)', async () => {
      const { client, auth } = clients().public;
      const res = await oauth.clientCredentialsGrantRequest(as, client, auth, {}, insecure);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'invalid_client' });
    });
  });

  describe('authorization_code + PKCE (library-generated verifier, state checked, iss checked)', () => {
    it.each([
      ['confidential server-side app, ClientSecretBasic', 'basic'],
      ['confidential server-side app, ClientSecretPost', 'post'],
      ['public browser app, no client authentication', 'public'],
    ] as const)('%s', async (_label, kind) => {
      const { tokens } = await authorizationCode(kind, 'assets:read collections:read');
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.expires_in).toBe(12 * 3600);
      expect(tokens.refresh_token).toEqual(expect.any(String));
      expect(tokens.scope?.split(' ').sort()).toEqual(['assets:read', 'collections:read']);
      const me = await validate(tokens.access_token);
      expect(me.status).toBe(200);
      const body = (await me.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        app_id: kind === 'public' ? browserApp.id : serverSide.id,
        user_id: user.id,
      });
    });

    it('the callback carries code, the same state and iss = issuer; a different state is rejected by the library', async () => {
      const { callback, state } = await consent('public', 'assets:read');
      expect(callback.searchParams.get('state')).toBe(state);
      expect(callback.searchParams.get('iss')).toBe(as.issuer);
      expect(callback.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      const client = { client_id: browserApp.id };
      expect(() => oauth.validateAuthResponse(as, client, callback, oauth.generateRandomState())).toThrow(
        oauth.OperationProcessingError,
      );
    });

    it('Deny: the library reads error=access_denied from the callback', async () => {
      const { callback, state } = await consent('basic', 'assets:read', 'deny');
      expect(callback.searchParams.get('code')).toBeNull();
      let err: unknown;
      try {
        oauth.validateAuthResponse(as, { client_id: serverSide.id }, callback, state);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(oauth.AuthorizationResponseError);
      expect((err as oauth.AuthorizationResponseError).error).toBe('access_denied');
    });

    it('a code is single-use: the library gets invalid_grant on the second exchange', async () => {
      const { callback, state, verifier, client, auth } = await consent('basic', 'assets:read');
      const params = oauth.validateAuthResponse(as, client, callback, state);
      const exchange = () =>
        oauth
          .authorizationCodeGrantRequest(as, client, auth, params, SERVER_REDIRECT, verifier, insecure)
          .then((r) => oauth.processAuthorizationCodeResponse(as, client, r));
      await exchange();
      const err = await oauthError(exchange());
      expect(err.error).toBe('invalid_grant');
      expect(err.status).toBe(400);
    });

    it('a different (library-generated) verifier is invalid_grant', async () => {
      const { callback, state, client, auth } = await consent('public', 'assets:read');
      const params = oauth.validateAuthResponse(as, client, callback, state);
      const err = await oauthError(
        oauth
          .authorizationCodeGrantRequest(
            as,
            client,
            auth,
            params,
            BROWSER_REDIRECT,
            oauth.generateRandomCodeVerifier(),
            insecure,
          )
          .then((r) => oauth.processAuthorizationCodeResponse(as, client, r)),
      );
      expect(err.error).toBe('invalid_grant');
    });
  });

  describe('refresh_token grant: rotation and replay', () => {
    it.each([
      ['confidential (ClientSecretPost)', 'post'],
      ['public (no client authentication)', 'public'],
    ] as const)(
      '%s: each refresh returns a new refresh token; the old one is then invalid_grant',
      async (_label, kind) => {
        const { tokens, client, auth } = await authorizationCode(kind, 'assets:read collections:read');
        const first = tokens.refresh_token!;

        const res = await oauth.refreshTokenGrantRequest(as, client, auth, first, insecure);
        expect(res.headers.get('cache-control')).toBe('no-store');
        const rotated = await oauth.processRefreshTokenResponse(as, client, res);
        expect(rotated.refresh_token).toEqual(expect.any(String));
        expect(rotated.refresh_token).not.toBe(first);
        expect(rotated.access_token).not.toBe(tokens.access_token);
        expect(rotated.scope?.split(' ').sort()).toEqual(['assets:read', 'collections:read']);
        expect((await validate(rotated.access_token)).status).toBe(200);

        // narrowing on refresh is allowed
        const narrowed = await oauth.processRefreshTokenResponse(
          as,
          client,
          await oauth.refreshTokenGrantRequest(as, client, auth, rotated.refresh_token!, {
            ...insecure,
            additionalParameters: { scope: 'assets:read' },
          }),
        );
        expect(narrowed.scope).toBe('assets:read');

        // the used token presented again: invalid_grant through the library's error handling …
        const replay = await oauthError(
          oauth
            .refreshTokenGrantRequest(as, client, auth, first, insecure)
            .then((r) => oauth.processRefreshTokenResponse(as, client, r)),
        );
        expect(replay.error).toBe('invalid_grant');
        expect(replay.status).toBe(400);
        // … and the whole chain is gone: the newest refresh token and the access tokens too
        const newest = await oauthError(
          oauth
            .refreshTokenGrantRequest(as, client, auth, narrowed.refresh_token!, insecure)
            .then((r) => oauth.processRefreshTokenResponse(as, client, r)),
        );
        expect(newest.error).toBe('invalid_grant');
        expect((await validate(narrowed.access_token)).status).toBe(401);
        expect((await validate(tokens.access_token)).status).toBe(401);
      },
    );

    it('widening the scope on refresh is invalid_scope', async () => {
      const { tokens, client, auth } = await authorizationCode('basic', 'assets:read');
      const err = await oauthError(
        oauth
          .refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, {
            ...insecure,
            additionalParameters: { scope: 'assets:read assets:write' },
          })
          .then((r) => oauth.processRefreshTokenResponse(as, client, r)),
      );
      expect(err.error).toBe('invalid_scope');
    });
  });

  describe('introspection (RFC 7662) and revocation (RFC 7009)', () => {
    const introspect = async (token: string) => {
      const { client, auth } = clients().basic;
      const res = await oauth.introspectionRequest(as, client, auth, token, insecure);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return oauth.processIntrospectionResponse(as, client, res);
    };

    it('access token: active with its claims, then revoked → 401 at the API and inactive', async () => {
      const { tokens, client, auth } = await authorizationCode('basic', 'assets:read');
      const before = await introspect(tokens.access_token);
      expect(before).toMatchObject({
        active: true,
        client_id: serverSide.id,
        sub: user.id,
        scope: 'assets:read',
        token_type: 'Bearer',
        iss: as.issuer,
      });
      expect(before.exp).toBeGreaterThan(Math.floor(Date.now() / 1000) + 12 * 3600 - 60);

      await oauth.processRevocationResponse(
        await oauth.revocationRequest(as, client, auth, tokens.access_token, insecure),
      );
      const me = await validate(tokens.access_token);
      expect(me.status).toBe(401);
      expect(await introspect(tokens.access_token)).toEqual({ active: false });
    });

    it('refresh token: active, then revoked → inactive and refresh_token grant invalid_grant', async () => {
      const { tokens, client, auth } = await authorizationCode('post', 'collections:read');
      const before = await introspect(tokens.refresh_token!);
      expect(before).toMatchObject({
        active: true,
        client_id: serverSide.id,
        sub: user.id,
        scope: 'collections:read',
        token_type: 'refresh_token',
      });
      await oauth.processRevocationResponse(
        await oauth.revocationRequest(as, client, auth, tokens.refresh_token!, {
          ...insecure,
          additionalParameters: { token_type_hint: 'refresh_token' },
        }),
      );
      expect(await introspect(tokens.refresh_token!)).toEqual({ active: false });
      const err = await oauthError(
        oauth
          .refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure)
          .then((r) => oauth.processRefreshTokenResponse(as, client, r)),
      );
      expect(err.error).toBe('invalid_grant');
      // revoking the refresh token ends the authorization: its access token stops working too
      expect((await validate(tokens.access_token)).status).toBe(401);
    });

    it('a public client revokes its own token without a secret', async () => {
      const { tokens, client, auth } = await authorizationCode('public', 'assets:read');
      await oauth.processRevocationResponse(
        await oauth.revocationRequest(as, client, auth, tokens.access_token, insecure),
      );
      expect((await validate(tokens.access_token)).status).toBe(401);
    });

    it('client_credentials token introspected by its own backend client', async () => {
      const { client, auth } = clients().backend;
      const tokens = await oauth.processClientCredentialsResponse(
        as,
        client,
        await oauth.clientCredentialsGrantRequest(as, client, auth, {}, insecure),
      );
      const info = await oauth.processIntrospectionResponse(
        as,
        client,
        await oauth.introspectionRequest(as, client, auth, tokens.access_token, insecure),
      );
      expect(info).toMatchObject({ active: true, client_id: backend.id, sub: serviceUser.id });
      expect(
        await oauth.processIntrospectionResponse(
          as,
          client,
          await oauth.introspectionRequest(as, client, auth, 'not-a-token', insecure),
        ),
      ).toEqual({ active: false });
    });
  });

  describe('access token signature, verified independently with jose', () => {
    it('verifies against the discovered jwks_uri (ES256, kid) and fails once altered', async () => {
      const { client, auth } = clients().backend;
      const tokens = await oauth.processClientCredentialsResponse(
        as,
        client,
        await oauth.clientCredentialsGrantRequest(as, client, auth, {}, insecure),
      );
      const jwks = createRemoteJWKSet(new URL(as.jwks_uri!));
      // a resource server can check issuer, subject, client and scope from the token alone (RFC 9068 claims)
      const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
        algorithms: ['ES256'],
        issuer: as.issuer,
      });
      expect(payload).toMatchObject({ sub: serviceUser.id, client_id: backend.id, scope: tokens.scope });
      expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
      expect(protectedHeader.kid).toEqual(expect.any(String));
      expect(payload).toMatchObject({ app_id: backend.id, user_id: serviceUser.id });
      expect(payload.exp! - payload.iat!).toBe(12 * 3600);

      const [h, p, s] = tokens.access_token.split('.');
      const flipped = `${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`;
      await expect(jwtVerify(`${h}.${p}.${flipped}`, jwks, { algorithms: ['ES256'] })).rejects.toThrow();
      expect(decodeProtectedHeader(tokens.access_token).kid).toBe(protectedHeader.kid);
    });
  });
});
