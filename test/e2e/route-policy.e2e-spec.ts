import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { Controller, Get, Post, RequestMethod } from '@nestjs/common';
import { DECORATORS as SWAGGER } from '@nestjs/swagger';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import {
  AUTH_OPTIONS,
  Authenticated,
  type AuthenticatedOptions,
  describePolicy,
  IS_PUBLIC,
  Public,
} from '../../src/base/common/auth/authenticated.decorator.js';
import { randomUUID } from 'node:crypto';
import { AccessService } from '../../src/base/common/auth/access.service.js';
import { createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { routeLayers } from '../../src/base/common/http/route-index.js';

interface RouteInfo {
  route: string;
  handler: string;
  /** The OpenAPI operationId: the method name, unless the route names its own (a route family's members). */
  operationId: string;
  policy: 'public' | 'authenticated' | null;
  /** Declares both: the guard lets `@Public()` win, which would silently drop the `@Authenticated` rules. */
  conflicting: boolean;
  /** Who may call it: `public`, or the declared policy as plain data. */
  rules?: 'public' | Record<string, unknown>;
}

type ControllerClass = new (...args: never[]) => unknown;

/** The routes one controller class declares, with the policy each one carries (handler or class). */
function routesOf(controller: ControllerClass): RouteInfo[] {
  const scanner = new MetadataScanner();
  // a controller may be mounted at several paths (the webhooks' older alias): one route per mount
  const bases: string[] = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat();
  const routes: RouteInfo[] = [];
  for (const name of scanner.getAllMethodNames(controller.prototype as object)) {
    const handler = (controller.prototype as Record<string, unknown>)[name] as object;
    const path = Reflect.getMetadata(PATH_METADATA, handler);
    if (path === undefined) continue; // not a route
    const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
    const declares = (key: string) =>
      Reflect.getMetadata(key, handler) !== undefined || Reflect.getMetadata(key, controller) !== undefined;
    const options = (Reflect.getMetadata(AUTH_OPTIONS, handler) ??
      Reflect.getMetadata(AUTH_OPTIONS, controller)) as AuthenticatedOptions | undefined;
    const policy = declares(IS_PUBLIC) ? 'public' : declares(AUTH_OPTIONS) ? 'authenticated' : null;
    for (const base of bases) {
      for (const p of [path].flat() as string[]) {
        routes.push({
          route: `${method} /${base}/${p}`.replace(/\/+/g, '/'),
          handler: `${controller.name}.${name}`,
          operationId:
            (Reflect.getMetadata(SWAGGER.API_OPERATION, handler) as { operationId?: string } | undefined)
              ?.operationId ?? name,
          policy,
          conflicting: declares(IS_PUBLIC) && declares(AUTH_OPTIONS),
          ...(policy === 'public'
            ? { rules: 'public' as const }
            : options
              ? { rules: describePolicy(options) }
              : {}),
        });
      }
    }
  }
  return routes;
}

/** Every controller method of the running app that Nest mounts as a route. */
function walkRoutes(t: TestApp): RouteInfo[] {
  const discovery = new DiscoveryService(t.app.get(ModulesContainer));
  return discovery
    .getControllers()
    .map((w) => w.metatype as ControllerClass | undefined)
    .filter((c): c is ControllerClass => !!c?.prototype)
    .flatMap(routesOf);
}

// negative controls: the walker must see a route without a policy, and one with both
@Controller('probe')
class UndeclaredProbeController {
  @Get('open')
  forgotten(): void {}
  @Get('fine')
  @Public()
  declared(): void {}
}
@Controller('probe2')
@Authenticated()
class ConflictingProbeController {
  @Post()
  @Public()
  both(): void {}
}

describe('route policy: every route declares @Public() or @Authenticated()', () => {
  let t: TestApp;
  let routes: RouteInfo[];

  beforeAll(async () => {
    t = await createTestApp();
    routes = walkRoutes(t);
  });
  afterAll(() => t.close());

  it('finds the routes (so the check cannot pass vacuously)', () => {
    expect(routes.length).toBeGreaterThan(20);
    const handlers = routes.map((r) => r.handler);
    expect(handlers).toEqual(
      expect.arrayContaining([
        'AppsController.listApps',
        'AppsController.createAppToken',
        'TokensController.validateToken',
        'LoginController.simpleLogin',
        'JwksController.getJwks',
        'HealthController.getLiveness',
        // the approval's one-time secret is the credential
        'ExternalAuthController.collectExternalAuth',
      ]),
    );
  });

  it('the walker detects undeclared and conflicting routes (negative control)', () => {
    expect(routesOf(UndeclaredProbeController)).toEqual([
      {
        route: 'GET /probe/open',
        handler: 'UndeclaredProbeController.forgotten',
        operationId: 'forgotten',
        policy: null,
        conflicting: false,
      },
      {
        route: 'GET /probe/fine',
        handler: 'UndeclaredProbeController.declared',
        operationId: 'declared',
        policy: 'public',
        conflicting: false,
        rules: 'public',
      },
    ]);
    expect(routesOf(ConflictingProbeController)).toEqual([
      {
        route: 'POST /probe2/',
        handler: 'ConflictingProbeController.both',
        operationId: 'both',
        policy: 'public',
        conflicting: true,
        rules: 'public',
      },
    ]);
  });

  it('every route Express serves (the OpenAPI document aside) is a controller route the walk saw', () => {
    const walked = new Set(routes.map((r) => r.route.replace(/\/$/, '')));
    // the routes the index holds too (src/base/common/http/route-index.ts)
    const served = routeLayers(t.app.getHttpAdapter().getInstance())
      .map((l) => l.route!)
      .filter((r) => !String(r.path).startsWith('/API/auth/spec'))
      .flatMap((r) => Object.keys(r.methods).map((m) => `${m.toUpperCase()} ${String(r.path)}`));
    expect(served.length).toBeGreaterThan(20);
    expect(served.filter((r) => !walked.has(r))).toEqual([]);
  });

  it('which of two routes that can match one URL Express tries first, as committed (a change shows in review)', () => {
    // Express tries routes in the order Nest registered them (a controller's own handlers, then a ServiceRoutes
    // table's, then a base class's): where two routes of one method can match the same URL, the first one
    // answers it. The OpenAPI document and the table above sort their keys, so only this sees that order.
    const layers = routeLayers(t.app.getHttpAdapter().getInstance()).filter((l) => l.route);
    const sample = (l: (typeof layers)[number]) => String(l.route!.path).replace(/:[A-Za-z_]+/g, 'x');
    const methods = (l: (typeof layers)[number]) => Object.keys(l.route!.methods);
    const first: string[] = [];
    layers.forEach((a, i) =>
      layers.slice(i + 1).forEach((b) => {
        for (const m of methods(a).filter((x) => methods(b).includes(x))) {
          if (a.match(sample(b)) || b.match(sample(a)))
            first.push(`${m.toUpperCase()} ${String(a.route!.path)} before ${String(b.route!.path)}`);
        }
      }),
    );
    // e.g. GET /API/users/v1/users/basic before /API/users/v1/users/:user_id
    expect(first.length).toBeGreaterThan(10);
    expect(first.sort()).toMatchSnapshot();
  });

  it('no route is left without a policy', () => {
    const offenders = routes.filter((r) => r.policy === null).map((r) => `${r.route} (${r.handler})`);
    expect(offenders).toEqual([]);
  });

  it('no route declares both', () => {
    expect(routes.filter((r) => r.conflicting).map((r) => `${r.route} (${r.handler})`)).toEqual([]);
  });

  it('public routes are only the ones meant to be public', () => {
    const publicRoutes = routes
      .filter((r) => r.policy === 'public')
      .map((r) => r.handler)
      .sort();
    // the whole public surface: a feature adding a public route extends this list on purpose
    const expected = [
      // the consent page signs the user in itself (HTML, CSRF-protected)
      'ConsentController.showConsentPage',
      'ConsentController.submitConsentDecision',
      'ConsentController.submitConsentLogin',
      // the passkey button of its sign-in and second-factor steps (issue 42): the signed assertion is the
      // credential, over a challenge its options route hands out (CSRF-checked JSON)
      'ConsentController.submitConsentPasskey',
      // the second step of that sign-in: the temporary token in its own cookie, and a code
      'ConsentController.submitConsentSecondFactor',
      'ConsentPasskeyOptionsController.consentPasskeyOptions',
      // company directories (issue 39): the person's own directory password is the credential
      'DirectoryLoginController.directoryLogin',
      // the mailed sign-in link's secret is the credential; the request answers the same for any email
      'EmailLoginController.completeEmailLogin',
      'EmailLoginController.requestEmailLogin',
      'EmailLoginPageController.showEmailLoginPage',
      // the approval's one-time secret is the credential
      'ExternalAuthController.collectExternalAuth',
      'HealthController.getCallerIp',
      'HealthController.getLiveness',
      'HealthController.getReadiness',
      // the mailed link's secret is the credential
      'InvitationLinksController.registerInvitation',
      'InvitationLinksController.validateInvitation',
      'InvitationsController.completeInvitation',
      'InvitationsController.verifyInvitation',
      'JwksController.getJwks',
      'LoginController.simpleLogin',
      // OpenID Connect RP-initiated logout: the id_token_hint or the person's confirmation (CSRF) is the authority
      'LogoutController.startLogout',
      'LogoutController.submitLogout',
      // the marketplace's signed token is the credential (verified against the configured issuer's keys)
      'MarketplaceController.marketplaceCloudSignup',
      'MarketplaceController.marketplaceSignup',
      'MetadataController.getAuthorizationServerMetadata',
      'MetadataController.getAuthorizationServerMetadataForIssuerPath',
      'MetadataController.getOpenIdConfiguration',
      'MetadataController.getOpenIdConfigurationUnderIssuerPath',
      // the bearer token from METRICS_TOKEN is checked by the route itself (404 without one configured)
      'MetricsController.getMetrics',
      // external OpenID providers (issue 39): start and finish carry no credential (the single-use code is the
      // credential at finish); the callback's state, code and signed id_token are
      'OidcLoginController.oidcCallback',
      'OidcLoginController.oidcLogin',
      // passkeys (issue 42): the signed assertion is the credential (its options hand out the challenge);
      // the second step reads Temp-Auth-Token itself (PendingSignIn, through the one Authenticator)
      'PasskeyLoginController.passkeyLogin',
      'PasskeyLoginController.passkeyOptions',
      // the mailed reset link's secret is the credential; forgot answers the same for any email
      'PasswordsController.forgotPassword',
      'PasswordsController.getResetPasswordChecks',
      'PasswordsController.resetPassword',
      // the OAuth endpoints authenticate the client themselves (RFC 6749 §2.3)
      'RefreshTokenController.revokeRefreshToken',
      // self-service registration (its own per-address budget) and the mailed link's secret; the countries
      // and the registration pages' content are public data
      'RegistrationsController.createRegistration',
      'RegistrationsController.getRegistrationContent',
      'RegistrationsController.listCountries',
      'RegistrationsController.verifyRegistration',
      // SAML single sign-on (issue 19): the browser and the IdP carry no credential; the signed assertion is
      // the credential at the ACS, the single-use code at token/; the rest starts SSO or describes the SP
      'SamlController.samlAcs',
      'SamlController.samlAcsDeprecated',
      'SamlController.samlLogin',
      'SamlController.samlLogout',
      'SamlController.samlLogoutDeprecated',
      'SamlController.samlMetadata',
      'SamlController.samlMetadataDeprecated',
      'SamlController.samlMultiDomainLogin',
      'SamlController.samlSlo',
      'SamlController.samlSloDeprecated',
      'SamlController.samlSloPost',
      'SamlController.samlToken',
      'SamlController.startSamlSso',
      'SamlController.startSamlSsoDeprecated',
      // GET /API/auth/: the service's name, version and links (constants only)
      'ServiceIndexController.getServiceIndex',
      'StaticAssetsController.getStaticAsset',
      // a domain's logo, shown on sign-in pages (image bytes only, nosniff, CSP default-src 'none')
      'SystemDomainsController.getSystemDomainLogo',
      'TokenEndpointController.createOAuthToken',
      'TokenEndpointController.introspectOAuthToken',
      'TokenEndpointController.revokeOAuthToken',
      // files (issue 20): the signed, short-lived link (HMAC over purpose, id and expiry) is the credential
      'TransferController.downloadFile',
      'TransferController.downloadKeyframe',
      'TransferController.putChunk',
      'TransferController.startUpload',
    ];
    expect(publicRoutes).toEqual(expected);
    // nothing under apps or tokens management is public beyond the external-auth collection
    expect(publicRoutes.filter((h) => /^(AppsController|TokensController)\./.test(h))).toEqual([]);
  });

  it('operationIds (the method names, or a route family member’s own) are unique across the app', () => {
    // one name per handler (a handler mounted at two paths is one operation twice)
    const names = [...new Map(routes.map((r) => [r.handler, r.operationId])).values()];
    const dupes = names.filter((n, i) => names.indexOf(n) !== i);
    expect(dupes).toEqual([]);
  });
  it('who may call what: every route’s method, path and policy, as committed (a change shows in review)', () => {
    const table = Object.fromEntries(
      [...routes]
        .sort((a, b) => a.route.localeCompare(b.route))
        .map((r) => [`${r.route} ${r.handler}`, r.rules]),
    );
    expect(table).toMatchSnapshot();
  });

  it('a credential of a kind no route names (the temporary sign-in token) gets 401 on every authenticated route', async () => {
    const temp = bearer((await tokenFor(t, t.admin, { kind: 'TEMP' })).token);
    const authenticated = routes.filter((r) => r.policy === 'authenticated');
    expect(authenticated.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const r of authenticated) {
      const [method, path] = r.route.split(' ');
      const url = path.replace(/:[a-z_]+/g, randomUUID());
      const res = await t.http[method.toLowerCase() as 'get'](url).set(temp).send({});
      if (res.status !== 401) answers.push(`${r.route}: ${res.status}`);
    }
    expect(answers).toEqual([]);
    // the same token is a valid one: a route that named its kind would accept it
    const login = bearer((await tokenFor(t, t.admin)).token);
    await t.http.get('/API/auth/v1/auth/token/').set(login).expect(200);
  });
  it('the temporary sign-in token in Temp-Auth-Token gets 401 on every authenticated route that does not name TEMP', async () => {
    const temp = { 'Temp-Auth-Token': (await tokenFor(t, t.admin, { kind: 'TEMP' })).token };
    const names = (r: RouteInfo) =>
      typeof r.rules === 'object' && ((r.rules.kinds as string[] | undefined) ?? []).includes('TEMP');
    const others = routes.filter((r) => r.policy === 'authenticated' && !names(r));
    expect(
      routes
        .filter(names)
        .map((r) => r.handler)
        .sort(),
    ).toEqual(['MfaLoginController.generateSignInOtp', 'MfaLoginController.multidomainLogin']);
    const answers: string[] = [];
    for (const r of others) {
      const [method, path] = r.route.split(' ');
      const url = path.replace(/:[a-z_]+/g, randomUUID());
      const res = await t.http[method.toLowerCase() as 'get'](url).set(temp).send({});
      if (res.status !== 401) answers.push(`${r.route}: ${res.status}`);
    }
    expect(answers).toEqual([]);
  });
  it('a provisioning token (SCIM) gets 401 on every authenticated route but the SCIM service’s, which all name it', async () => {
    const admin = await createUser(t, { isAdmin: true });
    const scim = bearer((await tokenFor(t, admin, { kind: 'SCIM' })).token);
    const names = (r: RouteInfo) =>
      typeof r.rules === 'object' && ((r.rules.kinds as string[] | undefined) ?? []).includes('SCIM');
    const scimRoutes = routes.filter(names);
    expect(scimRoutes.map((r) => r.route.split(' ')[1]).every((p) => p.startsWith('/API/scim/v2/'))).toBe(
      true,
    );
    expect(scimRoutes.length).toBe(17);
    const answers: string[] = [];
    for (const r of routes.filter((x) => x.policy === 'authenticated' && !names(x))) {
      const [method, path] = r.route.split(' ');
      const url = path.replace(/:[a-z_]+/g, randomUUID());
      const res = await t.http[method.toLowerCase() as 'get'](url).set(scim).send({});
      if (res.status !== 401) answers.push(`${r.route}: ${res.status}`);
    }
    expect(answers).toEqual([]);
    // the same token is a valid one: the SCIM service accepts it
    await t.http.get('/API/scim/v2/Users').set(scim).expect(200);
  });
  it('every entity a route names for its ACL has a registered access checker', () => {
    const registered = new Set(t.get(AccessService).entities());
    const named = routes
      .map((r) => (typeof r.rules === 'object' ? (r.rules.access as string | undefined) : undefined))
      .filter((a): a is string => !!a)
      .map((a) => a.split(':')[0]);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((e) => !registered.has(e))).toEqual([]);
  });
});
