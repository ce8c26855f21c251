/** Accounts and the sign-in authority, as the invitation, registration and identity specs fake them. */
import { jest } from '@jest/globals';
import type { UserEntity } from '../../../src/base/model/user.entity.js';
import { confirmedMethods, factorOwed } from '../../../src/sign-in/login/mfa-policy.js';
import { NOW } from './fixtures.js';

/** Account u2, Ada (ada@corp.test) of domain d1: active, STANDARD, no super administrator, stamped NOW. */
export const accountRow = (over: Partial<UserEntity> = {}) =>
  ({
    id: 'u2',
    email: 'ada@corp.test',
    first_name: 'Ada',
    last_name: 'L',
    status: 'ACTIVE',
    type: 'STANDARD',
    is_super_admin: false,
    system_domain_id: 'd1',
    date_created: NOW,
    date_modified: NOW,
    last_login: null,
    ...over,
  }) as UserEntity;

/** The second factors an account has confirmed, as the MFA table holds them (none: null). */
type Factors = { totp_confirmed_at: Date | null; mail_2sv_enabled: boolean | null } | null | undefined;

/**
 * A SignInAuthority fake for the service's own sign-ins: `serviceSession` answers a session of app 'app';
 * `factorOwed` is the authority's rule (mfa-policy.ts) over the factors `mfa` has, read in the transaction `em`.
 */
export const signInAuthority = (em: unknown, mfa: Factors) => ({
  serviceSession: jest.fn(async (..._a: unknown[]) => ({ appId: 'app', token: 'jwt' })),
  factorOwed: jest.fn(async (tx: unknown, domain: { mfa_required: boolean }, _userId: string) => {
    expect(tx).toBe(em);
    return factorOwed(domain, confirmedMethods(mfa ?? null));
  }),
});

/**
 * The first call of a repository's replace-link method (password reset, sign-in by mail): the transaction, the
 * user, the new secret's hash, now, the link's expiry and the cut-off before which older links are dropped.
 */
export const linkReplaced = (replace: { mock: { calls: unknown[][] } }) =>
  replace.mock.calls[0] as [
    em: unknown,
    userId: string,
    hash: string,
    now: Date,
    expires: Date,
    dropBefore: Date,
  ];
