import { type DocSource, type Params, resolveField, UUID } from './criteria-sql.js';
import { SearchErrors } from './search.errors.js';

type KeyType = 'float8' | 'text' | 'uuid' | 'boolean' | 'timestamptz' | 'jsonb';

/** One key of the order: its SQL per document type, its type, and its direction (nulls always last). */
export interface SortKey {
  /** The expression over the source's row, or a typed NULL; null for the relevance (the rows' `_score`). */
  expr: ((src: DocSource) => string) | null;
  type: KeyType;
  order: 'asc' | 'desc';
}

/**
 * The order of a search: `_score` (relevance), a column field, or a metadata field (`metadata.<field>` or
 * a bare name that is no column; its smallest value ascending, its largest descending). A name that no
 * document has sorts as missing: every value NULL, placed last.
 */
export function sortKeys(
  sort: { name: string; order: 'asc' | 'desc' }[],
  p: Params,
  hasQuery: boolean,
): SortKey[] {
  const terms = sort.length ? sort : [{ name: hasQuery ? '_score' : 'date_created', order: 'desc' as const }];
  return terms.map(({ name, order }) => {
    if (name === '_score') return { expr: null, type: 'float8', order };
    const field = resolveField(name);
    if (field.kind === 'column') {
      const type: KeyType = field.type;
      return { expr: (src) => src.column(field.name) ?? `NULL::${type}`, type, order };
    }
    const param = p.add(field.name);
    return {
      expr: (src) => {
        const m = src.metadata(param);
        if (!m) return 'NULL::jsonb';
        return `(SELECT e.item -> 'value' FROM ${m.from} CROSS JOIN LATERAL jsonb_array_elements(mv.field_values) AS e(item)
                  WHERE ${m.where} AND jsonb_typeof(e.item -> 'value') <> 'null'
                  ORDER BY 1 ${order === 'desc' ? 'DESC' : 'ASC'} LIMIT 1)`;
      },
      type: 'jsonb',
      order,
    };
  });
}

/** The column of key `i` in the matching rows: k0, k1, … (the relevance: `_score`). */
export const keyColumn = (keys: SortKey[], i: number, alias: string): string =>
  keys[i].expr ? `${alias}.k${i}` : `${alias}._score`;

/** ORDER BY over the matching rows' key columns and the id (nulls last in both directions). */
export function orderSql(keys: SortKey[], alias: string): string {
  return [
    ...keys.map((k, i) => `${keyColumn(keys, i, alias)} ${k.order === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`),
    `${alias}.id ASC`,
  ].join(', ');
}

/** The keys of a row as the answer's search_after gives them (timestamps: microseconds since the epoch). */
export function keysJsonSql(keys: SortKey[], alias: string): string {
  const out = keys.map((k, i) =>
    k.type === 'timestamptz'
      ? `(extract(epoch from ${keyColumn(keys, i, alias)}) * 1000000)::bigint`
      : k.type === 'uuid'
        ? `${keyColumn(keys, i, alias)}::text`
        : keyColumn(keys, i, alias),
  );
  return `json_build_array(${[...out, `${alias}.id`].join(', ')})`;
}

const bad = (message: string) => SearchErrors.INVALID({ search_after: message });

/** A value of search_after as a typed parameter (null stays null), or a 400. */
function keyParam(type: KeyType, v: unknown, p: Params, i: number): string | null {
  if (v === null) return null;
  const wrong = () => bad(`value ${i} does not fit the sort (send back the previous answer's search_after)`);
  switch (type) {
    case 'float8':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw wrong();
      return `${p.add(v)}::float8`;
    case 'text':
      if (typeof v !== 'string') throw wrong();
      return `${p.add(v)}::text`;
    case 'uuid':
      if (typeof v !== 'string' || !UUID.test(v)) throw wrong();
      return `${p.add(v.toLowerCase())}::uuid`;
    case 'boolean':
      if (typeof v !== 'boolean') throw wrong();
      return `${p.add(v)}::boolean`;
    case 'timestamptz':
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw wrong();
      return `(timestamptz 'epoch' + ${p.add(String(v))}::bigint * interval '1 microsecond')`;
    case 'jsonb':
      if (typeof v === 'object') throw wrong();
      return `${p.add(JSON.stringify(v))}::jsonb`;
  }
}

/**
 * The rows after `after` (the previous page's last sort values and id) in the order of `keys`, nulls last:
 * `(k0 after v0) OR (k0 = v0 AND k1 after v1) OR … OR (all equal AND id > v_id)`.
 */
export function afterSql(keys: SortKey[], after: unknown[], p: Params, alias: string): string {
  if (after.length !== keys.length + 1) {
    throw bad(
      `must hold ${keys.length + 1} values: the sort values and the id, as the previous answer's search_after`,
    );
  }
  const id = after[keys.length];
  if (typeof id !== 'string' || !UUID.test(id))
    throw bad(`value ${keys.length} must be the id of the last hit`);
  const values = keys.map((k, i) => keyParam(k.type, after[i], p, i));
  const col = (i: number) => keyColumn(keys, i, alias);
  const eq = (i: number) => (values[i] === null ? `${col(i)} IS NULL` : `${col(i)} = ${values[i]}`);
  const later = (i: number) =>
    values[i] === null
      ? 'FALSE'
      : `(${col(i)} ${keys[i].order === 'desc' ? '<' : '>'} ${values[i]} OR ${col(i)} IS NULL)`;
  const disjuncts = keys.map((_, i) => [...keys.slice(0, i).map((__, j) => eq(j)), later(i)].join(' AND '));
  disjuncts.push(
    [...keys.map((_, j) => eq(j)), `${alias}.id > ${p.add(id.toLowerCase())}::uuid`].join(' AND '),
  );
  return `(${disjuncts.map((d) => `(${d})`).join(' OR ')})`;
}
