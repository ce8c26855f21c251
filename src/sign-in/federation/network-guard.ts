import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress } from '../../delivery/webhooks/target-address.js';

/** A host a tenant named that the service will not reach (FEDERATION_ALLOW_PRIVATE is off). */
export class PrivateHostError extends Error {}

/**
 * The SSRF rule of federated sign-in: a directory's or OpenID provider's host must resolve to public
 * addresses only (every address of the name), unless FEDERATION_ALLOW_PRIVATE. Checked when the settings are
 * saved (an IP literal) and before each connection (the name as it resolves now). A name that answers
 * differently between this check and the connection (DNS rebinding) could still slip through: the window is
 * one lookup, and a directory speaks LDAP, not HTTP, to what it reaches.
 */
export async function assertReachable(host: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) {
    if (!isPublicAddress(bare)) throw new PrivateHostError(`${host} is not a public address`);
    return;
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(bare, { all: true });
  } catch {
    return; // an unknown name fails at the connection, with the connection's own error
  }
  const blocked = addresses.find((a) => !isPublicAddress(a.address));
  if (blocked) throw new PrivateHostError(`${host} resolves to ${blocked.address}, not a public address`);
}

/** Why a literal host is refused at save time (null: fine, or a name checked at each connection). */
export function literalHostProblem(host: string, allowPrivate: boolean): string | null {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (allowPrivate || !isIP(bare) || isPublicAddress(bare)) return null;
  return 'must not be a private, loopback, link-local or otherwise non-public address (FEDERATION_ALLOW_PRIVATE is off)';
}
