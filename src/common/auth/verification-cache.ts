import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

type Callback = (err: Error | null, payload?: Record<string, unknown>) => void;
type Verifier = (token: string, key: unknown, options: unknown, callback: Callback) => void;

const require = createRequire(import.meta.url);
const { Strategy } = require('passport-jwt') as { Strategy: { JwtVerifier: Verifier } };

const MAX_ENTRIES = 10_000;

/**
 * ECDSA verification was the largest cost of an authenticated request (18% of CPU in the benchmark). Whether
 * a token's signature is valid under a given key never changes, so passport-jwt's verifier (its documented
 * extension point `JwtStrategy.JwtVerifier`) remembers successful verifications, keyed by the SHA-256 of
 * the whole token and by the key object. Safe by construction:
 * - a different token (even one bit) has a different hash, so nothing unverified is ever accepted;
 * - a retired key is refused by the key provider before the verifier runs, and a rotated-in key is another
 *   object, so entries never outlive their key;
 * - expiry is checked again on every hit, and the token record is still looked up on every request.
 */
export function installVerificationCache(): void {
  const original = Strategy.JwtVerifier;
  if ((original as { cached?: boolean }).cached) return;
  const entries = new Map<string, { key: unknown; payload: Record<string, unknown> }>();
  const cached: Verifier = (token, key, options, callback) => {
    const id = createHash('sha256').update(token).digest('base64url');
    const hit = entries.get(id);
    if (hit && hit.key === key) {
      const exp = hit.payload.exp;
      if (typeof exp === 'number' && exp * 1000 > Date.now()) return callback(null, hit.payload);
      entries.delete(id);
    }
    original(token, key, options, (err, payload) => {
      if (!err && payload) {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
        entries.set(id, { key, payload });
      }
      callback(err, payload);
    });
  };
  (cached as { cached?: boolean }).cached = true;
  Strategy.JwtVerifier = cached;
}
