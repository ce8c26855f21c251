import type { SelectQueryBuilder } from 'typeorm';
import { searchedPageList } from './page-list.js';

/** A query builder that records the ordering and the page it is given, and answers `rows` of `total`. */
function fakeQuery(rows: { id: string }[], total: number) {
  const calls: unknown[][] = [];
  const qb = {
    addOrderBy: (...a: unknown[]) => (calls.push(['orderBy', ...a]), qb),
    offset: (n: number) => (calls.push(['offset', n]), qb),
    limit: (n: number) => (calls.push(['limit', n]), qb),
    getManyAndCount: async () => [rows, total],
  };
  return { qb: qb as unknown as SelectQueryBuilder<{ id: string }>, calls };
}

describe('searchedPageList', () => {
  const page = (query: string | undefined, search: (text: string | undefined) => unknown) =>
    searchedPageList({
      search: search as (text: string | undefined) => SelectQueryBuilder<{ id: string }>,
      alias: 'x',
      q: { page: 1, per_page: 2, query },
      sortable: ['name'],
      defaultSort: [{ field: 'name', order: 'ASC' }],
      path: '/API/things/',
      view: (rows) => rows.map((r) => r.id),
    });

  it('searches by the trimmed query and repeats it in the links', async () => {
    const { qb, calls } = fakeQuery([{ id: 'a' }, { id: 'b' }], 3);
    const seen: (string | undefined)[] = [];
    const out = await page('  harbour  ', (text) => (seen.push(text), qb));
    expect(seen).toEqual(['harbour']);
    expect(out).toMatchObject({ objects: ['a', 'b'], total: 3, pages: 2 });
    expect(out.next_url).toContain('query=harbour');
    expect(calls).toEqual([
      ['orderBy', 'x.name', 'ASC'],
      ['orderBy', 'x.id', 'ASC'],
      ['offset', 0],
      ['limit', 2],
    ]);
  });

  it('searches with no text when the query is absent, and links carry none', async () => {
    const { qb } = fakeQuery([{ id: 'a' }], 1);
    const seen: (string | undefined)[] = [];
    const out = await page(undefined, (text) => (seen.push(text), qb));
    expect(seen).toEqual([undefined]);
    expect(out.first_url).not.toContain('query=');
  });
});
