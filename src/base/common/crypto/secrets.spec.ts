import { constantTimeEqualHex, generateSecret, sha256Hex } from './secrets.js';

describe('secrets', () => {
  it('generates 256-bit base64url secrets', () => {
    const s = generateSecret();
    expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateSecret()).not.toBe(s);
  });
  it('compares hashes in constant time and rejects mismatches', () => {
    const h = sha256Hex('abc');
    expect(constantTimeEqualHex(h, sha256Hex('abc'))).toBe(true);
    expect(constantTimeEqualHex(h, sha256Hex('abd'))).toBe(false);
    expect(constantTimeEqualHex(h, '')).toBe(false);
  });
});
