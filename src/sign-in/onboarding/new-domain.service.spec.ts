import { jest } from '@jest/globals';
import type { BaseConfig } from '../../base/config/config.js';
import type { ReferralCodeEntity } from '../../base/model/referral-code.entity.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import type { SystemDomainsService } from '../../accounts/system-domains/system-domains.service.js';
import type { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { NewDomainService } from './new-domain.service.js';
import type { OnboardingRepository } from './onboarding.repository.js';
import type { RegistrationConfig } from './registration-config.js';
import { uniqueViolation } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';

const UNIQUE = uniqueViolation();
const config = { http: { publicBaseUrl: 'https://auth.example.test' } } as unknown as BaseConfig;
const admin = { email: 'ada@corp.test', first_name: 'Ada', last_name: null, password_hash: '$argon2id$x' };

function setup(
  o: { exists?: boolean; template?: SystemDomainEntity | null; templateId?: string | null } = {},
) {
  const order: string[] = [];
  const repo = {
    accountExists: jest.fn(async (_em: unknown, _email: string) => o.exists ?? false),
    template: jest.fn(async (_em: unknown, _id: string | null) => o.template ?? null),
    insertAccount: jest.fn(async (_em: unknown, _a: Record<string, unknown>) => {
      order.push('account');
      return 'u-new';
    }),
    makeFirstAdmin: jest.fn(async (_em: unknown, id: string, _d: string) => {
      order.push('admin');
      return {
        id,
        email: 'ada@corp.test',
        first_name: 'Ada',
        last_name: null,
        status: 'ACTIVE',
        type: 'STANDARD',
        is_super_admin: false,
        date_created: NOW,
        date_modified: NOW,
        last_login: null,
      } as unknown as UserEntity;
    }),
  };
  const domains = {
    create: jest.fn(async (_em: unknown, f: Partial<SystemDomainEntity>) => {
      order.push('domain');
      return { ...f, id: 'd-new', date_created: NOW, date_modified: NOW } as SystemDomainEntity;
    }),
  };
  const events = {
    record: jest.fn(async (_em: unknown, e: { systemDomainId: string; realm: string; data: object }) => {
      order.push(`event:${e.realm}:${e.systemDomainId}`);
    }),
  };
  const service = new NewDomainService(
    config,
    { enabled: true, templateDomainId: o.templateId ?? null, ttlSeconds: 60 } as RegistrationConfig,
    domains as unknown as SystemDomainsService,
    events as unknown as WebhookEventsService,
    repo as unknown as OnboardingRepository,
  );
  return { service, repo, domains, events, order };
}

const domainSpec = { name: 'Corp', country: 'FR', code: null };

describe('NewDomainService.create', () => {
  it('refuses an email that has an account, before creating anything', async () => {
    const s = setup({ exists: true });
    await expect(s.service.create(EM as never, domainSpec, admin, null)).rejects.toMatchObject({
      code: 'onboarding.ACCOUNT_EXISTS',
    });
    expect(s.repo.accountExists).toHaveBeenCalledWith(EM, 'ada@corp.test');
    expect(s.domains.create).not.toHaveBeenCalled();
  });

  it('makes the domain from the configured template at the service’s address, then its administrator', async () => {
    const template = {
      id: 'tpl',
      is_template: true,
      billing_tier: 'PRO',
      mfa_required: true,
    } as SystemDomainEntity;
    const s = setup({ template, templateId: 'tpl' });
    const { domain, user, view } = await s.service.create(EM as never, domainSpec, admin, 'req1');
    expect(s.repo.template).toHaveBeenCalledWith(EM, 'tpl');
    expect(s.domains.create.mock.calls[0][1]).toMatchObject({
      name: 'Corp',
      base_url: 'https://auth.example.test',
      country: 'FR',
      status: 'ACTIVE',
      is_template: false,
      mfa_required: true,
    });
    expect(s.repo.insertAccount.mock.calls[0][1]).toEqual({
      email: 'ada@corp.test',
      first_name: 'Ada',
      last_name: null,
      password_hash: '$argon2id$x',
      status: 'ACTIVE',
      is_super_admin: false,
      system_domain_id: 'd-new',
      last_login: null,
    });
    expect(s.repo.makeFirstAdmin).toHaveBeenCalledWith(EM, 'u-new', 'd-new');
    expect(domain.creating_user_id).toBe('u-new');
    expect(user.id).toBe('u-new');
    expect(view).toMatchObject({ id: 'd-new', admin_id: 'u-new', admin_email: 'ada@corp.test' });
  });

  it('answers ACCOUNT_EXISTS when a concurrent twin took the email (unique index)', async () => {
    const s = setup();
    s.repo.insertAccount.mockRejectedValue(UNIQUE);
    await expect(s.service.create(EM as never, domainSpec, admin, null)).rejects.toMatchObject({
      code: 'onboarding.ACCOUNT_EXISTS',
    });
    expect(s.repo.makeFirstAdmin).not.toHaveBeenCalled();
  });

  it('records the domain’s and the user’s creation; a partner hears of domains made with its code', async () => {
    const s = setup();
    const code = { code: 'P1', manage_system_domain_id: 'partner' } as ReferralCodeEntity;
    await s.service.create(EM as never, { ...domainSpec, code }, admin, 'req1');
    expect(s.order).toEqual([
      'domain',
      'account',
      'admin',
      'event:system_domain:d-new',
      'event:system_domain:partner',
      'event:user:d-new',
    ]);
    expect(s.events.record.mock.calls[2][1].data).toMatchObject({ id: 'u-new', is_admin: true });
  });

  it('no partner event without a partner code', async () => {
    const s = setup();
    await s.service.create(EM as never, domainSpec, admin, null);
    expect(s.order.filter((e) => e.startsWith('event:'))).toEqual([
      'event:system_domain:d-new',
      'event:user:d-new',
    ]);
  });
});

describe('NewDomainService.passwordDomains', () => {
  it('the template’s checks judge a new domain’s first password; no template, none', async () => {
    await expect(
      setup({ template: { id: 'tpl' } as SystemDomainEntity }).service.passwordDomains(EM as never),
    ).resolves.toEqual(['tpl']);
    await expect(setup().service.passwordDomains(EM as never)).resolves.toEqual([]);
  });
});
