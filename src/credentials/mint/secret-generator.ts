import { randomBytes } from 'node:crypto';

/**
 * 256 random bits, base64url: the client secrets and refresh tokens the mint hands out. Private to the
 * credentials module (the architecture test refuses an import from anywhere else); one-time link secrets
 * and nonces that only lead to a verified flow use common/crypto/secrets.ts.
 */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
