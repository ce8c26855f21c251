import type { EntityManager } from 'typeorm';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { SystemDomainsService } from '../../accounts/system-domains/system-domains.service.js';
import type { ReferralCodeEntity } from '../../base/model/referral-code.entity.js';

/**
 * What a new domain takes from its template: its kind, billing and feature settings, and its security
 * policies. Never the template's identity (id, name, base_url, is_template), status dates, logo, or its
 * marketplace and billing ids.
 */
export const TEMPLATE_FIELDS = [
  'type',
  'billing_tier',
  'billing_limits',
  'features',
  'is_plg',
  'password_checks',
  'mfa_required',
  'mfa_methods',
  'description',
  'price_list',
  'primary_region',
] as const satisfies readonly (keyof SystemDomainEntity)[];

export interface NewDomain {
  name: string;
  baseUrl: string;
  country: string;
  /** The code's effects apply (tier, PLG, freeze date, billing and CRM ids) and the domain records it. */
  code: ReferralCodeEntity | null;
  /** What the request itself asked for, used where neither the code nor the template decide. */
  description?: string | null;
  billingTier?: SystemDomainEntity['billing_tier'];
  billing?: Pick<
    Partial<SystemDomainEntity>,
    'billing_customer_id' | 'billing_subscription_id' | 'payments_id'
  >;
}

/**
 * A new ACTIVE domain copied from `template` (TRIAL with the defaults when there is none), through
 * SystemDomainsService.create (which also creates its built-in sign-in app). Precedence: the referral code's
 * settings over the template's, the template's over the request's, except `description` (the request's
 * when given). Billing ids: the code's, else the request's.
 */
export async function domainFromTemplate(
  em: EntityManager,
  domains: SystemDomainsService,
  template: SystemDomainEntity | null,
  o: NewDomain,
): Promise<SystemDomainEntity> {
  const fields: Partial<SystemDomainEntity> = { type: 'TRIAL' };
  if (template) for (const f of TEMPLATE_FIELDS) Object.assign(fields, { [f]: template[f] });
  if (o.description !== undefined && o.description !== null) fields.description = o.description;
  if (o.billingTier && !fields.billing_tier) fields.billing_tier = o.billingTier;
  fields.billing_customer_id = o.billing?.billing_customer_id ?? null;
  fields.billing_subscription_id = o.billing?.billing_subscription_id ?? null;
  fields.payments_id = o.billing?.payments_id ?? null;
  const code = o.code;
  if (code) {
    if (code.billing_tier !== null) fields.billing_tier = code.billing_tier;
    if (code.is_plg !== null) fields.is_plg = code.is_plg;
    if (code.freeze_date !== null) fields.freeze_date = code.freeze_date;
    if (code.billing_customer_id !== null) fields.billing_customer_id = code.billing_customer_id;
    if (code.crm_id !== null) fields.crm_id = code.crm_id;
    fields.referral_code = code.code;
  }
  return domains.create(em, {
    ...fields,
    name: o.name,
    base_url: o.baseUrl,
    country: o.country,
    status: 'ACTIVE',
    is_template: false,
  });
}
