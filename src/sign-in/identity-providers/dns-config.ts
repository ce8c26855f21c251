import { isIP } from 'node:net';
import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/**
 * The resolvers of domain verification (DNS_SERVERS): a comma-separated list of `address[:port]`, an IPv6
 * address with a port in brackets (`[::1]:53`). Node's resolver takes addresses only, never host names. Null:
 * the system's resolvers (/etc/resolv.conf).
 */
export function readDnsServers(value: string | null, problems: string[]): string[] | null {
  if (value === null) return null;
  const servers = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = servers.filter((s) => !validServer(s));
  if (servers.length === 0 || bad.length > 0) {
    problems.push(
      `DNS_SERVERS must be a comma-separated list of IP addresses with optional ports ` +
        `(e.g. 10.0.0.2,127.0.0.1:5353,[::1]:53)${bad.length ? `; not one: "${bad.join('", "')}"` : ''}`,
    );
    return null;
  }
  return servers;
}

function validServer(s: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s);
  if (bracketed) return isIP(bracketed[1]) === 6 && validPort(bracketed[2]);
  if (isIP(s) === 6) return true;
  const [address, port, ...rest] = s.split(':');
  return rest.length === 0 && isIP(address) === 4 && validPort(port);
}

function validPort(p: string | undefined): boolean {
  if (p === undefined) return true;
  const n = Number(p);
  return /^\d{1,5}$/.test(p) && n >= 1 && n <= 65535;
}

/**
 * Domain verification's TXT lookups (dns-txt.ts): the resolvers (DNS_SERVERS; null: the system's) and how
 * long one lookup may take in all (DNS_TIMEOUT_MS).
 */
export const DNS_CONFIG = configNamespace(
  'dns',
  (env, problems): { servers: string[] | null; timeoutMs: number } => {
    const { str, int } = envReader(env, problems);
    return {
      servers: readDnsServers(str('DNS_SERVERS'), problems),
      timeoutMs: int('DNS_TIMEOUT_MS', 5_000, 100, 60_000),
    };
  },
);
