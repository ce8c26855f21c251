import { encode } from './hostile.js';

// the fuzz suite's path and query encoder: what it writes must be what an attacker's client would send
describe('fuzz encode()', () => {
  it('percent-encodes well-formed text as encodeURIComponent does, surrogate pairs included', () => {
    for (const s of ['', 'a b/c?d=e&f', 'é', '😀', 'x😀y', '\u0000', '%00', '\u202Egnp.exe']) {
      expect(encode(s)).toBe(encodeURIComponent(s));
      expect(decodeURIComponent(encode(s))).toBe(s);
    }
  });

  it('writes each lone surrogate as the invalid UTF-8 %ED%A0%80, and keeps the pairs around it', () => {
    expect(encode('\uD800')).toBe('%ED%A0%80');
    expect(encode('x\uDFFFy')).toBe('x%ED%A0%80y');
    // a high surrogate before a pair is lone; the pair after it stays a pair
    expect(encode('\uD83D\uD83D\uDE00')).toBe('%ED%A0%80' + encodeURIComponent('😀'));
    // a low surrogate after a pair is lone
    expect(encode('\uD83D\uDE00\uDE00')).toBe(encodeURIComponent('😀') + '%ED%A0%80');
    expect(encode('\uDC00\uDC00')).toBe('%ED%A0%80%ED%A0%80');
  });

  it('encodes a 100,000-character value whole', () => {
    expect(encode('y'.repeat(100_000))).toHaveLength(100_000);
  });
});
