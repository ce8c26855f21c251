import { emailProblem, normalizeEmail } from './email-rules.js';

const check = (raw: string) => emailProblem(normalizeEmail(raw));

describe('email rules', () => {
  it('folds fullwidth and other compatibility forms with NFKC, then lower-cases', () => {
    expect(normalizeEmail('ａｄｍｉｎ@ｅｘａｍｐｌｅ.com')).toBe('admin@example.com');
    expect(normalizeEmail(' ＡＤＭＩＮ＠Example.COM ')).toBe('admin@example.com');
    expect(normalizeEmail('ﬁle@example.com')).toBe('file@example.com');
    expect(check('ａｄｍｉｎ@example.com')).toBeNull();
  });

  it.each([
    ['soft hyphen', 'ad\u00ADmin@example.com'],
    ['zero-width space', 'ad\u200Bmin@example.com'],
    ['zero-width joiner', 'admin@exa\u200Dmple.com'],
    ['left-to-right mark', 'admin\u200E@example.com'],
    ['right-to-left mark', 'admin@example.com\u200F'],
    ['RTL override', 'admin\u202E@example.com'],
    ['LTR embedding', '\u202Aadmin@example.com'],
    ['word joiner', 'ad\u2060min@example.com'],
    ['invisible plus', 'ad\u2064min@example.com'],
    ['BOM', '\uFEFFadmin@example.com'],
    ['Mongolian vowel separator', 'ad\u180Emin@example.com'],
    ['variation selector', 'a\uFE0Fdmin@example.com'],
    ['isolate', 'admin\u2066@example.com'],
  ])('refuses a %s', (_name, raw) => {
    expect(check(raw)).toMatch(/invisible or text-direction/);
  });

  it.each([
    ['Cyrillic a in a Latin local part', '\u0430dmin@example.com'],
    ['Cyrillic o in a Latin domain label', 'admin@ex\u0430mple.com'],
    ['Greek omicron in a Latin local part', 'r\u03BFot@example.com'],
  ])('refuses %s', (_name, raw) => {
    expect(check(raw)).toMatch(/must not mix Latin with Cyrillic or Greek/);
  });

  it('passes ordinary addresses, accented Latin, and a label of one other script', () => {
    for (const ok of [
      'a@example.com',
      'zoë.o’brien@example.com',
      'josé@exämple.com',
      'иван@пример.рф',
      'иван@example.com',
      'δοκιμή@example.gr',
      '用户@例子.广告',
    ]) {
      expect(check(ok)).toBeNull();
    }
  });
});
