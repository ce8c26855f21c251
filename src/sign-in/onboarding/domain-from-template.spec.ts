import type { EntityManager } from 'typeorm';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { SystemDomainsService } from '../../accounts/system-domains/system-domains.service.js';
import { COUNTRIES } from './countries.js';
import { domainFromTemplate, TEMPLATE_FIELDS } from './domain-from-template.js';
import type { ReferralCodeEntity } from '../../base/model/referral-code.entity.js';

/** What SystemDomainsService.create was asked for. */
function capture() {
  const calls: Partial<SystemDomainEntity>[] = [];
  const domains = {
    create: (_em: EntityManager, fields: Partial<SystemDomainEntity>) => {
      calls.push(fields);
      return Promise.resolve(fields as SystemDomainEntity);
    },
  } as unknown as SystemDomainsService;
  return { calls, domains, em: {} as EntityManager };
}

const template = {
  id: 'template-id',
  name: 'Template',
  base_url: 'https://template.example',
  is_template: true,
  status: 'WARNING',
  type: 'PARTNER',
  billing_tier: 'PRO',
  billing_limits: { standard_users: 3 },
  features: ['x'],
  is_plg: false,
  password_checks: { min_length: 12 },
  mfa_required: true,
  mfa_methods: ['TOTP'],
  description: 'template description',
  price_list: 'pl',
  primary_region: 'eu',
  freeze_date: new Date('2030-01-01T00:00:00Z'),
  deactivate_date: new Date('2031-01-01T00:00:00Z'),
  marketplace_customer_id: 'mkt',
  billing_customer_id: 'cus_template',
  crm_id: 'crm_template',
} as unknown as SystemDomainEntity;

const code = {
  code: 'Spring-27',
  billing_tier: 'ENTERPRISE',
  is_plg: true,
  freeze_date: new Date('2029-01-01T00:00:00Z'),
  billing_customer_id: null,
  crm_id: 'crm_code',
} as unknown as ReferralCodeEntity;

describe('domainFromTemplate', () => {
  const base = { name: 'New', baseUrl: 'https://auth.example', country: 'DE' };

  it('copies the template’s settings, never its identity, status dates or ids', async () => {
    const { calls, domains, em } = capture();
    await domainFromTemplate(em, domains, template, { ...base, code: null });
    const f = calls[0];
    for (const k of TEMPLATE_FIELDS) expect(f[k]).toEqual(template[k]);
    expect(f).toMatchObject({
      name: 'New',
      base_url: 'https://auth.example',
      country: 'DE',
      status: 'ACTIVE',
    });
    expect(f.is_template).toBe(false);
    for (const k of [
      'id',
      'freeze_date',
      'deactivate_date',
      'marketplace_customer_id',
      'crm_id',
      'referral_code',
    ])
      expect(f[k as keyof SystemDomainEntity] ?? null).toBeNull();
    expect(f.billing_customer_id).toBeNull();
  });

  it('the code wins over the template, the template over the request (but for description)', async () => {
    const { calls, domains, em } = capture();
    await domainFromTemplate(em, domains, template, {
      ...base,
      code,
      description: 'mine',
      billingTier: 'PAYGO',
      billing: { billing_customer_id: 'cus_req', payments_id: 'pay' },
    });
    expect(calls[0]).toMatchObject({
      billing_tier: 'ENTERPRISE',
      is_plg: true,
      freeze_date: code.freeze_date,
      crm_id: 'crm_code',
      referral_code: 'Spring-27',
      description: 'mine',
      billing_customer_id: 'cus_req',
      payments_id: 'pay',
    });
  });

  it('without a template: TRIAL, and the request’s tier', async () => {
    const { calls, domains, em } = capture();
    await domainFromTemplate(em, domains, null, { ...base, code: null, billingTier: 'PAYGO' });
    expect(calls[0]).toMatchObject({ type: 'TRIAL', billing_tier: 'PAYGO', status: 'ACTIVE' });
  });
});

describe('COUNTRIES', () => {
  it('is the ISO 3166-1 data: unique codes of the right shapes, sorted by name', () => {
    expect(new Set(COUNTRIES.map((c) => c.alpha2)).size).toBe(COUNTRIES.length);
    for (const c of COUNTRIES) {
      expect(c.alpha2).toMatch(/^[A-Z]{2}$/);
      expect(c.alpha3).toMatch(/^[A-Z]{3}$/);
      expect(c.numeric).toMatch(/^\d{3}$/);
      expect(c.name.length).toBeGreaterThan(0);
      expect(c.apolitical_name.length).toBeGreaterThan(0);
    }
    const names = COUNTRIES.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });
});
