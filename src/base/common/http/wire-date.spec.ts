import { WIRE_DATE_PATTERN, wireDate, wireDateOrNull } from './wire-date.js';

describe('wireDate', () => {
  it('writes microseconds and a numeric offset', () => {
    expect(wireDate(new Date('2026-11-23T11:45:37.269Z'))).toBe('2026-11-23T11:45:37.269000+00:00');
    expect(wireDate('2026-01-02T03:04:05Z')).toBe('2026-01-02T03:04:05.000000+00:00');
    expect(wireDate(0)).toBe('1970-01-01T00:00:00.000000+00:00');
  });

  it('converts other offsets to UTC', () => {
    expect(wireDate('2026-11-23T12:45:37.269+01:00')).toBe('2026-11-23T11:45:37.269000+00:00');
  });

  it('round-trips through Date.parse and matches the pattern', () => {
    const d = new Date('2026-03-04T05:06:07.891Z');
    expect(Date.parse(wireDate(d))).toBe(d.getTime());
    expect(wireDate(d)).toMatch(WIRE_DATE_PATTERN);
    expect(d.toISOString()).not.toMatch(WIRE_DATE_PATTERN);
  });

  it('keeps null for nullable columns', () => {
    expect(wireDateOrNull(null)).toBeNull();
    expect(wireDateOrNull(undefined)).toBeNull();
    expect(wireDateOrNull(new Date(0))).toBe('1970-01-01T00:00:00.000000+00:00');
  });
});
