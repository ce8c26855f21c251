import { thrown } from '../../../test/utils/fakes.js';
import { ASSET_SOURCE, COLLECTION_SOURCE } from './doc-sources.js';
import {
  checkFilter,
  type CriteriaFilter,
  CriteriaSql,
  operatorOf,
  Params,
  resolveField,
} from './criteria-sql.js';

const NOW = Date.UTC(2026, 10, 29, 3, 0, 0);
const build = (f: CriteriaFilter, src = ASSET_SOURCE) => {
  const p = new Params();
  return { sql: new CriteriaSql(p, NOW).filter(f, src), values: p.values };
};
const refusal = (f: () => unknown) => ({ errors: (thrown(f) as { errors: unknown }).errors });

describe('criteria → SQL', () => {
  it('operators in any case; anything else is a 400 naming where', () => {
    expect(['AND', 'and', 'Or', 'oR'].map((o) => operatorOf(o, 'x'))).toEqual(['and', 'and', 'or', 'or']);
    expect(operatorOf(undefined, 'x')).toBe('and');
    expect(refusal(() => operatorOf('xor', 'filter.operator'))).toEqual({
      errors: { 'filter.operator': 'must be AND or OR (any case)' },
    });
  });

  it('names: a column only from the fixed list, metadata.<field> or any other name a metadata field', () => {
    expect(resolveField('title')).toEqual({ kind: 'column', name: 'title', type: 'text' });
    expect(resolveField('object_type')).toEqual({ kind: 'column', name: 'doc_type', type: 'text' });
    expect(resolveField('metadata.title')).toEqual({ kind: 'metadata', name: 'title' });
    expect(resolveField('password_hash')).toEqual({ kind: 'metadata', name: 'password_hash' });
    expect(resolveField('constructor')).toEqual({ kind: 'metadata', name: 'constructor' });
    expect(resolveField('metadata.')).toEqual({ kind: 'metadata', name: 'metadata.' });
  });

  it('no text of the request reaches the SQL: names and values are parameters', () => {
    const hostile = `x'); DROP TABLE assets; --`;
    const { sql, values } = build({
      operator: 'OR',
      terms: [
        { name: hostile, value: hostile },
        { name: 'title', value_in: [hostile] },
        { name: `metadata.${hostile}`, range: { min: hostile } },
        { name: hostile, exists: true },
      ],
    });
    expect(sql).not.toContain('DROP');
    expect(values).toEqual(expect.arrayContaining([hostile, [hostile]]));
    expect(sql).toContain(' OR ');
  });

  it('value and value_in: text equality on columns (ids in lower case), any of the metadata field’s values', () => {
    const id = 'ABCDEF00-0000-4000-8000-000000000000';
    const { sql, values } = build({
      terms: [
        { name: 'id', value_in: [id] },
        { name: 'camera', value: 'Arri' },
      ],
    });
    expect(sql).toContain('a.id::text = ANY($1::text[])');
    expect(values[0]).toEqual([id.toLowerCase()]);
    expect(sql).toMatch(
      /mv\.field_name = \$3 AND \(\(e\.item -> 'value'\) #>> '\{\}'\) = ANY\(\$2::text\[\]\)/,
    );
    expect(values.slice(1)).toEqual([['Arri'], 'camera']);
  });

  it('doc_type takes asset / collection in any form; a column a document type lacks matches nothing', () => {
    const { sql, values } = build({ terms: [{ name: 'object_type', value_in: ['collection', 'Assets'] }] });
    expect(values[0]).toEqual(['collections', 'assets']);
    expect(sql).toContain("'assets'::text::text = ANY");
    expect(build({ terms: [{ name: 'type', value: 'ASSET' }] }, COLLECTION_SOURCE).sql).toBe('(FALSE)');
    expect(build({ terms: [{ name: 'type', missing: true }] }, COLLECTION_SOURCE).sql).toBe('(NOT FALSE)');
  });

  it('exists and missing; several criteria in one term all hold', () => {
    expect(build({ terms: [{ name: 'external_id', exists: true }] }).sql).toBe(
      '((a.external_id IS NOT NULL))',
    );
    expect(build({ terms: [{ name: 'external_id', missing: true }] }).sql).toBe(
      '(NOT (a.external_id IS NOT NULL))',
    );
    expect(build({ terms: [{ name: 'external_id', exists: false }] }).sql).toBe(
      '(NOT (a.external_id IS NOT NULL))',
    );
    const both = build({ terms: [{ name: 'title', value: 'a', exists: true }] }).sql;
    expect(both).toMatch(/^\(\(.* AND .*\)\)$/);
    expect(refusal(() => build({ terms: [{ name: 'title' }] }))).toEqual({
      errors: { 'filter.terms.0': 'needs one of value, value_in, range, exists, missing' },
    });
  });

  it('range: date columns as instants (timezone for bounds without an offset), metadata as numbers, dates or text', () => {
    const dates = build({
      terms: [
        { name: 'date_created', range: { min: '2026-03-01T10:00', max: 'now', timezone: 'Europe/Oslo' } },
      ],
    });
    expect(dates.sql).toBe('((a.date_created >= $1::timestamptz AND a.date_created <= $2::timestamptz))');
    expect(dates.values).toEqual(['2026-03-01T09:00:00.000Z', '2026-11-29T03:00:00.000Z']);
    expect(build({ terms: [{ name: 'reel', range: { min: '5', max: '1e2' } }] }).sql).toContain('::numeric');
    const metaDates = build({ terms: [{ name: 'shot', range: { min: '2026-01-01Z' } }] });
    expect(metaDates.sql).toContain('>= $2::timestamptz');
    expect(metaDates.values).toEqual(['shot', '2026-01-01T00:00:00.000Z']);
    expect(build({ terms: [{ name: 'shot', range: { min: 'abc' } }] }).sql).toContain('>= $2::text');
    expect(refusal(() => build({ terms: [{ name: 'date_modified', range: { max: 'soon' } }] }))).toEqual({
      errors: { 'filter.terms.0.range.max': 'must be a date (ISO 8601, epoch ms or now-…)' },
    });
    expect(
      refusal(() => build({ terms: [{ name: 'shot', range: { min: '1', timezone: 'Mars/Base' } }] })),
    ).toEqual({
      errors: { 'filter.terms.0.range.timezone': 'must be an IANA time zone or an offset' },
    });
    expect(refusal(() => build({ terms: [{ name: 'shot', range: {} }] }))).toEqual({
      errors: { 'filter.terms.0.range': 'needs min or max' },
    });
  });

  it('nested filters: each level with its own operator; empty levels are no condition', () => {
    const { sql } = build({
      operator: 'or',
      filters: [
        {
          operator: 'and',
          terms: [
            { name: 'type', value: 'A' },
            { name: 'status', value: 'B' },
          ],
        },
        { operator: 'and', filters: [] },
      ],
    });
    expect(sql).toBe('((a.type::text = ANY($1::text[]) AND a.status::text = ANY($2::text[])) OR TRUE)');
  });

  it('bounds: 8 levels, 100 terms in all', () => {
    const deep = (n: number): CriteriaFilter => (n === 0 ? { terms: [] } : { filters: [deep(n - 1)] });
    expect(() => checkFilter(deep(7))).not.toThrow();
    expect(Object.keys((refusal(() => checkFilter(deep(8))) as { errors: object }).errors)).toEqual([
      `filter${'.filters.0'.repeat(8)}`,
    ]);
    const terms = (n: number) => Array.from({ length: n }, () => ({ name: 'type', value: 'x' }));
    expect(() => checkFilter({ filters: [{ terms: terms(50) }, { terms: terms(50) }] })).not.toThrow();
    expect(
      refusal(() => checkFilter({ terms: terms(1), filters: [{ terms: terms(50) }, { terms: terms(50) }] })),
    ).toEqual({
      errors: { filter: 'holds more than 100 terms in all' },
    });
  });
});
