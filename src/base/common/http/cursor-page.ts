import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { cursorEnvelope, type ListEnvelope } from './list-envelope.js';
import type { CursorQueryDto } from './pagination.dto.js';

/**
 * Cursor-style list over `base()` (a fresh, filtered query builder each call): items after `last_id` in id
 * order, plus the total and how many precede the page (for `page`). One more row than asked tells whether
 * there is a next page.
 */
export async function cursorPage<E extends ObjectLiteral & { id: string }, V extends { id: string }>(
  base: () => SelectQueryBuilder<E>,
  alias: string,
  q: CursorQueryDto,
  path: string,
  toViews: (rows: E[]) => V[] | Promise<V[]>,
): Promise<ListEnvelope<V>> {
  const page = base()
    .orderBy(`${alias}.id`, 'ASC')
    .take(q.per_page + 1);
  if (q.last_id) page.andWhere(`${alias}.id > :lastId`, { lastId: q.last_id });
  const [rows, total, before] = await Promise.all([
    page.getMany(),
    base().getCount(),
    q.last_id
      ? base().andWhere(`${alias}.id <= :lastId`, { lastId: q.last_id }).getCount()
      : Promise.resolve(0),
  ]);
  return cursorEnvelope(await toViews(rows), total, before, q.per_page, path, {
    per_page: q.per_page,
    last_id: q.last_id,
  });
}
