import { thrown } from '../../../test/utils/fakes.js';
import { Params } from './criteria-sql.js';
import { ASSET_SOURCE, COLLECTION_SOURCE } from './doc-sources.js';
import { afterSql, keysJsonSql, orderSql, sortKeys } from './sort-keys.js';

const ID = '0f000000-0000-4000-8000-000000000000';
const refusal = (f: () => unknown) => ({ errors: (thrown(f) as { errors: unknown }).errors });

describe('sort keys and search_after', () => {
  it('default: relevance with a query, newest first without; the id breaks ties; nulls last both ways', () => {
    const p = new Params();
    expect(orderSql(sortKeys([], p, true), 'm')).toBe('m._score DESC NULLS LAST, m.id ASC');
    expect(orderSql(sortKeys([], p, false), 'm')).toBe('m.k0 DESC NULLS LAST, m.id ASC');
  });

  it('columns from the fixed map, metadata names as parameters, columns a type lacks as typed NULLs', () => {
    const p = new Params();
    const keys = sortKeys(
      [
        { name: 'type', order: 'asc' },
        { name: 'x"; DROP TABLE assets', order: 'desc' },
      ],
      p,
      false,
    );
    expect(keys[0].expr!(ASSET_SOURCE)).toBe('a.type');
    expect(keys[0].expr!(COLLECTION_SOURCE)).toBe('NULL::text');
    expect(keys[1].expr!(ASSET_SOURCE)).toContain('mv.field_name = $1');
    expect(keys[1].expr!(ASSET_SOURCE)).toContain('ORDER BY 1 DESC LIMIT 1');
    expect(keys[1].expr!(ASSET_SOURCE)).not.toContain('DROP');
    expect(p.values).toEqual(['x"; DROP TABLE assets']);
    expect(keysJsonSql(keys, 'm')).toBe('json_build_array(m.k0, m.k1, m.id)');
  });

  it('after: each key later, or equal and the next later, … or all equal and a greater id', () => {
    const p = new Params();
    const keys = sortKeys(
      [
        { name: 'title', order: 'asc' },
        { name: 'date_created', order: 'desc' },
      ],
      p,
      false,
    );
    const sql = afterSql(keys, ['b', 1764385200000000, ID], p, 'm');
    expect(sql).toBe(
      "(((m.k0 > $1::text OR m.k0 IS NULL)) OR (m.k0 = $1::text AND (m.k1 < (timestamptz 'epoch' + $2::bigint * interval '1 microsecond') OR m.k1 IS NULL)) OR (m.k0 = $1::text AND m.k1 = (timestamptz 'epoch' + $2::bigint * interval '1 microsecond') AND m.id > $3::uuid))",
    );
    expect(p.values).toEqual(['b', '1764385200000000', ID]);
  });

  it('after a missing value: only the other missing ones, by the next keys', () => {
    const p = new Params();
    const keys = sortKeys([{ name: 'reel', order: 'asc' }], p, false);
    expect(afterSql(keys, [null, ID], p, 'm')).toBe('((FALSE) OR (m.k0 IS NULL AND m.id > $2::uuid))');
  });

  it('values that do not fit the sort are a 400', () => {
    const keys = sortKeys([{ name: '_score', order: 'desc' }], new Params(), true);
    for (const after of [[1], [1, 'x'], ['1', ID], [1, ID, 2], [Infinity, ID], [{}, ID]]) {
      expect(
        Object.keys((refusal(() => afterSql(keys, after, new Params(), 'm')) as { errors: object }).errors),
      ).toEqual(['search_after']);
    }
    expect(() => afterSql(keys, [0.25, ID], new Params(), 'm')).not.toThrow();
  });
});
