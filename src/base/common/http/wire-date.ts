/**
 * The one serializer of dates on the wire: ISO 8601 with microseconds and a numeric offset
 * (`2026-11-23T11:45:37.269000+00:00`), as the published platform sends them. The `Z` form breaks older
 * clients (Python's `datetime.fromisoformat` before 3.11). JavaScript dates carry milliseconds, so the last
 * three digits of the microseconds are always 0.
 */
export function wireDate(d: Date | string | number): string {
  const date = d instanceof Date ? d : new Date(d);
  const iso = date.toISOString(); // always UTC, always milliseconds, always ends in Z
  return `${iso.slice(0, -1)}000+00:00`;
}

/** `wireDate` for nullable columns. */
export function wireDateOrNull(d: Date | string | number | null | undefined): string | null {
  return d === null || d === undefined ? null : wireDate(d);
}

/** The shape `wireDate` produces; tests and the contract check hold responses against it. */
export const WIRE_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
