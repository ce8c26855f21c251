import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import type { BillingLimitsDto, SystemDomainBasicDto, SystemDomainDto } from './dto/system-domain.dto.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';

/** The full form (super administrators; a domain's administrators for their own). Never the MFA/password policy. */
export function systemDomainView(d: SystemDomainEntity, logoUrl: string | null): SystemDomainDto {
  return {
    id: d.id,
    name: d.name,
    base_url: d.base_url,
    description: d.description,
    status: d.status,
    type: d.type,
    billing_tier: d.billing_tier,
    billing_limits: (d.billing_limits as BillingLimitsDto | null) ?? null,
    industry: d.industry,
    is_plg: d.is_plg,
    disable_cc_purchase: d.disable_cc_purchase,
    has_preloaded_assets: d.has_preloaded_assets,
    contract_end_date: wireDateOrNull(d.contract_end_date),
    freeze_date: wireDateOrNull(d.freeze_date),
    deactivate_date: wireDateOrNull(d.deactivate_date),
    date_created: wireDate(d.date_created),
    date_modified: wireDate(d.date_modified),
    country: d.country,
    creating_user_id: d.creating_user_id,
    custom_terms: d.custom_terms,
    disable_billing_page: d.disable_billing_page,
    do_not_charge_edge_transcoder: d.do_not_charge_edge_transcoder,
    do_not_charge_remote_proxies: d.do_not_charge_remote_proxies,
    do_not_charge_shield: d.do_not_charge_shield,
    invoice_end_of_month: d.invoice_end_of_month,
    is_template: d.is_template,
    discount_percent: d.discount_percent === null ? null : Number(d.discount_percent),
    features: d.features ?? [],
    is_e2e: d.is_e2e ?? false,
    marketplace_customer_id: d.marketplace_customer_id,
    marketplace_entitlement_id: d.marketplace_entitlement_id,
    billing_customer_id: d.billing_customer_id,
    billing_subscription_id: d.billing_subscription_id,
    payments_id: d.payments_id,
    crm_id: d.crm_id,
    price_list: d.price_list,
    primary_region: d.primary_region,
    referral_code: d.referral_code,
    warning_message: d.warning_message,
    logo_url: logoUrl,
  };
}

/** The Basic form (any member); `admin` adds BasicAdmin's contract_end_date and freeze_date. */
export function systemDomainBasicView(d: SystemDomainEntity, admin: boolean): SystemDomainBasicDto {
  return {
    id: d.id,
    name: d.name,
    type: d.type,
    billing_tier: d.billing_tier,
    country: d.country,
    features: d.features ?? [],
    is_plg: d.is_plg,
    date_created: wireDate(d.date_created),
    ...(admin
      ? { contract_end_date: wireDateOrNull(d.contract_end_date), freeze_date: wireDateOrNull(d.freeze_date) }
      : {}),
  };
}
