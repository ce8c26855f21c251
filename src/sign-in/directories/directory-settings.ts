import { X509Certificate } from 'node:crypto';
import type { DirectoryType } from '../../base/model/federation.entity.js';
import { literalHostProblem } from '../federation/network-guard.js';

/** The attributes a directory names a person's parts in. */
export interface DirectoryAttributes {
  email: string;
  first_name: string;
  last_name: string;
  groups: string;
}

/** What a domain administrator set for a directory (the service account's password is stored apart, sealed). */
export interface DirectorySettings {
  url: string;
  start_tls: boolean;
  bind_dn: string | null;
  base_dn: string;
  /** An LDAP filter with `{email}` and/or `{username}` (the part before the @), each value escaped (RFC 4515). */
  user_filter: string;
  attributes: DirectoryAttributes;
  ca_certificate: string | null;
  connect_timeout_ms: number;
  timeout_ms: number;
  jit_provisioning: boolean;
}

/** Each type's defaults: OpenLDAP's inetOrgPerson, and Active Directory's user (userPrincipalName sign-in). */
export const DIRECTORY_DEFAULTS: Record<
  DirectoryType,
  { user_filter: string; attributes: DirectoryAttributes }
> = {
  LDAP: {
    user_filter: '(&(objectClass=inetOrgPerson)(mail={email}))',
    attributes: { email: 'mail', first_name: 'givenName', last_name: 'sn', groups: 'memberOf' },
  },
  ACTIVE_DIRECTORY: {
    user_filter: '(&(objectClass=user)(userPrincipalName={email}))',
    attributes: { email: 'mail', first_name: 'givenName', last_name: 'sn', groups: 'memberOf' },
  },
};

const KNOWN = new Set([
  'url',
  'start_tls',
  'bind_dn',
  'bind_password',
  'base_dn',
  'user_filter',
  'attributes',
  'ca_certificate',
  'connect_timeout_ms',
  'timeout_ms',
  'jit_provisioning',
]);
const ATTRIBUTE = /^[A-Za-z][A-Za-z0-9-]{0,63}$|^[0-9]+(\.[0-9]+)+$/;

/**
 * The settings of a `type` directory from what an administrator sent (merged over the stored ones by the
 * caller), judged as a whole: the settings, or the problems per field. `bind_password` is not a setting (the
 * service seals it apart) and is ignored here.
 */
export function validateDirectorySettings(
  type: DirectoryType,
  raw: unknown,
  allowPrivate: boolean,
): { settings: DirectorySettings } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { errors: { settings: 'must be an object' } };
  const s = raw as Record<string, unknown>;
  for (const k of Object.keys(s)) if (!KNOWN.has(k)) errors[`settings.${k}`] = 'is not a directory setting';
  const str = (k: string, max: number): string | null => {
    const v = s[k];
    if (v === undefined || v === null || v === '') return null;
    if (typeof v !== 'string' || v.length > max) {
      errors[`settings.${k}`] = `must be text of at most ${max} characters`;
      return null;
    }
    return v.trim();
  };
  const bool = (k: string, dflt: boolean): boolean => {
    if (s[k] === undefined || s[k] === null) return dflt;
    if (typeof s[k] !== 'boolean') errors[`settings.${k}`] = 'must be true or false';
    return s[k] === true;
  };
  const int = (k: string, dflt: number, min: number, max: number): number => {
    const v = s[k];
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      errors[`settings.${k}`] = `must be an integer from ${min} to ${max}`;
      return dflt;
    }
    return v;
  };

  const url = str('url', 500);
  if (!url) errors['settings.url'] = 'is required: ldap://host[:port] or ldaps://host[:port]';
  else {
    const problem = urlProblem(url, allowPrivate);
    if (problem) errors['settings.url'] = problem;
  }
  const startTls = bool('start_tls', false);
  if (startTls && url?.toLowerCase().startsWith('ldaps:'))
    errors['settings.start_tls'] = 'applies to ldap:// only (ldaps:// is TLS from the start)';
  const baseDn = str('base_dn', 500);
  if (!baseDn) errors['settings.base_dn'] = 'is required (e.g. dc=example,dc=com)';
  else if (!/^[^=,]+=[^,]+(,[^=,]+=[^,]+)*$/.test(baseDn.replace(/\\,/g, '')))
    errors['settings.base_dn'] = 'must be a distinguished name (e.g. ou=people,dc=example,dc=com)';
  const bindDn = str('bind_dn', 500);
  const filter = str('user_filter', 1000) ?? DIRECTORY_DEFAULTS[type].user_filter;
  const filterProblem = userFilterProblem(filter);
  if (filterProblem) errors['settings.user_filter'] = filterProblem;

  const attributes = { ...DIRECTORY_DEFAULTS[type].attributes };
  if (s.attributes !== undefined && s.attributes !== null) {
    if (typeof s.attributes !== 'object' || Array.isArray(s.attributes)) {
      errors['settings.attributes'] = 'must be an object of attribute names';
    } else {
      for (const [k, v] of Object.entries(s.attributes as Record<string, unknown>)) {
        if (!(k in attributes)) errors[`settings.attributes.${k}`] = 'is not a mapped attribute';
        else if (typeof v !== 'string' || !ATTRIBUTE.test(v))
          errors[`settings.attributes.${k}`] = 'must be an LDAP attribute name';
        else attributes[k as keyof DirectoryAttributes] = v;
      }
    }
  }
  const ca = str('ca_certificate', 20_000);
  if (ca) {
    try {
      new X509Certificate(ca);
    } catch {
      errors['settings.ca_certificate'] = 'must be a PEM certificate';
    }
  }
  const settings: DirectorySettings = {
    url: url ?? '',
    start_tls: startTls,
    bind_dn: bindDn,
    base_dn: baseDn ?? '',
    user_filter: filter,
    attributes,
    ca_certificate: ca,
    connect_timeout_ms: int('connect_timeout_ms', 5_000, 100, 30_000),
    timeout_ms: int('timeout_ms', 10_000, 100, 60_000),
    jit_provisioning: bool('jit_provisioning', false),
  };
  return Object.keys(errors).length ? { errors } : { settings };
}

function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'must be ldap://host[:port] or ldaps://host[:port]';
  }
  if (u.protocol !== 'ldap:' && u.protocol !== 'ldaps:') return 'must use ldap:// or ldaps://';
  if (!u.hostname) return 'must name a host';
  if (u.username || u.password) return 'must not carry credentials (use bind_dn and bind_password)';
  if ((u.pathname && u.pathname !== '/') || u.search || u.hash)
    return 'must be the server only (scheme, host and port): the base DN is a setting of its own';
  return literalHostProblem(u.hostname, allowPrivate);
}

/** Why a user filter template is unusable (null: usable). */
function userFilterProblem(filter: string): string | null {
  if (!/\{(email|username)\}/.test(filter)) return 'must contain {email} or {username}';
  if (!filter.startsWith('(') || !filter.endsWith(')')) return 'must be an LDAP filter in parentheses';
  let depth = 0;
  for (const c of filter.replace(/\\[0-9a-fA-F]{2}/g, '')) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return 'has unbalanced parentheses';
  }
  if (depth !== 0) return 'has unbalanced parentheses';
  if (/\{(?!email\}|username\})[^}]*\}/.test(filter))
    return 'knows only the placeholders {email} and {username}';
  return null;
}
