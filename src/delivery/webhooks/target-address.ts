import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF rule of webhook targets. Only global unicast addresses are reachable: ipaddr.js names the
 * range of an address, and anything but `unicast` is refused — private (10/8, 172.16/12, 192.168/16),
 * loopback, link-local (169.254/16 with the cloud metadata address, fe80::/10), carrier-grade NAT
 * (100.64/10), multicast, unspecified, broadcast, reserved and documentation ranges, IPv6 unique-local
 * (fc00::/7) and every IPv6 form that embeds an IPv4 address (IPv4-compatible ::/96 and the rest of the
 * reserved ::/8, mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48,
 * 6to4 2002::/16, Teredo), whatever IPv4 address it embeds: each could otherwise reach an internal IPv4 host.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  // ::/8 is reserved (RFC 4291), and ipaddr.js calls part of it unicast: the IPv4-compatible form ::/96
  // (`[::169.254.169.254]`, which URL parsing writes `[::a9fe:a9fe]`) and its neighbours embed an IPv4
  // address that a dual-stack host may reach as that IPv4 address
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts[0] < 0x100) return false;
  return parsed.range() === 'unicast';
}

/** Why a webhook url cannot be registered (null: it can). Names are checked when delivering, not here. */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not carry credentials (use headers)';
  if (!url.hostname) return 'must name a host';
  const host = hostOf(url);
  if (!allowPrivate && isIP(host) && !isPublicAddress(host)) {
    return 'must not target a private, loopback, link-local or otherwise non-public address';
  }
  return null;
}

/** The URL's host as DNS or an IP literal sees it (IPv6 without its brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address (WEBHOOK_ALLOW_PRIVATE is off)`);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net/http that resolves the name, refuses it when ANY of its addresses is not public, and
 * hands the socket exactly the addresses it checked: the connection goes to a checked address, so a name
 * that answers differently on a second query (DNS rebinding) cannot slip through.
 */
export function guardedLookup(
  hostname: string,
  options: { family?: number; hints?: number; all?: boolean },
  callback: LookupCallback,
): void {
  const opts: LookupAllOptions = { all: true, family: options.family, hints: options.hints };
  dnsLookup(hostname, opts, (err, addresses) => {
    if (err) return callback(err, []);
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), []);
    if (addresses.length === 0)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
}
