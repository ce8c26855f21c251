import ipaddr from 'ipaddr.js';

/**
 * Which hops in front of the service may set `X-Forwarded-For` (Express's `trust proxy`): false (none), a
 * number of hops, or the proxies' addresses. Never every hop: then the client's own first entry becomes
 * `req.ip`, and every per-address budget is the client's to choose.
 */
export type TrustProxy = false | number | string[];

/** The names Express (proxy-addr) understands in place of addresses. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

const FIX =
  'set the number of proxies in front of the service (e.g. TRUST_PROXY=1) or their addresses ' +
  '(e.g. TRUST_PROXY=10.0.0.0/8,loopback)';

export function readTrustProxy(value: string | null, problems: string[]): TrustProxy {
  if (value === null) return false;
  const v = value.toLowerCase();
  if (['false', 'no', '0'].includes(v)) return false;
  if (['true', 'yes'].includes(v)) {
    problems.push(
      `TRUST_PROXY=${value} would trust every hop, so any client could choose its address: ${FIX}`,
    );
    return false;
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 32) problems.push(`TRUST_PROXY must be a hop count from 0 to 32 (got "${value}")`);
    return hops;
  }
  const entries = v.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !NAMED_RANGES.includes(e) && !isAddressOrCidr(e));
  if (bad.length > 0) {
    problems.push(
      `TRUST_PROXY: "${bad.join('", "')}" is not an address, CIDR range or ${NAMED_RANGES.join('/')}: ${FIX}`,
    );
    return false;
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  // four-part decimal only: ipaddr.js also reads "10" or "0x0a000001" as IPv4, which nobody means here
  return (
    ipaddr.IPv4.isValidFourPartDecimal(entry) ||
    ipaddr.IPv4.isValidCIDRFourPartDecimal(entry) ||
    ipaddr.IPv6.isValid(entry) ||
    ipaddr.IPv6.isValidCIDR(entry)
  );
}
