import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { References } from './references.js';

/**
 * The spec's PasswordChecks: per-domain rules every new password must meet. Every field is optional (null:
 * no rule). Counts are of characters of the class; lengths count Unicode code points.
 */
export interface PasswordChecks {
  digits: number | null;
  lowercase: number | null;
  special_symbols: number | null;
  uppercase: number | null;
  min_length: number | null;
  max_length: number | null;
}

export const DOMAIN_STATUSES = ['ACTIVE', 'WARNING', 'FROZEN', 'DEACTIVATED'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
export const DOMAIN_TYPES = ['TRIAL', 'CUSTOMER', 'PARTNER', 'INTERNAL'] as const;
export type DomainType = (typeof DOMAIN_TYPES)[number];
export const BILLING_TIERS = [
  'PAYGO',
  'PRO',
  'ENTERPRISE',
  'ENTERPRISE_LEGACY_2025',
  'PRO_LEGACY_2025',
] as const;
export type BillingTier = (typeof BILLING_TIERS)[number];
export const INDUSTRIES = [
  'ADVERTISING_MARKETING_CREATIVE',
  'AUTOMOTIVE',
  'BROADCASTER_NETWORKS',
  'CONSTRUCTION_MANUFACTURING',
  'EDUCATION',
  'ENERGY_UTILITIES',
  'FAITH_RELIGIOUS_ORGS',
  'FINANCE',
  'GAME_STUDIOS_PUBLISHERS',
  'GOVERNMENT_PUBLIC_SECTOR',
  'HEALTHCARE',
  'HOSPITALITY_FITNESS_WELLNESS',
  'LIVE_PRODUCTION_EVENTS',
  'MEDIA_CONGLOMERATES',
  'NONPROFITS_NON_RELIGIOUS',
  'ONLINE_MEDIA',
  'PUBLISHERS_NEWSPAPERS',
  'TELECOMMUNICATIONS',
  'RETAIL_CONSUMER_GOODS',
  'SOFTWARE_TECHNOLOGY',
  'SPORTS_RIGHTS_LEAGUES',
  'STUDIOS_CONTENT_PRODUCERS',
  'OTHER',
] as const;
export type Industry = (typeof INDUSTRIES)[number];

export interface BillingLimits {
  ai_credits?: number | null;
  ai_object_detection_hours?: number | null;
  automation_tasks?: number | null;
  browse_users?: number | null;
  edge_transcoders?: number | null;
  egress_gb?: number | null;
  face_recognition_hours?: number | null;
  face_recognition_images?: number | null;
  image_recognition?: number | null;
  multiregion_storage_gb?: number | null;
  power_users?: number | null;
  proxy_storage_gb?: number | null;
  regional_storage_gb?: number | null;
  shield_enabled?: boolean | null;
  standard_users?: number | null;
  sync_session_max_clients?: number | null;
  transcription_hours?: number | null;
}

/** A tenant. Carries the spec's full field set; the admin endpoints that edit it come with their own issue. */
@Entity('system_domains')
export class SystemDomainEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) base_url!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'text', default: 'ACTIVE' }) status!: DomainStatus;
  @Column({ type: 'text', default: 'CUSTOMER' }) type!: DomainType;
  @Column({ type: 'text', nullable: true }) billing_tier!: BillingTier | null;
  @Column({ type: 'jsonb', nullable: true }) billing_limits!: BillingLimits | null;
  @Column({ type: 'text', nullable: true }) industry!: Industry | null;
  @Column({ type: 'boolean', default: false }) is_plg!: boolean;
  @Column({ type: 'boolean', default: false }) disable_cc_purchase!: boolean;
  @Column({ type: 'boolean', default: false }) has_preloaded_assets!: boolean;
  @Column({ type: 'timestamptz', nullable: true }) contract_end_date!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) freeze_date!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) deactivate_date!: Date | null;
  @Column({ type: 'text', nullable: true }) country!: string | null;
  @Column({ type: 'uuid', nullable: true }) creating_user_id!: string | null;
  @Column({ type: 'boolean', default: false }) custom_terms!: boolean;
  @Column({ type: 'boolean', default: false }) disable_billing_page!: boolean;
  @Column({ type: 'boolean', default: false }) do_not_charge_edge_transcoder!: boolean;
  @Column({ type: 'boolean', default: false }) do_not_charge_remote_proxies!: boolean;
  @Column({ type: 'boolean', default: false }) do_not_charge_shield!: boolean;
  @Column({ type: 'boolean', default: false }) invoice_end_of_month!: boolean;
  @Column({ type: 'boolean', default: false }) is_template!: boolean;
  @Column({ type: 'double precision', nullable: true }) discount_percent!: number | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) features!: string[];
  /** The parameters of features turned on with some (POST …/features/): feature name → its parameters. */
  @Column({ type: 'jsonb', default: () => "'{}'" }) feature_parameters!: Record<string, object>;
  /** Created as an end-to-end test domain (set at creation only): DELETE …/e2e/ removes only such domains. */
  @Column({ type: 'boolean', default: false }) is_e2e!: boolean;
  @Column({ type: 'text', nullable: true }) marketplace_customer_id!: string | null;
  @Column({ type: 'text', nullable: true }) marketplace_entitlement_id!: string | null;
  @Column({ type: 'text', nullable: true }) billing_customer_id!: string | null;
  @Column({ type: 'text', nullable: true }) billing_subscription_id!: string | null;
  @Column({ type: 'text', nullable: true }) payments_id!: string | null;
  @Column({ type: 'text', nullable: true }) crm_id!: string | null;
  @Column({ type: 'text', nullable: true }) price_list!: string | null;
  @Column({ type: 'text', nullable: true }) primary_region!: string | null;
  @Column({ type: 'text', nullable: true }) referral_code!: string | null;
  @Column({ type: 'text', nullable: true }) warning_message!: string | null;
  /** The spec's PasswordChecks, set by the domain's administrators (src/passwords); null: none. */
  @Column({ type: 'jsonb', nullable: true }) password_checks!: PasswordChecks | null;
  /** Second-factor policy: every member must pass a second factor, one of `mfa_methods`. */
  @Column({ type: 'boolean', default: false }) mfa_required!: boolean;
  @Column({ type: 'text', array: true, default: () => "'{TOTP,MAIL_2SV,WEBAUTHN}'" }) mfa_methods!: string[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/**
 * The columns a table of one domain's rows begins with: the row's id and its domain, whose foreign key
 * (ON DELETE CASCADE) takes the row with the domain, so that deleting a domain is one DELETE of its row.
 */
export abstract class DomainRow {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id') system_domain?: Relation<SystemDomainEntity>;
}
