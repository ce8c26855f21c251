import { KeyEncryption } from './key-encryption.js';

describe('KeyEncryption', () => {
  it('round-trips and never returns the plaintext in the sealed form', () => {
    const k = new KeyEncryption('x'.repeat(32));
    const sealed = k.encrypt('-----BEGIN PRIVATE KEY-----abc');
    expect(sealed).not.toContain('PRIVATE');
    expect(k.decrypt(sealed)).toBe('-----BEGIN PRIVATE KEY-----abc');
  });
  it('fails with another secret (authenticated encryption)', () => {
    const sealed = new KeyEncryption('a'.repeat(32)).encrypt('secret');
    expect(() => new KeyEncryption('b'.repeat(32)).decrypt(sealed)).toThrow();
  });
});
