import { failedRules, inconsistencies, NO_CHECKS, normalizeChecks, strictestOf } from './password-checks.js';

describe('password checks', () => {
  it('the strictest union: largest counts and min_length, smallest max_length; null adds nothing', () => {
    expect(
      strictestOf([
        { ...NO_CHECKS, digits: 2, min_length: 10, max_length: 40 },
        { ...NO_CHECKS, digits: 1, uppercase: 1, min_length: 12, max_length: 30 },
        NO_CHECKS,
      ]),
    ).toEqual({ ...NO_CHECKS, digits: 2, uppercase: 1, min_length: 12, max_length: 30 });
    expect(strictestOf([])).toEqual(NO_CHECKS);
  });

  it('one message per failed rule, lengths in code points, the 8-character floor always', () => {
    expect(failedRules(NO_CHECKS, 'abcdefg')).toEqual(['must be at least 8 characters']);
    // four astral characters are four characters, not eight UTF-16 units
    expect(failedRules({ ...NO_CHECKS, max_length: 8 }, '😀😀😀😀abcd')).toEqual([]);
    expect(failedRules({ ...NO_CHECKS, special_symbols: 1, digits: 1 }, 'ÄÖÜäöü٣ß')).toEqual([
      'must contain at least 1 special symbol',
    ]);
    expect(failedRules({ ...NO_CHECKS, min_length: 10, max_length: 9 }, 'abcdefghi')).toEqual([
      'must be at least 10 characters',
    ]);
  });

  it('stored JSON of any shape becomes the six fields', () => {
    expect(normalizeChecks(null)).toEqual(NO_CHECKS);
    expect(normalizeChecks({ digits: '3', uppercase: 2, extra: 1, min_length: 9.5 })).toEqual({
      ...NO_CHECKS,
      uppercase: 2,
    });
  });

  it('refuses min above max and counts that do not fit in max_length', () => {
    expect(inconsistencies({ ...NO_CHECKS, min_length: 20, max_length: 10 })).toHaveProperty('max_length');
    expect(inconsistencies({ ...NO_CHECKS, digits: 5, uppercase: 4, max_length: 8 })).toHaveProperty(
      'max_length',
    );
    expect(inconsistencies({ ...NO_CHECKS, digits: 4, uppercase: 4, max_length: 8 })).toEqual({});
  });
});
