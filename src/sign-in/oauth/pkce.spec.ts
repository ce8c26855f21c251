import { CHALLENGE_PATTERN, s256, VERIFIER_PATTERN, verifierMatches } from './pkce.js';

describe('PKCE', () => {
  it('computes the RFC 7636 appendix B example', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });
  it('bounds verifiers to 43..128 unreserved characters', () => {
    expect(VERIFIER_PATTERN.test('a'.repeat(42))).toBe(false);
    expect(VERIFIER_PATTERN.test('a'.repeat(43))).toBe(true);
    expect(VERIFIER_PATTERN.test('a'.repeat(128))).toBe(true);
    expect(VERIFIER_PATTERN.test('a'.repeat(129))).toBe(false);
    expect(VERIFIER_PATTERN.test('a'.repeat(42) + '+')).toBe(false);
  });
  it('matches only the right verifier', () => {
    const v = 'x'.repeat(50);
    expect(CHALLENGE_PATTERN.test(s256(v))).toBe(true);
    expect(verifierMatches(v, s256(v))).toBe(true);
    expect(verifierMatches(v + 'y', s256(v))).toBe(false);
  });
});
