import type { FieldOption, FieldType } from '../../base/model/metadata.entity.js';
import { MetadataErrors } from './metadata.errors.js';

export const MAX_VALUES_PER_FIELD = 100;
export const MAX_VALUE_LENGTH = 10_000;
/** How many fields one PUT may name. */
export const MAX_FIELDS_PER_PUT = 200;

export const MODES = ['overwrite', 'append'] as const;
export type Mode = (typeof MODES)[number];

export type Scalar = string | number | boolean;

/** What the value rules need of a registered field. */
export interface FieldRules {
  name: string;
  field_type: FieldType;
  multi: boolean;
  read_only: boolean;
  required: boolean;
  min_value: number | null;
  max_value: number | null;
  options: FieldOption[];
}

/** One field a PUT names: how (`overwrite` replaces, `append` adds to what is there) and the values. */
export interface Change {
  mode: Mode;
  values: { value: Scalar }[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

function validDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === v;
}

function validUrl(v: string): boolean {
  if (!URL.canParse(v)) return false;
  return ['http:', 'https:'].includes(new URL(v).protocol);
}

/** What is wrong with one value of the field, or null. */
export function valueProblem(field: FieldRules, value: Scalar): string | null {
  const t = field.field_type;
  if (t === 'integer' || t === 'float') {
    if (typeof value !== 'number') return `each value must be a number (field_type ${t})`;
    if (t === 'integer' && !Number.isSafeInteger(value)) return 'each value must be an integer';
    if (field.min_value !== null && value < field.min_value)
      return `each value must be >= ${field.min_value}`;
    if (field.max_value !== null && value > field.max_value)
      return `each value must be <= ${field.max_value}`;
    return null;
  }
  if (t === 'boolean') return typeof value === 'boolean' ? null : 'each value must be true or false';
  if (typeof value !== 'string') return `each value must be a string (field_type ${t})`;
  if (value.length > MAX_VALUE_LENGTH) return `each value must be at most ${MAX_VALUE_LENGTH} characters`;
  if (t === 'date' && !validDate(value)) return 'each value must be a date (YYYY-MM-DD)';
  if (t === 'datetime' && !(DATETIME.test(value) && !Number.isNaN(Date.parse(value))))
    return 'each value must be an ISO 8601 date-time with a time zone';
  if (t === 'url' && !validUrl(value)) return 'each value must be an http or https URL';
  if (t === 'email' && !EMAIL.test(value)) return 'each value must be an email address';
  if (t === 'drop_down' && field.options.length > 0 && !field.options.some((o) => o.value === value))
    return 'each value must be the value of one of the field’s options';
  return null;
}

/** `{field_values: [{value}], mode?}` → the change, or what is wrong with it. */
function parseEntry(field: FieldRules, entry: unknown, mode: Mode): Change | string {
  const shape = 'must be {field_values: [{value}]}';
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return shape;
  const { field_values: list, mode: own } = entry as { field_values?: unknown; mode?: unknown };
  if (own !== undefined && !MODES.includes(own as Mode)) return 'mode must be overwrite or append';
  if (!Array.isArray(list)) return shape;
  if (list.length > MAX_VALUES_PER_FIELD) return `must have at most ${MAX_VALUES_PER_FIELD} values`;
  const values: { value: Scalar }[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null || Array.isArray(item) || !('value' in item)) return shape;
    const value = (item as { value: unknown }).value;
    if (typeof value === 'number' && !Number.isFinite(value)) return 'values must be finite numbers';
    if (!['string', 'number', 'boolean'].includes(typeof value))
      return 'each value must be a string, a number or a boolean';
    const problem = valueProblem(field, value as Scalar);
    if (problem) return problem;
    values.push({ value: value as Scalar });
  }
  return { mode: (own as Mode | undefined) ?? mode, values };
}

/**
 * The body's `metadata_values` against the fields it may name: an unknown or read-only field, a malformed or
 * mistyped value, is a 400 naming every such field (`metadata_values.<name>`), before anything is read.
 */
export function planChanges(
  fields: ReadonlyMap<string, FieldRules>,
  body: Record<string, unknown>,
  o: { mode: Mode; unknown: string },
): Map<string, Change> {
  const entries = Object.entries(body);
  if (entries.length > MAX_FIELDS_PER_PUT)
    throw MetadataErrors.INVALID({ metadata_values: `must name at most ${MAX_FIELDS_PER_PUT} fields` });
  const problems: Record<string, string> = {};
  const changes = new Map<string, Change>();
  for (const [name, entry] of entries) {
    const key = `metadata_values.${name.slice(0, 100)}`;
    const field = fields.get(name);
    if (!field) {
      problems[key] = o.unknown;
      continue;
    }
    if (field.read_only) {
      problems[key] = 'is read-only';
      continue;
    }
    const change = parseEntry(field, entry, o.mode);
    if (typeof change === 'string') problems[key] = change;
    else changes.set(name, change);
  }
  if (Object.keys(problems).length > 0) throw MetadataErrors.INVALID(problems);
  return changes;
}

/**
 * The values a field has after the change (`existing` is what it has now), or what is wrong with them: more
 * than one value of a single-valued field, more than the limit after an append, a required field emptied.
 */
export function afterChange(
  field: FieldRules,
  change: Change,
  existing: { value: unknown }[],
): {
  values: { value: unknown }[];
  problem: string | null;
} {
  const values = change.mode === 'append' ? [...existing, ...change.values] : change.values;
  let problem: string | null = null;
  if (values.length > MAX_VALUES_PER_FIELD) problem = `must have at most ${MAX_VALUES_PER_FIELD} values`;
  else if (values.length > 1 && !field.multi) problem = 'takes one value (the field is not multi)';
  else if (values.length === 0 && field.required) problem = 'is required';
  return { values, problem };
}
