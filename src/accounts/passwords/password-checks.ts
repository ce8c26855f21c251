import type { PasswordChecks } from '../../base/model/system-domain.entity.js';

export type { PasswordChecks };

/** The spec's Limits table. */
export const CHECK_BOUNDS = {
  min_length: { min: 8, max: 56 },
  max_length: { min: 8, max: 64 },
  /** digits, lowercase, uppercase, special_symbols: >= 0 (capped at the longest password the API takes). */
  count: { min: 0, max: 1024 },
} as const;

/** Below every domain's rules: no password shorter than this is ever accepted. */
export const PASSWORD_FLOOR = 8;

export const NO_CHECKS: PasswordChecks = {
  digits: null,
  lowercase: null,
  special_symbols: null,
  uppercase: null,
  min_length: null,
  max_length: null,
};

const COUNT_RULES = ['digits', 'lowercase', 'uppercase', 'special_symbols'] as const;
type CountRule = (typeof COUNT_RULES)[number];

const CLASSES: Record<CountRule, { re: RegExp; noun: [string, string] }> = {
  digits: { re: /\p{Nd}/gu, noun: ['digit', 'digits'] },
  lowercase: { re: /\p{Ll}/gu, noun: ['lowercase letter', 'lowercase letters'] },
  uppercase: { re: /\p{Lu}/gu, noun: ['uppercase letter', 'uppercase letters'] },
  // anything that is neither a letter nor a digit: punctuation, symbols, spaces
  special_symbols: { re: /[^\p{L}\p{N}]/gu, noun: ['special symbol', 'special symbols'] },
};

/** Stored JSON (any shape, older rows) → the six fields, unknown or non-integer values dropped. */
export function normalizeChecks(raw: unknown): PasswordChecks {
  const out = { ...NO_CHECKS };
  if (!raw || typeof raw !== 'object') return out;
  for (const key of Object.keys(NO_CHECKS) as (keyof PasswordChecks)[]) {
    const v = (raw as Record<string, unknown>)[key];
    out[key] = Number.isInteger(v) ? (v as number) : null;
  }
  return out;
}

/**
 * The strictest union of several domains' checks (a user who belongs to several domains must satisfy all of
 * them): the largest of each count and of min_length, the smallest max_length. Domains that set nothing add
 * nothing. Two domains can disagree beyond repair (one's min_length above another's max_length): then no
 * password passes and the messages say why.
 */
export function strictestOf(all: PasswordChecks[]): PasswordChecks {
  const out = { ...NO_CHECKS };
  for (const c of all) {
    for (const key of [...COUNT_RULES, 'min_length'] as const) {
      const v = c[key];
      if (v !== null && (out[key] === null || v > out[key])) out[key] = v;
    }
    if (c.max_length !== null && (out.max_length === null || c.max_length < out.max_length)) {
      out.max_length = c.max_length;
    }
  }
  return out;
}

/** One message per rule the password fails, in a fixed order (lengths, then the character classes). */
export function failedRules(checks: PasswordChecks, password: string): string[] {
  const length = [...password].length;
  const failed: string[] = [];
  const min = Math.max(checks.min_length ?? 0, PASSWORD_FLOOR);
  if (length < min) failed.push(`must be at least ${min} characters`);
  if (checks.max_length !== null && length > checks.max_length) {
    failed.push(`must be at most ${checks.max_length} characters`);
  }
  for (const rule of COUNT_RULES) {
    const need = checks[rule];
    if (!need) continue;
    const have = password.match(CLASSES[rule].re)?.length ?? 0;
    if (have < need) failed.push(`must contain at least ${need} ${CLASSES[rule].noun[need === 1 ? 0 : 1]}`);
  }
  return failed;
}

/**
 * What is wrong with a set of checks an administrator submits, by field (empty: nothing): min_length above
 * max_length, or more characters required by class than max_length allows.
 */
export function inconsistencies(c: PasswordChecks): Record<string, string> {
  const errors: Record<string, string> = {};
  if (c.min_length !== null && c.max_length !== null && c.min_length > c.max_length) {
    errors.max_length = 'must not be below min_length';
  } else if (c.max_length !== null) {
    const required = COUNT_RULES.reduce((sum, k) => sum + (c[k] ?? 0), 0);
    if (required > c.max_length) {
      errors.max_length = `must leave room for the ${required} characters the other checks require`;
    }
  }
  return errors;
}
