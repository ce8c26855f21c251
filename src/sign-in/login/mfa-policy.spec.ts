// A domain's second-factor policy against what a user has confirmed (mfa-policy.ts): each function's truth
// table, passkeys (WEBAUTHN) included, and the invariants that tie them together over every combination.
import { describe, expect, it } from '@jest/globals';
import {
  acceptedOtpTypes,
  confirmedMethods,
  factorOwed,
  factorPassable,
  MFA_METHODS,
  passkeyAccepted,
  passkeySatisfies,
  type MfaMethod,
  type MfaPolicy,
  type UserFactorColumns,
} from './mfa-policy.js';

const AT = new Date('2026-05-01T12:00:00Z');
const optional = (mfa_methods: string[] = [...MFA_METHODS]): MfaPolicy => ({
  mfa_required: false,
  mfa_methods,
});
const required = (mfa_methods: string[]): MfaPolicy => ({ mfa_required: true, mfa_methods });

/** Every subset of `items`, in their order. */
const subsets = <T>(items: readonly T[]): T[][] =>
  items.reduce<T[][]>((all, item) => [...all, ...all.map((s) => [...s, item])], [[]]);

/** Every domain policy: optional or required, with every subset of the methods (and an unknown one). */
const POLICIES: MfaPolicy[] = subsets([...MFA_METHODS, 'SMS']).flatMap((m) => [optional(m), required(m)]);
/** Every set of confirmed factors, in confirmedMethods' order. */
const CONFIGURED: MfaMethod[][] = subsets(MFA_METHODS);

describe('confirmedMethods', () => {
  it('is empty without a user_mfa row', () => {
    expect(confirmedMethods(null)).toEqual([]);
  });

  it.each([
    [{ totp_confirmed_at: null, mail_2sv_enabled: null }, []],
    [{ totp_confirmed_at: null, mail_2sv_enabled: false, webauthn: false }, []],
    [{ totp_confirmed_at: null, mail_2sv_enabled: null, webauthn: null }, []],
    [{ totp_confirmed_at: AT, mail_2sv_enabled: null }, ['TOTP']],
    [{ totp_confirmed_at: null, mail_2sv_enabled: true }, ['MAIL_2SV']],
    [{ totp_confirmed_at: null, mail_2sv_enabled: null, webauthn: true }, ['WEBAUTHN']],
    [{ totp_confirmed_at: AT, mail_2sv_enabled: true }, ['TOTP', 'MAIL_2SV']],
    [{ totp_confirmed_at: AT, mail_2sv_enabled: false, webauthn: true }, ['TOTP', 'WEBAUTHN']],
    [{ totp_confirmed_at: null, mail_2sv_enabled: true, webauthn: true }, ['MAIL_2SV', 'WEBAUTHN']],
    [{ totp_confirmed_at: AT, mail_2sv_enabled: true, webauthn: true }, ['TOTP', 'MAIL_2SV', 'WEBAUTHN']],
  ] as [UserFactorColumns, MfaMethod[]][])('%o → %o', (row, methods) => {
    expect(confirmedMethods(row)).toEqual(methods);
  });
});

describe('factorOwed', () => {
  it.each([
    [false, [], false],
    [false, ['TOTP'], true],
    [false, ['MAIL_2SV'], true],
    [false, ['WEBAUTHN'], true],
    [true, [], true],
    [true, ['WEBAUTHN'], true],
  ] as [boolean, MfaMethod[], boolean][])('required %s, confirmed %o → %s', (req, configured, owed) => {
    expect(factorOwed({ mfa_required: req }, configured)).toBe(owed);
  });
});

describe('passkeySatisfies (a user-verified passkey alone)', () => {
  it.each([
    [optional(), true],
    [optional([]), true],
    [optional(['TOTP']), true],
    [required(['WEBAUTHN']), true],
    [required(['TOTP', 'MAIL_2SV', 'WEBAUTHN']), true],
    [required(['TOTP', 'MAIL_2SV']), false],
    [required(['TOTP']), false],
    [required([]), false],
  ])('%o → %s', (domain, satisfies) => {
    expect(passkeySatisfies(domain)).toBe(satisfies);
  });
});

describe('passkeyAccepted (a passkey as the second factor)', () => {
  it.each([
    [optional(), ['WEBAUTHN'], true],
    // a domain that does not require a factor counts every method, whatever its list says
    [optional(['TOTP']), ['WEBAUTHN'], true],
    [optional([]), ['TOTP', 'WEBAUTHN'], true],
    [required(['WEBAUTHN']), ['WEBAUTHN'], true],
    [required(['TOTP', 'WEBAUTHN']), ['TOTP', 'WEBAUTHN'], true],
    [required(['TOTP', 'MAIL_2SV']), ['WEBAUTHN'], false],
    [required(['TOTP']), ['TOTP', 'WEBAUTHN'], false],
    [optional(), [], false],
    [optional(), ['TOTP', 'MAIL_2SV'], false],
    [required(['WEBAUTHN']), ['TOTP'], false],
  ] as [MfaPolicy, MfaMethod[], boolean][])('%o, confirmed %o → %s', (domain, configured, accepted) => {
    expect(passkeyAccepted(domain, configured)).toBe(accepted);
  });
});

describe('acceptedOtpTypes (the codes that pass the factor)', () => {
  it.each([
    // a domain that does not require a factor: the user's own codes
    [optional(), ['TOTP'], ['TOTP', 'RECOVERY']],
    [optional(), ['MAIL_2SV'], ['MAIL_2SV']],
    [optional(), ['TOTP', 'MAIL_2SV'], ['TOTP', 'RECOVERY', 'MAIL_2SV']],
    [optional(['TOTP']), ['MAIL_2SV'], ['MAIL_2SV']],
    [optional(), [], ['MAIL_2SV']],
    // a passkey-only user: no code at all, and no mailed code in its place
    [optional(), ['WEBAUTHN'], []],
    [required(['TOTP', 'MAIL_2SV', 'WEBAUTHN']), ['WEBAUTHN'], []],
    [required(['MAIL_2SV', 'WEBAUTHN']), ['WEBAUTHN'], []],
    [required(['WEBAUTHN']), ['WEBAUTHN'], []],
    // a passkey beside codes: the codes
    [optional(), ['TOTP', 'WEBAUTHN'], ['TOTP', 'RECOVERY']],
    [optional(), ['MAIL_2SV', 'WEBAUTHN'], ['MAIL_2SV']],
    [required(['TOTP', 'WEBAUTHN']), ['TOTP', 'MAIL_2SV', 'WEBAUTHN'], ['TOTP', 'RECOVERY']],
    // a domain that requires a factor: its methods only
    [required(['TOTP', 'MAIL_2SV']), ['TOTP', 'MAIL_2SV'], ['TOTP', 'RECOVERY', 'MAIL_2SV']],
    [required(['TOTP']), ['TOTP', 'MAIL_2SV'], ['TOTP', 'RECOVERY']],
    [required(['MAIL_2SV']), ['TOTP', 'MAIL_2SV'], ['MAIL_2SV']],
    // …and a user with none of them may use a mailed code where the domain allows it
    [required(['TOTP', 'MAIL_2SV']), [], ['MAIL_2SV']],
    [required(['MAIL_2SV']), ['TOTP'], ['MAIL_2SV']],
    [required(['TOTP', 'MAIL_2SV']), ['WEBAUTHN'], ['MAIL_2SV']],
    // …else nothing
    [required(['TOTP']), [], []],
    [required(['TOTP']), ['MAIL_2SV'], []],
    [required(['TOTP']), ['WEBAUTHN'], []],
    [required(['WEBAUTHN']), [], []],
    [required(['WEBAUTHN']), ['TOTP', 'MAIL_2SV'], []],
    [required([]), ['TOTP'], []],
    [required(['SMS']), [], []],
  ] as [MfaPolicy, MfaMethod[], string[]][])('%o, confirmed %o → %o', (domain, configured, types) => {
    expect(acceptedOtpTypes(domain, configured)).toEqual(types);
  });
});

describe('factorPassable', () => {
  it.each([
    [optional(), ['WEBAUTHN'], true],
    [optional(), ['TOTP'], true],
    [optional(), [], true],
    [required(['WEBAUTHN']), ['WEBAUTHN'], true],
    [required(['WEBAUTHN']), ['TOTP'], false],
    [required(['WEBAUTHN']), [], false],
    [required(['TOTP']), ['TOTP'], true],
    [required(['TOTP']), ['WEBAUTHN'], false],
    [required(['TOTP']), [], false],
    [required(['MAIL_2SV']), [], true],
    [required(['TOTP', 'MAIL_2SV']), ['WEBAUTHN'], true],
    [required([]), ['TOTP', 'MAIL_2SV', 'WEBAUTHN'], false],
  ] as [MfaPolicy, MfaMethod[], boolean][])('%o, confirmed %o → %s', (domain, configured, passable) => {
    expect(factorPassable(domain, configured)).toBe(passable);
  });
});

describe('over every policy and every set of confirmed factors', () => {
  const grid = POLICIES.flatMap((domain) => CONFIGURED.map((configured) => ({ domain, configured })));

  it('covers the grid (2 × 16 policies × 8 sets)', () => {
    expect(grid).toHaveLength(256);
  });

  it('a passkey is accepted exactly when the user holds one and a passkey satisfies the domain', () => {
    for (const { domain, configured } of grid)
      expect([domain, configured, passkeyAccepted(domain, configured)]).toEqual([
        domain,
        configured,
        configured.includes('WEBAUTHN') && passkeySatisfies(domain),
      ]);
  });

  it('a code is accepted only for a method the domain counts (RECOVERY standing for TOTP)', () => {
    for (const { domain, configured } of grid) {
      const counted = domain.mfa_required ? domain.mfa_methods : MFA_METHODS;
      for (const type of acceptedOtpTypes(domain, configured))
        expect([domain, type, counted.includes(type === 'RECOVERY' ? 'TOTP' : type)]).toEqual([
          domain,
          type,
          true,
        ]);
    }
  });

  it('a mailed code the user did not enable is offered only when none of their factors counts here', () => {
    for (const { domain, configured } of grid) {
      if (configured.includes('MAIL_2SV') || !acceptedOtpTypes(domain, configured).includes('MAIL_2SV'))
        continue;
      const counted = domain.mfa_required ? domain.mfa_methods : MFA_METHODS;
      expect([domain, configured, configured.filter((m) => counted.includes(m))]).toEqual([
        domain,
        configured,
        [],
      ]);
    }
  });

  it('a user holding a factor the domain counts can always pass it', () => {
    for (const { domain, configured } of grid) {
      const counted = domain.mfa_required ? domain.mfa_methods : MFA_METHODS;
      if (!configured.some((m) => counted.includes(m))) continue;
      expect([domain, configured, factorPassable(domain, configured)]).toEqual([domain, configured, true]);
    }
  });

  it('a user holding none can pass only with a mailed code, where the domain counts it', () => {
    for (const { domain, configured } of grid) {
      const counted = domain.mfa_required ? domain.mfa_methods : MFA_METHODS;
      if (configured.some((m) => counted.includes(m))) continue;
      expect([domain, configured, factorPassable(domain, configured)]).toEqual([
        domain,
        configured,
        counted.includes('MAIL_2SV'),
      ]);
    }
  });
});
