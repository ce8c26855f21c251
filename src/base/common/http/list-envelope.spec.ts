import { ApiError } from '../errors/api-error.js';
import { cursorEnvelope, pageEnvelope, pageOfAll, parseSort } from './list-envelope.js';

describe('pageEnvelope', () => {
  it('links pages with paths that start with /API/', () => {
    const env = pageEnvelope([1, 2], 25, 2, 10, '/API/users/v1/users/', { query: 'a' });
    expect(env).toMatchObject({ page: 2, pages: 3, per_page: 10, total: 25 });
    expect(env.next_url).toBe('/API/users/v1/users/?query=a&page=3&per_page=10');
    expect(env.prev_url).toBe('/API/users/v1/users/?query=a&page=1&per_page=10');
    expect(env.last_url).toBe('/API/users/v1/users/?query=a&page=3&per_page=10');
  });

  it('has no next or prev on a single page', () => {
    const env = pageEnvelope([], 0, 1, 10, '/API/x/', {});
    expect(env).toMatchObject({ pages: 1, next_url: null, prev_url: null });
  });
});

describe('pageOfAll', () => {
  const all = ['a', 'b', 'c', 'd', 'e'];

  it('cuts the page out of the whole list, counting the whole', () => {
    const env = pageOfAll(all, { page: 2, per_page: 2 }, '/API/x/', { query: 'q' });
    expect(env).toMatchObject({ objects: ['c', 'd'], total: 5, pages: 3, page: 2 });
    expect(env.next_url).toBe('/API/x/?query=q&page=3&per_page=2');
  });

  it('a page past the end is empty, the total still counted', () => {
    expect(pageOfAll(all, { page: 4, per_page: 2 }, '/API/x/')).toMatchObject({ objects: [], total: 5 });
  });
});

describe('cursorEnvelope', () => {
  it('carries last_id in next_url when more rows exist', () => {
    const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const env = cursorEnvelope(rows, 5, 0, 2, '/API/auth/v1/apps/', {});
    expect(env.objects).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(env.next_url).toBe('/API/auth/v1/apps/?per_page=2&last_id=b');
    expect(env).toMatchObject({ page: 1, pages: 3, total: 5 });
  });

  it('ends without next_url', () => {
    expect(cursorEnvelope([{ id: 'a' }], 3, 2, 2, '/API/x/', { last_id: 'z' }).next_url).toBeNull();
  });
});

describe('parseSort', () => {
  it('parses pairs', () => {
    expect(parseSort('name,asc;date_created,DESC', ['name', 'date_created'], [])).toEqual([
      { field: 'name', order: 'ASC' },
      { field: 'date_created', order: 'DESC' },
    ]);
  });
  it('rejects unknown fields and orders', () => {
    expect(() => parseSort('password,asc', ['name'], [])).toThrow(ApiError);
    expect(() => parseSort('name,sideways', ['name'], [])).toThrow(ApiError);
  });
  it('falls back when absent', () => {
    expect(parseSort(undefined, ['name'], [{ field: 'name', order: 'ASC' }])).toEqual([
      { field: 'name', order: 'ASC' },
    ]);
  });
});
