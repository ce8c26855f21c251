import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { ReferralCodeEntity } from '../../base/model/referral-code.entity.js';
import { ReferralCodesService } from './referral-codes.service.js';
import { adminContext, fixedClock, repoWithTransaction, uniqueViolation } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const TX = { tx: true };
const UNIQUE = uniqueViolation();
const GOOD = 'Quartz-Lantern-91-Obelisk';

/** What a code holds where its body says nothing: no billing, credit expiry, freeze or CRM fields; deletable. */
const DEFAULTS = {
  billing_tier: null,
  credit_expiry_days: null,
  do_not_delete: false,
  freeze_date: null,
  is_plg: null,
  billing_customer_id: null,
  crm_id: null,
};

const code = (over: Partial<ReferralCodeEntity> = {}) =>
  ({
    code_key: 'partner-1',
    code: 'Partner-1',
    valid_to: new Date(NOW.getTime() + 1000),
    value: 0,
    ...DEFAULTS,
    manage_system_domain_id: 'dp',
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as ReferralCodeEntity;
const caller = (over: Partial<AuthContext> = {}) => adminContext({ systemDomainId: 'dp', ...over });

function setup(o: { row?: ReferralCodeEntity | null; domainExists?: boolean } = {}) {
  const repo = repoWithTransaction(TX, {
    manager: EM,
    referralCode: jest.fn(async (_em: unknown, _k: string, _lock?: boolean) =>
      o.row === undefined ? code() : o.row,
    ),
    domainExists: jest.fn(async () => o.domainExists ?? true),
    insertReferralCode: jest.fn(async (_em: unknown, f: Partial<ReferralCodeEntity>) => ({
      ...code(),
      ...f,
    })),
    deleteReferralCode: jest.fn(async (_em: unknown, _k: string) => undefined),
  });
  const newDomains = {
    passwordDomains: jest.fn(async () => ['tpl']),
    create: jest.fn(async (..._a: unknown[]) => ({ view: { id: 'd-new' } })),
  };
  const passwords = { assert: jest.fn(async (..._a: unknown[]) => undefined) };
  const service = construct(ReferralCodesService, repo, fixedClock(NOW), newDomains, passwords);
  return { service, repo, newDomains, passwords };
}

describe('ReferralCodesService: the codes', () => {
  const body = {
    code: 'Partner-1',
    valid_to: '2027-01-01T00:00:00Z',
    value: 10,
    manage_system_domain_id: 'dp',
  };

  it('keys a code by its lower-cased form, with the defaults for what the body leaves out', async () => {
    const s = setup();
    await s.service.create(body);
    expect(s.repo.insertReferralCode.mock.calls[0][1]).toEqual({
      code_key: 'partner-1',
      code: 'Partner-1',
      valid_to: new Date('2027-01-01T00:00:00Z'),
      value: 10,
      ...DEFAULTS,
      manage_system_domain_id: 'dp',
    });
  });

  it('refuses a partner domain that does not exist, and a taken code (CODE_EXISTS)', async () => {
    const s = setup({ domainExists: false });
    await expect(s.service.create(body)).rejects.toMatchObject({
      code: 'onboarding.INVALID',
      errors: { manage_system_domain_id: 'is not an existing system domain' },
    });
    expect(s.repo.insertReferralCode).not.toHaveBeenCalled();
    const t = setup();
    t.repo.insertReferralCode.mockRejectedValue(UNIQUE);
    await expect(t.service.create(body)).rejects.toMatchObject({ code: 'onboarding.CODE_EXISTS' });
  });

  it('never looks up a malformed code: it does not exist', async () => {
    const s = setup();
    await expect(s.service.get('no spaces!')).rejects.toMatchObject({ code: 'onboarding.CODE_NOT_FOUND' });
    expect(s.repo.referralCode).not.toHaveBeenCalled();
    await s.service.get('PARTNER-1');
    expect(s.repo.referralCode).toHaveBeenCalledWith(EM, 'partner-1', false);
  });

  it('deletes a code under its lock, unless it is marked do_not_delete', async () => {
    const s = setup();
    await s.service.remove('Partner-1');
    expect(s.repo.referralCode).toHaveBeenCalledWith(TX, 'partner-1', true);
    expect(s.repo.deleteReferralCode).toHaveBeenCalledWith(TX, 'partner-1');
    const kept = setup({ row: code({ do_not_delete: true }) });
    await expect(kept.service.remove('Partner-1')).rejects.toMatchObject({
      code: 'onboarding.CODE_PROTECTED',
    });
    expect(kept.repo.deleteReferralCode).not.toHaveBeenCalled();
    await expect(setup({ row: null }).service.remove('x-1')).rejects.toMatchObject({
      code: 'onboarding.CODE_NOT_FOUND',
    });
  });

  it('a code is valid until valid_to', () => {
    const s = setup();
    expect(s.service.isValid(code())).toBe(true);
    expect(s.service.isValid(code({ valid_to: NOW }))).toBe(false);
  });
});

describe('ReferralCodesService.createDomain', () => {
  const body = {
    name: 'Customer',
    country_code: 'FR',
    admin_email: 'ada@customer.test',
    admin_first_name: 'Ada',
    admin_password: GOOD,
  };

  it('an administrator of the code’s partner domain may use it: the password judged first, the domain made under the code’s lock', async () => {
    const s = setup();
    await expect(s.service.createDomain(caller(), 'Partner-1', body)).resolves.toEqual({ id: 'd-new' });
    expect(s.passwords.assert).toHaveBeenCalledWith(['tpl'], GOOD, {
      field: 'admin_password',
      personal: ['ada@customer.test', 'Ada', undefined, 'Customer'],
    });
    expect(s.repo.referralCode.mock.calls.map((c) => [c[0], c[2]])).toEqual([
      [EM, false],
      [TX, true],
    ]);
    const [em, spec, adminSpec, requestId] = s.newDomains.create.mock.calls[0];
    expect(em).toBe(TX);
    expect(spec).toMatchObject({ name: 'Customer', country: 'FR', code: { code_key: 'partner-1' } });
    expect(adminSpec).toMatchObject({ email: 'ada@customer.test', last_name: null });
    expect((adminSpec as { password_hash: string }).password_hash).toMatch(/^\$argon2id\$/);
    expect(requestId).toBe('r1');
  });

  it('anyone else gets the same CODE_FORBIDDEN whether or not the code exists', async () => {
    for (const [who, row] of [
      [caller({ isAdmin: false }), code()],
      [caller({ systemDomainId: 'other' }), code()],
      [caller(), code({ manage_system_domain_id: null })],
      [caller(), null],
    ] as const) {
      const s = setup({ row });
      await expect(s.service.createDomain(who, 'Partner-1', body)).rejects.toMatchObject({
        code: 'onboarding.CODE_FORBIDDEN',
      });
      expect(s.passwords.assert).not.toHaveBeenCalled();
    }
  });

  it('a super administrator may use any code; an unknown one is CODE_NOT_FOUND to them', async () => {
    const s = setup({ row: code({ manage_system_domain_id: null }) });
    await expect(
      s.service.createDomain(caller({ isSuperAdmin: true, isAdmin: false }), 'x-1', body),
    ).resolves.toBeTruthy();
    await expect(
      setup({ row: null }).service.createDomain(caller({ isSuperAdmin: true }), 'x-1', body),
    ).rejects.toMatchObject({ code: 'onboarding.CODE_NOT_FOUND' });
  });

  it('an expired code makes no domain', async () => {
    const s = setup({ row: code({ valid_to: NOW }) });
    await expect(s.service.createDomain(caller(), 'Partner-1', body)).rejects.toMatchObject({
      code: 'onboarding.CODE_EXPIRED',
    });
    expect(s.newDomains.create).not.toHaveBeenCalled();
  });
});
