import fc from 'fast-check';
import type { Schema } from './operations.js';

/** Strings an attacker sends: NUL, lone surrogates, RTL overrides, SQL and path tricks, huge ones. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Egnp.exe',
  'مرحبا\u200F',
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  '"; SELECT pg_sleep(5); --',
  '../../etc/passwd',
  '%00',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '__proto__',
  '0x10',
  '1e3',
  ' 12',
  '-1',
  '99999999999999999999999',
  'NaN',
  'null',
  'true',
  'javascript:alert(1)',
  'https://user:pass@evil.example/cb',
  'x'.repeat(100_000),
];

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.uuid() },
);

/** Any JSON value of a wrong or hostile kind. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 31) - 1, 1e308, [], {}),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'a', 'b'), hostileString, { maxKeys: 2 }),
);

/** A value that fits the schema's type (often enough to get past the first checks), or a hostile one. */
export function valueFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const plausible = plausibleFor(schema, depth);
  return fc.oneof({ weight: 2, arbitrary: plausible }, { weight: 1, arbitrary: hostileValue });
}

function plausibleFor(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'integer':
      return fc.integer({ min: -5, max: 5000 });
    case 'number':
      return fc.double({ noNaN: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schema.items ? valueFor(schema.items, depth + 1) : hostileValue, { maxLength: 3 });
    case 'object':
      return depth > 3 ? fc.constant({}) : bodyFor(schema, depth + 1);
    default:
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'email') return fc.constantFrom('a@example.com', 'ADMIN@EXAMPLE.COM', 'x@y');
      if (schema.format === 'uri') return fc.constantFrom('https://ok.example/cb', 'http://localhost:8080/x');
      if (schema.format === 'date-time') return fc.constantFrom('2026-01-01T00:00:00Z', 'yesterday');
      return hostileString;
  }
}

/** An object with some of the schema's properties (plausible or hostile) and sometimes extra fields. */
export function bodyFor(schema: Schema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const known = fc.record(Object.fromEntries(props.map(([k, v]) => [k, valueFor(v, depth)])), {
    requiredKeys: [],
  });
  const extra = fc.dictionary(
    fc.constantFrom('extra', 'is_super_admin', 'id', '__proto__', 'a\u0000'),
    hostileValue,
    {
      maxKeys: 2,
    },
  );
  return fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...a }));
}

/** JSON text that is nested `depth` levels deep. */
export const deepJson = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Bodies sent as raw text: too deep, not JSON, huge. */
export const rawBody = fc.constantFrom(
  deepJson(2000),
  '['.repeat(5000) + ']'.repeat(5000),
  '{"a":',
  'not json at all',
  '{"email": "a@example.com", "email": "b@example.com"}',
  JSON.stringify({ s: 'y'.repeat(200_000) }),
  '\u0000',
);

/** A lone surrogate: a high one with no low one after it, or a low one with no high one before it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Percent-encodes a path segment or query value, lone surrogates as the invalid UTF-8 an attacker sends
 * (`%ED%A0%80`, which encodeURIComponent refuses to write). The pieces between lone surrogates go to
 * encodeURIComponent whole: a character-by-character loop spent seconds of the fuzz suite on 100,000-character
 * values.
 */
export function encode(value: string): string {
  return value.split(LONE_SURROGATE).map(encodeURIComponent).join('%ED%A0%80');
}

/** The values that broke the service before: a NUL, lone surrogates, a deep object, a huge string. */
export const POISON: unknown[] = [
  'a\u0000b',
  '\uD800',
  'ok\uDFFF',
  JSON.parse(deepJson(40)),
  'z'.repeat(100_000),
  { nested: { deeper: ['\u0000'] } },
];

/**
 * A plausible body with exactly one field (known, or an extra one) replaced by a poison value: gets past
 * the type checks of the other fields, so the poison reaches as far as it can.
 */
export function poisonedBodyFor(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(schema.properties ?? {});
  const plausible = fc.record(
    Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, valueFor(v)])),
    { requiredKeys: [] },
  );
  return fc
    .tuple(plausible, fc.constantFrom(...keys, 'extra_field'), fc.constantFrom(...POISON))
    .map(([body, key, poison]) => ({ ...body, [key]: poison }));
}
