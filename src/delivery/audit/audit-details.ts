/** Keys whose values are, or may carry, secret material: never written to the trail, whatever the caller passes. */
const SECRET_KEY = /pass|secret|token|code|hash|key|otp|seal|cert|signature|authorization|cookie/i;

const MAX_STRING = 200;
const MAX_ITEMS = 50;

/**
 * The details of an audit record, cut to what is safe to keep: scalar values and lists of scalars, strings
 * shortened, and no key that could name a secret (a second line of defence: callers pass field names and
 * reasons, never values of credentials).
 */
export function auditDetails(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (SECRET_KEY.test(key)) continue;
    const v = scalarOrList(value);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function scalarOrList(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value
      .slice(0, MAX_ITEMS)
      .map(scalar)
      .filter((v) => v !== undefined);
  }
  return scalar(value);
}

function scalar(value: unknown): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') return value.slice(0, MAX_STRING);
  return undefined;
}
