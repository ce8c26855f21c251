import * as net from 'node:net';
import * as tls from 'node:tls';
import {
  Client,
  type Entry,
  InvalidCredentialsError,
  NoSuchObjectError,
  SizeLimitExceededError,
} from 'ldapts';
import { guardedLookup } from '../../delivery/webhooks/target-address.js';
import type { DirectorySettings } from './directory-settings.js';

/** The directory did not answer (connection, TLS, timeout) or the service account could not bind. */
export class DirectoryUnavailable extends Error {}

/** A person's entry as the directory gave it, read through the directory's attribute mapping. */
export interface DirectoryPerson {
  dn: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  /** The group DNs (memberOf) and each one's first RDN value (the group's CN), for the group mappings. */
  groups: string[];
  /** Active Directory's userAccountControl has ACCOUNTDISABLE (0x2). */
  disabled: boolean;
}

/** Where and how to reach a directory: its settings, the service account's password, the SSRF rule. */
export interface DirectoryConnection {
  settings: DirectorySettings;
  bindPassword: string | null;
  allowPrivate: boolean;
}

const ACCOUNTDISABLE = 0x2;

/**
 * RFC 4515 escaping of a value put into a filter: `*`, `(`, `)`, `\` and NUL become `\2a`, `\28`, `\29`,
 * `\5c`, `\00`, so a value is always one value (`*)(uid=*` matches a person of that odd name, nobody else).
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The user filter with the person's identity put in: `{email}` the whole address, `{username}` its local part. */
export function userFilter(template: string, email: string): string {
  const username = email.slice(0, Math.max(email.lastIndexOf('@'), 0)) || email;
  // one pass: a value put in is never read again for a placeholder (an address may contain "{username}")
  return template.replace(/\{(email|username)\}/g, (_, k: string) =>
    escapeFilterValue(k === 'email' ? email : username),
  );
}

/**
 * One short-lived LDAP connection (ldapts) per sign-in: over ldaps://, or ldap:// upgraded with StartTLS when
 * set, verifying the server against the directory's CA certificate (else the system's). Connect and operation
 * timeouts are the directory's; without FEDERATION_ALLOW_PRIVATE every connection resolves its host through
 * the SSRF rule (guardedLookup: each address must be public, and the socket goes to a checked one).
 */
export async function withDirectory<T>(
  c: DirectoryConnection,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const s = c.settings;
  const tlsOptions: tls.ConnectionOptions = {
    ...(s.ca_certificate ? { ca: [s.ca_certificate] } : {}),
    servername: net.isIP(new URL(s.url).hostname) ? undefined : new URL(s.url).hostname,
    minVersion: 'TLSv1.2',
  };
  const lookup = c.allowPrivate ? undefined : (guardedLookup as unknown as net.LookupFunction);
  const client = new Client({
    url: s.url,
    connectTimeout: s.connect_timeout_ms,
    timeout: s.timeout_ms,
    // ldapts speaks TLS from the first byte whenever it is given tlsOptions, also on ldap://: StartTLS gets
    // them at the upgrade only
    ...(s.url.toLowerCase().startsWith('ldaps:') ? { tlsOptions } : {}),
    strictDN: true,
    ...(lookup
      ? {
          createConnection: ((opts: net.NetConnectOpts) =>
            net.connect({ ...opts, lookup })) as typeof net.connect,
          createSecureConnection: ((opts: tls.ConnectionOptions) =>
            tls.connect({ ...opts, lookup })) as typeof tls.connect,
        }
      : {}),
  });
  try {
    if (s.start_tls) await unavailableOnError(() => client.startTLS(tlsOptions), 'StartTLS failed');
    return await work(client);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** Binds as the service account (or stays anonymous without one). */
export async function bindService(client: Client, c: DirectoryConnection): Promise<void> {
  if (!c.settings.bind_dn) return;
  await unavailableOnError(
    () => client.bind(c.settings.bind_dn!, c.bindPassword ?? ''),
    'the service account could not bind',
  );
}

/**
 * The entries the user filter finds for `email` under the base DN, with the mapped attributes. At most two
 * are asked for: more than one is ambiguous (`'ambiguous'`, which the caller refuses).
 */
export async function findPeople(
  client: Client,
  s: DirectorySettings,
  email: string,
): Promise<DirectoryPerson[] | 'ambiguous'> {
  const a = s.attributes;
  try {
    const { searchEntries } = await client.search(s.base_dn, {
      scope: 'sub',
      filter: userFilter(s.user_filter, email),
      attributes: [a.email, a.first_name, a.last_name, a.groups, 'userAccountControl', 'userPrincipalName'],
      sizeLimit: 2,
      timeLimit: Math.ceil(s.timeout_ms / 1000),
    });
    return searchEntries.length > 1 ? 'ambiguous' : searchEntries.map((e) => person(e, s));
  } catch (e) {
    if (e instanceof SizeLimitExceededError) return 'ambiguous';
    if (e instanceof NoSuchObjectError) return [];
    throw new DirectoryUnavailable(`the search failed: ${(e as Error).message}`);
  }
}

/** Whether the person's own DN and password bind (a wrong password: false; anything else: unavailable). */
export async function passwordBinds(client: Client, dn: string, password: string): Promise<boolean> {
  // an empty password would be an unauthenticated bind (RFC 4513 §5.1.2), which servers accept: never sent
  if (!password) return false;
  try {
    await client.bind(dn, password);
    return true;
  } catch (e) {
    if (e instanceof InvalidCredentialsError) return false;
    throw new DirectoryUnavailable(`the user bind failed: ${(e as Error).message}`);
  }
}

function person(e: Entry, s: DirectorySettings): DirectoryPerson {
  const a = s.attributes;
  // an attribute's values as text, its name matched without case (servers answer in their own spelling)
  const all = (name: string): string[] => {
    const v = e[name] ?? e[Object.keys(e).find((k) => k.toLowerCase() === name.toLowerCase()) ?? ''];
    const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
    return list.map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : String(x)));
  };
  const first = (name: string): string | null => all(name)[0]?.trim().slice(0, 254) || null;
  const groups = all(a.groups).slice(0, 500);
  const cns = groups.map((dn) => /^[^=]+=((?:\\.|[^,])*)/.exec(dn)?.[1]?.replace(/\\(.)/g, '$1') ?? '');
  const uac = Number(first('userAccountControl') ?? '0');
  const email = first(a.email) ?? (s.attributes.email === 'mail' ? first('userPrincipalName') : null);
  return {
    dn: e.dn,
    email: email?.toLowerCase() ?? null,
    firstName: first(a.first_name),
    lastName: first(a.last_name),
    groups: [...new Set([...groups, ...cns.filter(Boolean)])],
    disabled: Number.isInteger(uac) && (uac & ACCOUNTDISABLE) !== 0,
  };
}

async function unavailableOnError<T>(op: () => Promise<T>, what: string): Promise<T> {
  try {
    return await op();
  } catch (e) {
    throw new DirectoryUnavailable(`${what}: ${(e as Error).message}`);
  }
}
