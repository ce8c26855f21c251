import { SearchErrors } from './search.errors.js';
import { isTimezone, parseSearchDate } from './search-dates.js';

/** Parameters of one statement: `add(value)` returns its `$n`. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The SQL type of a document field. */
export type FieldKind = 'text' | 'uuid' | 'boolean' | 'timestamptz';

/**
 * The fields of the search documents that are columns (of assets, of collections, or both): the only names
 * that ever become SQL identifiers, and only through each source's own fixed map. Any other name is a
 * metadata field (`metadata.<field>`, or the bare name), which goes into the statement as a parameter.
 */
export const DOC_FIELDS: Record<string, FieldKind> = {
  id: 'uuid',
  title: 'text',
  doc_type: 'text',
  object_type: 'text',
  type: 'text',
  status: 'text',
  analyze_status: 'text',
  archive_status: 'text',
  external_id: 'text',
  is_online: 'boolean',
  media_type: 'text',
  category: 'text',
  parent_id: 'uuid',
  created_by_user: 'uuid',
  date_created: 'timestamptz',
  date_modified: 'timestamptz',
};

/** One document type's table, as the criteria see it. */
export interface DocSource {
  /** The object_type its hits carry: `assets` or `collections`. */
  objectType: string;
  /** SQL of a column field (from the fixed map), or null when this document type has no such field. */
  column(name: string): string | null;
  /**
   * The current values of metadata field `fieldParam` (a parameter): a FROM list and its condition, whose
   * rows carry `mv.field_values` (`[{value}]`); null when this document type has no metadata.
   */
  metadata(fieldParam: string): { from: string; where: string } | null;
}

export interface CriteriaTerm {
  name: string;
  value?: string | number | boolean | null;
  value_in?: (string | number | boolean | null)[] | null;
  range?: { min?: string | null; max?: string | null; timezone?: string | null } | null;
  exists?: boolean | null;
  missing?: boolean | null;
}

export interface CriteriaFilter {
  operator?: string | null;
  terms?: CriteriaTerm[] | null;
  filters?: CriteriaFilter[] | null;
}

/** The document types as a filter may name them (the object_type of a hit, or the doc_types entry). */
const DOC_TYPE_NAMES: Record<string, string> = {
  asset: 'assets',
  assets: 'assets',
  collection: 'collections',
  collections: 'collections',
};

export const MAX_FILTER_DEPTH = 8;
export const MAX_FILTER_TERMS = 100;

export type Field = { kind: 'column'; name: string; type: FieldKind } | { kind: 'metadata'; name: string };

/** `title` is the asset column; `metadata.title` or a name that is no column is a metadata field. */
export function resolveField(name: string): Field {
  if (name.startsWith('metadata.') && name.length > 'metadata.'.length) {
    return { kind: 'metadata', name: name.slice('metadata.'.length) };
  }
  const type = Object.hasOwn(DOC_FIELDS, name) ? DOC_FIELDS[name] : undefined;
  // object_type and doc_type both name the document type (assets, collections)
  return type
    ? { kind: 'column', name: name === 'object_type' ? 'doc_type' : name, type }
    : { kind: 'metadata', name };
}

const invalid = (at: string, message: string) => SearchErrors.INVALID({ [at]: message });

/** `AND`, `and`, `Or`…: the operator in lower case, or a 400. Absent: and. */
export function operatorOf(operator: string | null | undefined, at: string): 'and' | 'or' {
  const op = (operator ?? 'and').toLowerCase();
  if (op !== 'and' && op !== 'or') throw invalid(at, 'must be AND or OR (any case)');
  return op;
}

/** Checks depth, counts and operators before any SQL is built (a 400 names the first problem). */
export function checkFilter(filter: CriteriaFilter, at = 'filter', depth = 1, seen = { terms: 0 }): void {
  if (depth > MAX_FILTER_DEPTH) throw invalid(at, `is nested more than ${MAX_FILTER_DEPTH} levels deep`);
  operatorOf(filter.operator, `${at}.operator`);
  seen.terms += filter.terms?.length ?? 0;
  if (seen.terms > MAX_FILTER_TERMS)
    throw invalid('filter', `holds more than ${MAX_FILTER_TERMS} terms in all`);
  (filter.filters ?? []).forEach((f, i) => checkFilter(f, `${at}.filters.${i}`, depth + 1, seen));
}

const NUMBER = /^\s*-?\d+(\.\d+)?([eE][-+]?\d{1,3})?\s*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TEXT =
  "'^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,6})?)?)?(Z|[+-](0[0-9]|1[0-5])(:?[0-5][0-9])?)?$'";

/**
 * A metadata value (jsonb) as an instant, or NULL when it is not an ISO date: the text is checked (format,
 * then the day against its month) before the cast, so no stored value can make the cast fail.
 */
export function valueAsInstant(v: string): string {
  const t = `(${v} #>> '{}')`;
  return `CASE WHEN jsonb_typeof(${v}) = 'string' AND ${t} ~ ${ISO_TEXT} THEN
      CASE WHEN substr(${t}, 9, 2)::int <= extract(day from make_date(substr(${t}, 1, 4)::int, substr(${t}, 6, 2)::int, 1) + interval '1 month - 1 day')
        THEN CASE WHEN ${t} ~ '(Z|[+-][0-9:]{2,5})$' AND length(${t}) > 10 THEN ${t}::timestamptz ELSE ${t}::timestamp AT TIME ZONE 'UTC' END
      END
    END`;
}

/** A metadata value (jsonb) as a number, or NULL when it is none (checked before the cast). */
export function valueAsNumber(v: string): string {
  return `CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v} #>> '{}')::numeric
    WHEN jsonb_typeof(${v}) = 'string' AND (${v} #>> '{}') ~ '^\\s*-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]{1,3})?\\s*$' THEN (${v} #>> '{}')::numeric END`;
}

/** Builds the SQL condition of a filter for one document type; every value is a parameter. */
export class CriteriaSql {
  constructor(
    private readonly p: Params,
    private readonly now: number,
  ) {}

  filter(f: CriteriaFilter, src: DocSource, at = 'filter'): string {
    const op = operatorOf(f.operator, `${at}.operator`);
    const parts = [
      ...(f.terms ?? []).map((t, i) => this.term(t, src, `${at}.terms.${i}`)),
      ...(f.filters ?? []).map((g, i) => this.filter(g, src, `${at}.filters.${i}`)),
    ];
    if (parts.length === 0) return 'TRUE';
    return `(${parts.join(op === 'or' ? ' OR ' : ' AND ')})`;
  }

  /** A term: each criterion it names must hold (value, value_in, range, exists, missing). */
  term(t: CriteriaTerm, src: DocSource, at: string): string {
    const field = resolveField(t.name);
    const parts: string[] = [];
    const has = (v: unknown) => v !== undefined && v !== null;
    if (has(t.value)) parts.push(this.anyOf(field, [t.value!], src, `${at}.value`));
    if (has(t.value_in)) parts.push(this.anyOf(field, t.value_in!, src, `${at}.value_in`));
    if (has(t.range)) parts.push(this.range(field, t.range!, src, `${at}.range`));
    if (has(t.exists)) parts.push(t.exists ? this.present(field, src) : `NOT ${this.present(field, src)}`);
    if (has(t.missing)) parts.push(t.missing ? `NOT ${this.present(field, src)}` : this.present(field, src));
    if (parts.length === 0) throw invalid(at, 'needs one of value, value_in, range, exists, missing');
    return parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`;
  }

  /** The field has a value: a non-null column, a metadata field with at least one non-null value. */
  private present(field: Field, src: DocSource): string {
    if (field.kind === 'column') {
      const col = src.column(field.name);
      return col ? `(${col} IS NOT NULL)` : 'FALSE';
    }
    return this.metaExists(field.name, src, (v) => `jsonb_typeof(${v}) <> 'null'`);
  }

  private metaExists(name: string, src: DocSource, cond: (value: string) => string): string {
    const m = src.metadata(this.p.add(name));
    if (!m) return 'FALSE';
    return `EXISTS (SELECT 1 FROM ${m.from} CROSS JOIN LATERAL jsonb_array_elements(mv.field_values) AS e(item)
       WHERE ${m.where} AND ${cond("(e.item -> 'value')")})`;
  }

  /** Equals one of `values` (text equality; ids in any case; dates as instants). */
  private anyOf(field: Field, values: unknown[], src: DocSource, at: string): string {
    const texts = values.filter((v) => v !== null && v !== undefined).map((v) => String(v));
    if (texts.length === 0) return 'FALSE';
    if (field.kind === 'metadata') {
      const list = this.p.add(texts);
      return this.metaExists(field.name, src, (v) => `(${v} #>> '{}') = ANY(${list}::text[])`);
    }
    const col = src.column(field.name);
    if (field.type === 'timestamptz') {
      const instants = texts.map((t, i) => {
        const iso = parseSearchDate(t, null, this.now);
        if (!iso)
          throw invalid(
            values.length > 1 ? `${at}.${i}` : at,
            'must be a date (ISO 8601, epoch ms or now-…)',
          );
        return iso;
      });
      return col ? `${col} = ANY(${this.p.add(instants)}::timestamptz[])` : 'FALSE';
    }
    if (!col) return 'FALSE';
    const norm =
      field.name === 'doc_type'
        ? texts.map((t) => DOC_TYPE_NAMES[t.toLowerCase()] ?? t)
        : field.type === 'text'
          ? texts
          : texts.map((t) => t.toLowerCase());
    return `${col}::text = ANY(${this.p.add(norm)}::text[])`;
  }

  /**
   * Inclusive bounds. Date columns compare instants; metadata values compare as numbers when every bound is
   * a number, else as instants when every bound is a date, else as text; other columns compare as text.
   */
  private range(field: Field, r: NonNullable<CriteriaTerm['range']>, src: DocSource, at: string): string {
    const tz = r.timezone ?? null;
    if (tz !== null && !isTimezone(tz))
      throw invalid(`${at}.timezone`, 'must be an IANA time zone or an offset');
    const bounds = (['min', 'max'] as const).filter(
      (k) => r[k] !== undefined && r[k] !== null && r[k] !== '',
    );
    if (bounds.length === 0) throw invalid(at, 'needs min or max');
    const dates = Object.fromEntries(bounds.map((k) => [k, parseSearchDate(String(r[k]), tz, this.now)]));
    const cmp = (expr: string, cast: string, value: (k: 'min' | 'max') => unknown) =>
      `(${bounds.map((k) => `${expr} ${k === 'min' ? '>=' : '<='} ${this.p.add(value(k))}${cast}`).join(' AND ')})`;
    if (field.kind === 'column') {
      const col = src.column(field.name);
      if (field.type === 'timestamptz') {
        const bad = bounds.find((k) => !dates[k]);
        if (bad) throw invalid(`${at}.${bad}`, 'must be a date (ISO 8601, epoch ms or now-…)');
        return col ? cmp(col, '::timestamptz', (k) => dates[k]) : 'FALSE';
      }
      return col ? cmp(`${col}::text`, '::text', (k) => String(r[k])) : 'FALSE';
    }
    if (bounds.every((k) => NUMBER.test(String(r[k])))) {
      return this.metaExists(field.name, src, (v) =>
        cmp(valueAsNumber(v), '::numeric', (k) => String(r[k]).trim()),
      );
    }
    if (bounds.every((k) => dates[k])) {
      return this.metaExists(field.name, src, (v) =>
        cmp(valueAsInstant(v), '::timestamptz', (k) => dates[k]),
      );
    }
    return this.metaExists(field.name, src, (v) => cmp(`(${v} #>> '{}')`, '::text', (k) => String(r[k])));
  }
}

export { UUID };
