import { jest } from '@jest/globals';
import type { SystemDomainsService } from '../../src/accounts/system-domains/system-domains.service.js';
import type { AppEntity } from '../../src/base/model/app.entity.js';
import type { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import type { OtpType } from '../../src/sign-in/login/mfa-policy.js';
import type { MfaService } from '../../src/sign-in/mfa/mfa.service.js';
import {
  type AuthorizationParams,
  AuthorizationRequestService,
} from '../../src/sign-in/oauth/authorization-request.service.js';
import type { NewCode, OAuthRepository } from '../../src/sign-in/oauth/oauth.repository.js';
import type { ConsentMemoryService } from '../../src/sign-in/oauth/oidc/consent-memory.service.js';
import type { IdTokenService } from '../../src/sign-in/oauth/oidc/id-token.service.js';
import { s256 } from '../../src/sign-in/oauth/pkce.js';
import { fixedClock } from './fakes.js';

/**
 * AuthorizationRequestService over fakes, for its specs (authorization-request.service.spec.ts, the OAuth
 * part; authorization-request.openid.spec.ts, the OpenID Connect part).
 */
export const NOW = new Date('2026-05-01T12:00:00Z');
export const APP_ID = '11111111-1111-4111-8111-111111111111';
export const CHALLENGE = s256('v'.repeat(43));

export const app = (over: Partial<AppEntity> = {}) =>
  ({
    id: APP_ID,
    type: 'OAUTH',
    is_builtin: false,
    system_domain_id: 'd1',
    redirect_uris: ['https://client.example/cb'],
    allowed_scopes: ['read', 'write'],
    ...over,
  }) as AppEntity;

/** The service with the app `found` by client_id, and `owed` the factors the app's domain owes. */
export function setup(found: AppEntity | null = app(), owed: OtpType[] | null = null) {
  const repo = {
    clientApp: jest.fn(async (): Promise<AppEntity | null> => found),
    insertCode: jest.fn(async (_em: unknown, _c: NewCode) => undefined),
    transaction: jest.fn(async <T>(work: (em: unknown) => Promise<T>) => work({})),
  };
  const idTokens = { recordGrant: jest.fn(async (_em: unknown, _g: object) => undefined) };
  const consents = {
    covers: jest.fn(async (_u: string, _a: string, _s: readonly string[]) => false),
    remember: jest.fn(async (_em: unknown, _u: string, _a: string, _s: readonly string[]) => undefined),
  };
  const domain = { id: 'd1', mfa_required: false } as SystemDomainEntity;
  const domains = { byId: jest.fn(async () => domain) };
  const mfa = { owedFor: jest.fn(async (): Promise<OtpType[] | null> => owed) };
  const service = new AuthorizationRequestService(
    repo as unknown as OAuthRepository,
    domains as unknown as SystemDomainsService,
    mfa as unknown as MfaService,
    fixedClock(NOW),
    idTokens as unknown as IdTokenService,
    consents as unknown as ConsentMemoryService,
  );
  return { service, repo, domains, mfa, domain, idTokens, consents };
}

/** A valid request of the app (PKCE S256), with `over`. */
export const params = (over: Partial<AuthorizationParams> = {}): AuthorizationParams => ({
  client_id: APP_ID,
  redirect_uri: 'https://client.example/cb',
  response_type: 'code',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
  ...over,
});
