/**
 * Dates of search criteria (range bounds, values of date fields), parsed here so that only canonical UTC
 * instants reach SQL (a text PostgreSQL could not cast never becomes a statement error).
 *
 * Accepted: ISO 8601 dates and date-times (`2026-11-29`, `2026-11-29T10:00`, `…:30.123456`, with `Z` or an
 * offset `+01:00` / `+0100` / `+01`), epoch milliseconds (digits only), and `now` with offsets
 * (`now-7d`, `now+1h-30m`; units y M w d h m s). A bound without an offset is wall time in `timezone`
 * (an IANA name such as `Europe/Oslo`, or an offset `+02:00`), UTC without one.
 */

const ISO =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const NOW = /^now((?:[+-]\d{1,9}[yMwdhms])*)$/;
const NOW_STEP = /([+-])(\d{1,9})([yMwdhms])/g;
const OFFSET = /^([+-])(\d{2})(?::?(\d{2}))?$/;
const UNIT_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };
const MAX_MS = 8.64e15;

/** Milliseconds of an offset such as +02:00, or null. */
function offsetMs(text: string): number | null {
  const m = OFFSET.exec(text);
  if (!m) return null;
  const h = Number(m[2]);
  const min = Number(m[3] ?? 0);
  if (h > 15 || min > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (h * 60 + min) * 60_000;
}

const zones = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(tz: string): Intl.DateTimeFormat | null {
  if (tz.length > 64) return null;
  let f = zones.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      return null;
    }
    if (zones.size < 500) zones.set(tz, f);
  }
  return f;
}

/** Whether `tz` names a time zone this service understands (IANA name or offset). */
export function isTimezone(tz: string): boolean {
  return offsetMs(tz) !== null || zoneFormat(tz) !== null;
}

/** The offset of zone `tz` from UTC at instant `utcMs`. */
function zoneOffsetAt(format: Intl.DateTimeFormat, utcMs: number): number {
  const p = Object.fromEntries(format.formatToParts(new Date(utcMs)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/** The UTC instant of wall time `wallMs` (its fields read as UTC) in zone `tz` (null: UTC). */
function fromWallTime(wallMs: number, tz: string | null): number {
  if (!tz) return wallMs;
  const fixed = offsetMs(tz);
  if (fixed !== null) return wallMs - fixed;
  const f = zoneFormat(tz)!;
  const guess = wallMs - zoneOffsetAt(f, wallMs);
  return wallMs - zoneOffsetAt(f, guess);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parseIso(text: string, tz: string | null): number | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo = '1', d = '1', h = '0', mi = '0', s = '0', frac = '', off] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Number((frac + '000').slice(0, 3));
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC maps years 0 – 99 to 1900 – 1999
  if (new Date(wall).getUTCFullYear() !== year) return null;
  if (off) {
    const o = off.toUpperCase() === 'Z' ? 0 : offsetMs(off);
    return o === null ? null : wall - o;
  }
  return fromWallTime(wall, tz);
}

function parseNow(text: string, now: number): number | null {
  const m = NOW.exec(text);
  if (!m) return null;
  const at = new Date(now);
  for (const [, sign, n, unit] of m[1].matchAll(NOW_STEP)) {
    const k = (sign === '-' ? -1 : 1) * Number(n);
    if (unit === 'y') at.setUTCFullYear(at.getUTCFullYear() + k);
    else if (unit === 'M') at.setUTCMonth(at.getUTCMonth() + k);
    else at.setTime(at.getTime() + k * UNIT_MS[unit]);
  }
  return at.getTime();
}

/**
 * The instant `text` names, as an ISO string in UTC (millisecond precision), or null when it names none.
 * `tz` must have passed isTimezone.
 */
export function parseSearchDate(text: string, tz: string | null, now: number): string | null {
  const t = text.trim();
  let ms: number | null;
  if (/^-?\d{1,15}$/.test(t) && t.replace('-', '').length > 4) ms = Number(t);
  else ms = parseNow(t, now) ?? parseIso(t, tz);
  if (ms === null || !Number.isFinite(ms) || Math.abs(ms) > MAX_MS) return null;
  return new Date(ms).toISOString();
}
