import { jest } from '@jest/globals';
import type { Request } from 'express';
import type { SystemDomainsService } from '../../src/accounts/system-domains/system-domains.service.js';
import type { AuthContext } from '../../src/base/common/auth/auth-context.js';
import type { PageCookie, PageResult } from '../../src/base/common/html/page-result.js';
import type { BaseConfig } from '../../src/base/config/config.js';
import type { AppEntity } from '../../src/base/model/app.entity.js';
import type { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import type { SsoLoginService } from '../../src/sign-in/identity-providers/sso-login.service.js';
import type { CredentialsService } from '../../src/sign-in/login/credentials.service.js';
import type { OtpType } from '../../src/sign-in/login/mfa-policy.js';
import type { MfaService } from '../../src/sign-in/mfa/mfa.service.js';
import type {
  AuthorizationRequestService,
  ValidAuthorization,
} from '../../src/sign-in/oauth/authorization-request.service.js';
import type { ConsentFederation } from '../../src/sign-in/oauth/consent/consent-federation.service.js';
import { ConsentFlow } from '../../src/sign-in/oauth/consent/consent-flow.service.js';
import type { ConsentPasskeys } from '../../src/sign-in/oauth/consent/consent-passkeys.service.js';
import type { ConsentSessionService } from '../../src/sign-in/oauth/consent/consent-session.service.js';
import { fixedClock } from './fakes.js';

/**
 * ConsentFlow over fakes, for its specs (consent-flow.service.spec.ts, the OAuth steps;
 * consent-flow.openid.spec.ts, OpenID Connect's): a valid request `v` of app1, a signed-in `session`, a
 * `pending` sign-in, and every collaborator answering the happy path.
 */
export const config = { http: { publicBaseUrl: 'https://auth.example' } } as BaseConfig;
export const REQ = {} as Request;
export const CSRF_COOKIE: PageCookie = { name: 'portcullis_csrf', value: 'minted', options: {} };
export const SESSION_COOKIES: PageCookie[] = [
  { name: 'portcullis_session', value: 'login-jwt', options: {} },
];
export const PENDING_COOKIES: PageCookie[] = [{ name: 'portcullis_pending', value: 'temp', options: {} }];
export const v: ValidAuthorization = {
  app: { id: 'app1', name: 'Photos', url: null, system_domain_id: 'd1' } as AppEntity,
  redirectUri: 'https://photos.example/cb',
  scopes: ['assets:read'],
  state: 'st',
  codeChallenge: 'c'.repeat(43),
  openid: false,
  nonce: null,
  prompt: [],
  maxAge: null,
  loginHint: null,
};
export const FIELDS = { client_id: 'app1', redirect_uri: 'https://photos.example/cb', state: 'st' };
export const session = { userId: 'u1', user: { email: 'a@example.test' } } as AuthContext;
export const pending = {
  userId: 'u1',
  systemDomainId: 'd1',
  user: { email: 'a@example.test' },
} as AuthContext;
export const user = { id: 'u1' } as UserEntity;
export const domain = { id: 'd1' } as SystemDomainEntity;

/** The flow, its clock at `now`. */
export function setup(now = new Date()) {
  const requests = {
    validate: jest.fn(async (): Promise<ValidAuthorization> => v),
    requireApprover: jest.fn(async () => undefined),
    decide: jest.fn(async (..._a: unknown[]) => 'https://photos.example/cb?code=abc'),
    describeScopes: jest.fn((s: string[]) => s.map((name) => ({ name, description: name }))),
    consentRemembered: jest.fn(async (..._a: unknown[]) => false),
    errorRedirect: jest.fn(
      (_v: ValidAuthorization, error: string, ..._rest: unknown[]) =>
        `https://photos.example/cb?error=${error}`,
    ),
  };
  const sessions = {
    csrfToken: jest.fn((): { token: string; cookie?: PageCookie } => ({
      token: 'csrf',
      cookie: CSRF_COOKIE,
    })),
    csrfValid: jest.fn(() => true),
    current: jest.fn(async (): Promise<AuthContext | null> => session),
    pending: jest.fn(async (): Promise<AuthContext | null> => pending),
    chooseDomain: jest.fn(async () => 'd1'),
    start: jest.fn(async () => SESSION_COOKIES),
    startWith: jest.fn(() => SESSION_COOKIES),
    startPending: jest.fn(() => PENDING_COOKIES),
  };
  const credentials = { verify: jest.fn(async (): Promise<UserEntity | null> => user) };
  const mfa = {
    owedFor: jest.fn(async (_userId?: string, _domain?: unknown): Promise<OtpType[] | null> => null),
    // what the flow asks: the codes owedFor answers, and a passkey when a test says so (`passkey`)
    owedFactor: jest.fn(async (userId?: string, d?: unknown) => {
      const codes = await mfa.owedFor(userId, d);
      return codes === null ? null : { codes, passkey: passkey.offered };
    }),
    issueTemp: jest.fn(async () => 'temp'),
    generateForCurrent: jest.fn(async () => undefined),
    completeWithCode: jest.fn(async () => ({ token: 'login-jwt' })),
  };
  const domains = { byId: jest.fn(async () => domain) };
  const passkey = { offered: false };
  const passkeys = {
    options: jest.fn(async () => ({ challenge: 'c' })),
    complete: jest.fn(async (): Promise<PageResult> => ({ status: 200, html: 'passkey' })),
  };
  const sso = {
    exchange: jest.fn(async (): Promise<{ token?: string } | null> => ({ token: 'sso-jwt' })),
    loginUrl: jest.fn(async (_email: string, _back: string): Promise<{ url: string } | null> => ({
      url: 'https://idp.example/sso',
    })),
  };
  // the email step of a SAML-routed email asks the IdP's SsoLoginService, as ConsentFederation does
  const federation = {
    emailStep: jest.fn(async (email: string, back: string) => sso.loginUrl(email, back)),
    choices: jest.fn(async () => ({
      providers: [] as { id: string; name: string }[],
      directories: [] as { name: string }[],
    })),
    startProvider: jest.fn(async (): Promise<{ url: string } | null> => ({ url: 'https://op.example/auth' })),
    directoryLogin: jest.fn(async (): Promise<Record<string, unknown>> => ({ token: 'dir-jwt' })),
    oauthReturn: jest.fn(async (): Promise<{ token?: string } | null> => ({ token: 'oidc-jwt' })),
  };
  const flow = new ConsentFlow(
    config,
    requests as unknown as AuthorizationRequestService,
    sessions as unknown as ConsentSessionService,
    credentials as unknown as CredentialsService,
    mfa as unknown as MfaService,
    domains as unknown as SystemDomainsService,
    sso as unknown as SsoLoginService,
    fixedClock(now),
    federation as unknown as ConsentFederation,
    passkeys as unknown as ConsentPasskeys,
  );
  return { flow, requests, sessions, credentials, mfa, domains, sso, federation, passkeys, passkey };
}
