import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, base64url: client secrets, refresh tokens, reset and invitation links. */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Service-generated secrets have full entropy, so SHA-256 is the right hash (a slow hash would cap throughput). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function constantTimeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
