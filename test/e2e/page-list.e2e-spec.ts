import { pageList } from '../../src/base/common/http/page-list.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

/** The one page-list helper: sort with an id tie-break, the page, the envelope, and facets over the whole list. */
describe('pageList', () => {
  let t: TestApp;
  let domainId: string;
  beforeAll(async () => {
    t = await createTestApp();
    domainId = (await createDomain(t)).id;
    for (let i = 0; i < 5; i++) await createUser(t, { domainId, status: i < 3 ? 'ACTIVE' : 'INACTIVE' });
  });
  afterAll(() => t.close());

  const list = (page: number, perPage: number, sort?: string) =>
    pageList({
      qb: t.ds
        .getRepository(UserEntity)
        .createQueryBuilder('u')
        .where('u.system_domain_id = :d', { d: domainId }),
      alias: 'u',
      q: { page, per_page: perPage, sort },
      sortable: ['email', 'status'],
      defaultSort: [{ field: 'email', order: 'ASC' }],
      path: '/API/users/v1/users/',
      query: { query: 'x' },
      view: (rows) => rows.map((u) => u.email),
      facets: ['status'],
    });

  it('pages with links and counts facets over the whole filtered list, not the page', async () => {
    const first = await list(1, 2, 'status,desc;email,asc');
    expect(first).toMatchObject({ page: 1, pages: 3, per_page: 2, total: 5, prev_url: null });
    expect(first.next_url).toBe(
      '/API/users/v1/users/?page=2&per_page=2&sort=status%2Cdesc%3Bemail%2Casc&query=x',
    );
    expect(first.facets).toEqual({
      status: {
        buckets: [
          { key: 'ACTIVE', doc_count: 3 },
          { key: 'INACTIVE', doc_count: 2 },
        ],
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
      },
    });
    const all = [
      ...first.objects,
      ...(await list(2, 2, 'status,desc;email,asc')).objects,
      ...(await list(3, 2, 'status,desc;email,asc')).objects,
    ];
    expect(new Set(all).size).toBe(5);
  });

  it('refuses a sort on a field that is not allowed', async () => {
    await expect(list(1, 2, 'password_hash,asc')).rejects.toMatchObject({ status: 400 });
  });
});
