import { createHash, X509Certificate } from 'node:crypto';
import type { IdpType } from '../../base/model/identity-provider.entity.js';

export const DIGEST_ALGORITHMS = [
  'http://www.w3.org/2000/09/xmldsig#sha1',
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
] as const;
export const SIGNATURE_ALGORITHMS = [
  'http://www.w3.org/2000/09/xmldsig#dsa-sha1',
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
] as const;

type Kind = 'string' | 'url' | 'bool' | 'cert' | 'fingerprint' | readonly string[];
interface FieldRule {
  kind: Kind;
  required?: boolean;
}

/** Fields every type takes (`domain_name` is read-only: filled from the bound email domains). */
const COMMON: Record<string, FieldRule> = {
  idp_x509cert: { kind: 'cert' },
  cert_fingerprint: { kind: 'fingerprint' },
  cert_fingerprint_algorithm: { kind: DIGEST_ALGORITHMS },
  digest_algorithm: { kind: DIGEST_ALGORITHMS },
  signature_algorithm: { kind: SIGNATURE_ALGORITHMS },
  // where the IdP is reached: required for GENERIC, optional for the vendor kinds (filled from their metadata)
  idp_entity_id: { kind: 'string' },
  idp_sso_post_url: { kind: 'url' },
  idp_sls_redirect_url: { kind: 'url' },
  want_assertions_signed: { kind: 'bool' },
  want_messages_signed: { kind: 'bool' },
  name_id_encrypted: { kind: 'bool' },
  // Portcullis' own switches (all default false)
  authn_requests_signed: { kind: 'bool' },
  allow_idp_initiated: { kind: 'bool' },
  jit_provisioning: { kind: 'bool' },
};

const BY_TYPE: Record<IdpType, Record<string, FieldRule>> = {
  VENDOR_A: {
    vendor_a_client_id: { kind: 'string', required: true },
    vendor_a_name: { kind: 'string', required: true },
  },
  VENDOR_B: {
    vendor_b_client_id: { kind: 'string', required: true },
    vendor_b_name: { kind: 'string', required: true },
    vendor_b_region: { kind: 'string', required: true },
  },
  VENDOR_C: {
    vendor_c_name: { kind: 'string', required: true },
    vendor_c_app_id: { kind: 'string' },
    vendor_c_sso: { kind: 'string' },
    vendor_c_preview: { kind: 'bool' },
  },
  GENERIC: {
    idp_entity_id: { kind: 'string', required: true },
    idp_sso_post_url: { kind: 'url', required: true },
    name: { kind: 'string', required: true },
  },
};

/** The settings of an identity provider after validation: known fields only, normalised. */
export type IdpSettings = Record<string, string | boolean | null>;

const FINGERPRINT_BYTES: Record<string, number> = {
  'http://www.w3.org/2000/09/xmldsig#sha1': 20,
  'http://www.w3.org/2001/04/xmlenc#sha256': 32,
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 48,
  'http://www.w3.org/2001/04/xmlenc#sha512': 64,
};
export const HASH_OF: Record<string, string> = {
  'http://www.w3.org/2000/09/xmldsig#sha1': 'sha1',
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 'sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};

/**
 * Validates `raw` as the settings of a `type` IdP: required fields present, strings bounded, URLs http(s),
 * algorithms from the spec's enums, the certificate a parsable X.509 certificate, the fingerprint hex of the
 * algorithm's length. Unknown fields (and the read-only `domain_name`) are dropped. Returns the settings, or
 * field errors keyed `settings.<field>`.
 */
export function validateSettings(
  type: IdpType,
  raw: unknown,
): { settings: IdpSettings } | { errors: Record<string, string> } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { errors: { settings: 'must be an object' } };
  }
  const input = raw as Record<string, unknown>;
  const rules = { ...COMMON, ...BY_TYPE[type] };
  const errors: Record<string, string> = {};
  const settings: IdpSettings = {};
  for (const [field, rule] of Object.entries(rules)) {
    const v = input[field];
    if (v === undefined || v === null || v === '') {
      if (rule.required) errors[`settings.${field}`] = 'is required';
      continue;
    }
    const problem = check(rule.kind, v);
    if (problem) errors[`settings.${field}`] = problem;
    else settings[field] = normalise(rule.kind, v as string | boolean);
  }
  const algorithm = (settings.cert_fingerprint_algorithm as string) ?? DIGEST_ALGORITHMS[0];
  if (typeof settings.cert_fingerprint === 'string') {
    const bytes = settings.cert_fingerprint.length / 2;
    if (bytes !== FINGERPRINT_BYTES[algorithm]) {
      errors['settings.cert_fingerprint'] =
        `must be the ${HASH_OF[algorithm]} fingerprint (${FINGERPRINT_BYTES[algorithm]} bytes in hex)`;
    }
  }
  if (
    type === 'GENERIC' &&
    !settings.idp_x509cert &&
    !settings.cert_fingerprint &&
    !errors['settings.idp_x509cert']
  ) {
    errors['settings.idp_x509cert'] = 'idp_x509cert or cert_fingerprint is required';
  }
  return Object.keys(errors).length ? { errors } : { settings };
}

function check(kind: Kind, v: unknown): string | null {
  if (Array.isArray(kind)) {
    return typeof v === 'string' && kind.includes(v) ? null : `must be one of ${kind.join(', ')}`;
  }
  if (kind === 'bool') return typeof v === 'boolean' ? null : 'must be true or false';
  if (typeof v !== 'string') return 'must be a string';
  if (kind === 'cert') {
    if (v.length > 16_000) return 'is too long';
    return parseCertificate(v) ? null : 'must be an X.509 certificate (PEM or base64 DER)';
  }
  if (v.length > 1000) return 'must be at most 1000 characters';
  if (kind === 'url') {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:' ? null : 'must be an http(s) URL';
    } catch {
      return 'must be an http(s) URL';
    }
  }
  if (kind === 'fingerprint') {
    return /^[0-9a-fA-F]{2}(:?[0-9a-fA-F]{2})*$/.test(v.trim()) ? null : 'must be hexadecimal';
  }
  return [...v].some((ch) => ch.charCodeAt(0) < 0x20) ? 'must not contain control characters' : null;
}

function normalise(kind: Kind, v: string | boolean): string | boolean {
  if (kind === 'fingerprint') return (v as string).replace(/:/g, '').trim().toLowerCase();
  if (kind === 'cert') return certificatePem(parseCertificate(v as string)!);
  return typeof v === 'string' ? v.trim() : v;
}

/** An X.509 certificate from PEM or bare base64 DER, or null. */
export function parseCertificate(text: string): X509Certificate | null {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/=]+$/.test(body)) return null;
  try {
    return new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    return null;
  }
}

export function certificatePem(cert: X509Certificate): string {
  return cert.toString().trim();
}

/** The fingerprint of a certificate under one of the spec's digest algorithms (lower-case hex). */
export function fingerprintOf(cert: X509Certificate, algorithm: string): string {
  return createHash(HASH_OF[algorithm] ?? 'sha1')
    .update(cert.raw)
    .digest('hex');
}

/** node-saml's names for the signature algorithms it signs AuthnRequests with. */
export function signingAlgorithm(settings: Record<string, unknown>): 'sha1' | 'sha256' | 'sha512' {
  const s = String(settings.signature_algorithm ?? '');
  if (s.endsWith('sha1')) return 'sha1';
  if (s.endsWith('sha512')) return 'sha512';
  return 'sha256';
}
