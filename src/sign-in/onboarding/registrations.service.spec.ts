import { jest } from '@jest/globals';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { ReferralCodeEntity } from '../../base/model/referral-code.entity.js';
import type { RegistrationEntity } from '../../base/model/registration.entity.js';
import { MarketplaceErrors } from '../marketplace/marketplace.errors.js';
import type { RegistrationConfig } from './registration-config.js';
import { RegistrationsService } from './registrations.service.js';
import { fixedClock, transactionalRepo, uniqueViolation } from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { signInAuthority } from '../../../test/utils/fakes/accounts.js';

const SECRET = 'v'.repeat(43);
const GOOD = 'Quartz-Lantern-91-Obelisk';
const UNIQUE = uniqueViolation();
const config = { http: { publicBaseUrl: 'https://auth.example.test' } } as unknown as BaseConfig;
const body = {
  email: 'ada@corp.test',
  first_name: 'Ada',
  last_name: 'Lovelace',
  company_name: 'Corp',
  country: 'FR',
  password: GOOD,
};

const registration = (over: Partial<RegistrationEntity> = {}) =>
  ({
    id: 'reg1',
    email: 'ada@corp.test',
    first_name: 'Ada',
    last_name: 'Lovelace',
    company_name: null,
    country: 'FR',
    referral_code: null,
    billing_customer_id: 'cus_1',
    billing_subscription_id: null,
    payments_id: null,
    marketplace_nonce_sha256: null,
    password_hash: '$argon2id$stored',
    expires: new Date(NOW.getTime() + 1000),
    verified_at: null,
    superseded_at: null,
    ...over,
  }) as RegistrationEntity;

function setup(
  o: {
    enabled?: boolean;
    code?: ReferralCodeEntity | null;
    validCode?: boolean;
    accountId?: string;
    reg?: RegistrationEntity | null;
    mfa?: { totp_confirmed_at: Date | null; mail_2sv_enabled: boolean | null } | null;
    mfaRequired?: boolean;
  } = {},
) {
  const order: string[] = [];
  const EM = { transaction: 'em' };
  const repo = transactionalRepo(order, EM, {
    manager: { outside: true },
    lockAccountId: jest.fn(async (_em: unknown, _email: string) => {
      order.push('lock-account');
      return o.accountId;
    }),
    retirePending: jest.fn(async (_em: unknown, _e: string, _now: Date, _before: Date) => {
      order.push('retire');
    }),
    insertRegistration: jest.fn(async (_em: unknown, f: Partial<RegistrationEntity>) => {
      order.push('insert');
      return { ...f, id: 'reg-new' } as RegistrationEntity;
    }),
    lockRegistration: jest.fn(async (_em: unknown, _h: string) =>
      o.reg === undefined ? registration() : o.reg,
    ),
    markRegistrationVerified: jest.fn(async (..._a: unknown[]) => {
      order.push('verified');
    }),
    markEmailVerified: jest.fn(async (..._a: unknown[]) => {
      order.push('email-verified');
    }),
  });
  const mail = {
    queue: jest.fn(async (_em: unknown, m: { kind: string; to: string; body: string }) => {
      order.push(`mail:${m.kind}`);
    }),
  };
  const codes = {
    find: jest.fn(async (..._a: unknown[]) => (o.code === undefined ? null : o.code)),
    isValid: jest.fn(() => o.validCode ?? true),
  };
  const newDomains = {
    passwordDomains: jest.fn(async () => ['tpl']),
    create: jest.fn(async (..._a: unknown[]) => {
      order.push('new-domain');
      return {
        domain: { id: 'd-new', status: 'ACTIVE', mfa_required: o.mfaRequired ?? false },
        user: { id: 'u-new' },
        view: { id: 'd-new' },
      };
    }),
  };
  const passwords = { assert: jest.fn(async (..._a: unknown[]) => undefined) };
  // the authority's rule over the account's factors as o.mfa has them, read in the transaction
  const signIns = signInAuthority(EM, o.mfa);
  const marketplace = {
    assertUsable: jest.fn(async (_n: string) => undefined),
    consumeHashed: jest.fn(async (..._a: unknown[]) => {
      order.push('marketplace');
    }),
  };
  const service = construct(
    RegistrationsService,
    config,
    { enabled: o.enabled ?? true, templateDomainId: null, ttlSeconds: 3600 } as RegistrationConfig,
    fixedClock(NOW),
    mail,
    passwords,
    codes,
    newDomains,
    signIns,
    marketplace,
    repo,
  );
  return { service, repo, mail, codes, newDomains, passwords, signIns, marketplace, order, EM };
}

describe('RegistrationsService.register', () => {
  it('replaces the email’s pending registrations, stores the hashes and mails the link, in one transaction', async () => {
    const s = setup();
    const out = await s.service.register(body);
    expect(s.order).toEqual(['begin', 'lock-account', 'retire', 'insert', 'mail:registration', 'commit']);
    expect(s.repo.retirePending).toHaveBeenCalledWith(
      s.EM,
      'ada@corp.test',
      NOW,
      new Date(NOW.getTime() - 7 * 24 * 3600 * 1000),
    );
    const row = s.repo.insertRegistration.mock.calls[0][1];
    const secret = /\/registrations\/verify\/([\w-]+)/.exec(s.mail.queue.mock.calls[0][1].body)![1];
    expect(row).toMatchObject({
      email: 'ada@corp.test',
      secret_sha256: sha256Hex(secret),
      expires: new Date(NOW.getTime() + 3600 * 1000),
      verified_at: null,
      superseded_at: null,
      marketplace_nonce_sha256: null,
    });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(s.passwords.assert).toHaveBeenCalledWith(['tpl'], GOOD, {
      personal: ['ada@corp.test', 'Ada', 'Lovelace', 'Corp'],
    });
    expect(out).toMatchObject({ id: 'reg-new', email: 'ada@corp.test', password: null });
  });

  it('an email with an account gets another mail and nothing is stored; the answer looks the same', async () => {
    const s = setup({ accountId: 'u9' });
    const out = await s.service.register(body);
    expect(s.order).toEqual(['begin', 'lock-account', 'mail:registration (existing account)', 'commit']);
    expect(s.mail.queue.mock.calls[0][1].to).toBe('ada@corp.test');
    expect(out.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(out).sort()).toEqual(Object.keys(await setup().service.register(body)).sort());
  });

  it('refuses an unknown or expired referral code alike, before the transaction', async () => {
    for (const o of [{ code: null }, { code: { code_key: 'old' } as ReferralCodeEntity, validCode: false }]) {
      const s = setup(o);
      await expect(s.service.register({ ...body, referral_code: 'old' })).rejects.toMatchObject({
        code: 'onboarding.INVALID',
        errors: { referral_code: 'is not a valid referral code (unknown or expired)' },
      });
      expect(s.repo.transaction).not.toHaveBeenCalled();
    }
  });

  it('a marketplace nonce must be usable, and only its hash is kept', async () => {
    const s = setup();
    await s.service.register({ ...body, marketplace_signup_nonce: 'nonce-1' });
    expect(s.marketplace.assertUsable).toHaveBeenCalledWith('nonce-1');
    expect(s.repo.insertRegistration.mock.calls[0][1].marketplace_nonce_sha256).toBe(sha256Hex('nonce-1'));
  });

  it('answers REGISTERED_CONCURRENTLY when a twin registration won the unique index; switched off, REGISTRATION_DISABLED', async () => {
    const s = setup();
    s.repo.insertRegistration.mockRejectedValue(UNIQUE);
    await expect(s.service.register(body)).rejects.toMatchObject({
      code: 'onboarding.REGISTERED_CONCURRENTLY',
    });
    await expect(setup({ enabled: false }).service.register(body)).rejects.toMatchObject({
      code: 'onboarding.REGISTRATION_DISABLED',
    });
  });
});

describe('RegistrationsService.verify', () => {
  it('claims the registration under its lock, makes the domain and account, marks it verified and signs in', async () => {
    const s = setup();
    const out = await s.service.verify(SECRET, 'req1');
    expect(s.repo.lockRegistration).toHaveBeenCalledWith(s.EM, sha256Hex(SECRET));
    const [, spec, admin, requestId] = s.newDomains.create.mock.calls[0];
    expect(spec).toMatchObject({
      name: "Ada's domain",
      country: 'FR',
      code: null,
      billing: { billing_customer_id: 'cus_1', billing_subscription_id: null, payments_id: null },
    });
    expect(admin).toEqual({
      email: 'ada@corp.test',
      first_name: 'Ada',
      last_name: 'Lovelace',
      password_hash: '$argon2id$stored',
    });
    expect(requestId).toBe('req1');
    expect(s.repo.markRegistrationVerified).toHaveBeenCalledWith(s.EM, 'reg1', {
      verified_at: NOW,
      user_id: 'u-new',
      system_domain_id: 'd-new',
    });
    // the mailed link proved the registration's address, for the account just made, in the same transaction
    expect(s.repo.markEmailVerified).toHaveBeenCalledWith(s.EM, 'u-new', 'ada@corp.test');
    expect(s.signIns.serviceSession.mock.calls[0].slice(1)).toEqual([
      { userId: 'u-new', domainId: 'd-new' },
      { method: 'registration' },
    ]);
    expect(out).toEqual({
      auto_login: true,
      domain_data: { id: 'd-new' },
      login_data: { app_id: 'app', token: 'jwt' },
    });
  });

  it('a malformed secret is never looked up; an unknown one is LINK_NOT_FOUND', async () => {
    const s = setup();
    await expect(s.service.verify('short', null)).rejects.toMatchObject({
      code: 'onboarding.LINK_NOT_FOUND',
    });
    expect(s.repo.transaction).not.toHaveBeenCalled();
    await expect(setup({ reg: null }).service.verify(SECRET, null)).rejects.toMatchObject({
      code: 'onboarding.LINK_NOT_FOUND',
    });
  });

  it('a used, superseded or expired registration is LINK_EXPIRED and makes nothing', async () => {
    for (const over of [{ verified_at: NOW }, { superseded_at: NOW }, { expires: NOW }]) {
      const s = setup({ reg: registration(over) });
      await expect(s.service.verify(SECRET, null)).rejects.toMatchObject({ code: 'onboarding.LINK_EXPIRED' });
      expect(s.newDomains.create).not.toHaveBeenCalled();
      expect(s.repo.markEmailVerified).not.toHaveBeenCalled();
    }
  });

  it('the referral code applies if it still exists (read under its lock), whatever its validity now', async () => {
    const code = { code_key: 'p1' } as ReferralCodeEntity;
    const s = setup({
      reg: registration({ referral_code: 'P1', company_name: 'Corp' }),
      code,
      validCode: false,
    });
    await s.service.verify(SECRET, null);
    expect(s.codes.find).toHaveBeenCalledWith(s.EM, 'P1', true);
    expect(s.newDomains.create.mock.calls[0][1]).toMatchObject({ name: 'Corp', code });
  });

  it('consumes the marketplace nonce for the new domain; one that can no longer be claimed leaves it unlinked', async () => {
    const s = setup({ reg: registration({ marketplace_nonce_sha256: 'h1' }) });
    await s.service.verify(SECRET, 'req1');
    expect(s.marketplace.consumeHashed).toHaveBeenCalledWith(s.EM, 'h1', 'd-new', { requestId: 'req1' });
    const gone = setup({ reg: registration({ marketplace_nonce_sha256: 'h1' }) });
    gone.marketplace.consumeHashed.mockRejectedValue(MarketplaceErrors.NONCE_INVALID());
    await expect(gone.service.verify(SECRET, null)).resolves.toMatchObject({ auto_login: true });
    const down = setup({ reg: registration({ marketplace_nonce_sha256: 'h1' }) });
    const boom = new Error('down');
    down.marketplace.consumeHashed.mockRejectedValue(boom);
    await expect(down.service.verify(SECRET, null)).rejects.toBe(boom);
  });

  it('does not sign in when the new domain requires a second factor', async () => {
    const s = setup({ mfaRequired: true });
    await expect(s.service.verify(SECRET, null)).resolves.toEqual({
      auto_login: false,
      domain_data: { id: 'd-new' },
      login_data: null,
    });
    expect(s.signIns.serviceSession).not.toHaveBeenCalled();
  });
});
