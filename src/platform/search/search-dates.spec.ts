import { isTimezone, parseSearchDate } from './search-dates.js';

const NOW = Date.UTC(2026, 10, 29, 3, 0, 0);
const at = (t: string, tz: string | null = null) => parseSearchDate(t, tz, NOW);

describe('search dates', () => {
  it('ISO dates and date-times, with Z or an offset, to UTC', () => {
    expect(at('2026-03-01')).toBe('2026-03-01T00:00:00.000Z');
    expect(at('2026-03-01T10:30')).toBe('2026-03-01T10:30:00.000Z');
    expect(at('2026-03-01 10:30:15.123456+02:00')).toBe('2026-03-01T08:30:15.123Z');
    expect(at('2026-03-01T10:30:00-0130')).toBe('2026-03-01T12:00:00.000Z');
    expect(at('2026-03-01T10:30:00Z', 'Asia/Tokyo')).toBe('2026-03-01T10:30:00.000Z');
  });

  it('a bound without an offset is wall time in the time zone, daylight saving included', () => {
    expect(at('2026-01-15T12:00', 'Europe/Oslo')).toBe('2026-01-15T11:00:00.000Z');
    expect(at('2026-07-15T12:00', 'Europe/Oslo')).toBe('2026-07-15T10:00:00.000Z');
    expect(at('2026-07-15', 'America/New_York')).toBe('2026-07-15T04:00:00.000Z');
    expect(at('2026-07-15T12:00', '+05:30')).toBe('2026-07-15T06:30:00.000Z');
  });

  it('epoch milliseconds and now with offsets (the clock’s now)', () => {
    expect(at('1700000000000')).toBe('2023-11-14T22:13:20.000Z');
    expect(at('now')).toBe('2026-11-29T03:00:00.000Z');
    expect(at('now-1d+2h')).toBe('2026-11-28T05:00:00.000Z');
    expect(at('now-1M')).toBe('2026-10-29T03:00:00.000Z');
  });

  it('anything else is no date (never a text PostgreSQL could fail to cast)', () => {
    for (const t of [
      '2026-02-30',
      '2026-13-01',
      '2026-01-01T24:00',
      'yesterday',
      'now-1x',
      '',
      "2026'; --",
      '0099-01-01',
    ]) {
      expect(at(t)).toBeNull();
    }
  });

  it('time zones: IANA names and offsets; anything else is refused', () => {
    expect(['UTC', 'Europe/Oslo', '+02:00', '-0530'].every(isTimezone)).toBe(true);
    expect(['Mars/Base', "UTC'; --", '+99:00', 'x'.repeat(100)].some(isTimezone)).toBe(false);
  });
});
