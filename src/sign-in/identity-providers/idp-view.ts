import type { BaseConfig } from '../../base/config/config.js';
import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import type { DomainBindingDto, IdentityProviderDto, SamlSettingsDto } from './dto/identity-provider.dto.js';
import type {
  IdentityProviderDomainEntity,
  IdentityProviderEntity,
} from '../../base/model/identity-provider.entity.js';

export const SAML_BASE = '/API/auth/v1/auth/saml';
export const NAME_ID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** The SP's own URLs for one IdP (entity id = the metadata URL, as most IdPs expect). */
export function spUrls(config: BaseConfig, publicId: string) {
  const base = config.http.publicBaseUrl.replace(/\/$/, '');
  return {
    entityId: `${base}${SAML_BASE}/metadata/${publicId}/`,
    acs: `${base}${SAML_BASE}/acs/${publicId}/`,
    metadata: `${base}${SAML_BASE}/metadata/${publicId}/`,
    sso: `${base}${SAML_BASE}/sso/${publicId}/`,
    slo: `${base}${SAML_BASE}/slo/${publicId}/`,
  };
}

export function samlSettings(config: BaseConfig, idp: IdentityProviderEntity): SamlSettingsDto {
  const u = spUrls(config, idp.public_id);
  return {
    sp_entity_id: u.entityId,
    acs_url: u.acs,
    metadata_url: u.metadata,
    name_id_format: NAME_ID_EMAIL,
    sso_url: u.sso,
    sp_certificate: idp.sp_certificate,
  };
}

/** The DNS record that proves a binding (docs/saml.md, Domain verification). */
export const CHALLENGE_PREFIX = '_portcullis-challenge.';
export const CHALLENGE_VALUE = 'portcullis-domain-verification=';

export function bindingView(b: IdentityProviderDomainEntity): DomainBindingDto {
  return {
    domain: b.domain,
    identity_provider_id: b.identity_provider_id,
    directory_id: b.directory_id,
    oidc_provider_id: b.oidc_provider_id,
    system_domain_id: b.system_domain_id,
    verified: b.verified_at !== null,
    verified_at: wireDateOrNull(b.verified_at),
    verification: b.verified_at
      ? null
      : {
          type: 'TXT',
          name: `${CHALLENGE_PREFIX}${b.domain}`,
          value: `${CHALLENGE_VALUE}${b.challenge_token}`,
        },
  };
}

export function idpView(
  config: BaseConfig,
  idp: IdentityProviderEntity,
  bindings: IdentityProviderDomainEntity[],
): IdentityProviderDto {
  const domains = bindings.map((b) => b.domain);
  return {
    id: idp.id,
    public_id: idp.public_id,
    system_domain_id: idp.system_domain_id,
    type: idp.type,
    settings: { ...idp.settings, domain_name: domains[0] ?? null },
    saml_settings: samlSettings(config, idp),
    verbose_logging: idp.verbose_logging,
    enabled: idp.enabled,
    domains,
    domain_bindings: bindings.map(bindingView),
    date_created: wireDate(idp.date_created),
    date_modified: wireDate(idp.date_modified),
  };
}
