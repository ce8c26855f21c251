import { RequestErrors } from '../errors/request.errors.js';

export interface ListEnvelope<T> {
  objects: T[];
  page: number;
  pages: number;
  per_page: number;
  total: number;
  first_url: string | null;
  last_url: string | null;
  next_url: string | null;
  prev_url: string | null;
}

type Query = Record<string, unknown>;

function link(path: string, query: Query, changes: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...query, ...changes })) {
    if (v === undefined || v === null || v === '') continue;
    for (const item of [v].flat()) params.append(k, String(item));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Page style: `page` + `per_page`. `path` is the request path (it starts with /API/). */
export function pageEnvelope<T>(
  objects: T[],
  total: number,
  page: number,
  perPage: number,
  path: string,
  query: Query,
): ListEnvelope<T> {
  const pages = Math.max(1, Math.ceil(total / perPage));
  return {
    objects,
    page,
    pages,
    per_page: perPage,
    total,
    first_url: link(path, query, { page: 1, per_page: perPage }),
    last_url: link(path, query, { page: pages, per_page: perPage }),
    next_url: page < pages ? link(path, query, { page: page + 1, per_page: perPage }) : null,
    prev_url: page > 1 ? link(path, query, { page: Math.min(page - 1, pages), per_page: perPage }) : null,
  };
}

/**
 * One page of a list held whole in memory (a person's passkeys, a domain's SCIM tokens, a fixed table), cut
 * here, in the page style's envelope.
 */
export function pageOfAll<T>(
  all: readonly T[],
  q: { page: number; per_page: number },
  path: string,
  query: Query = {},
): ListEnvelope<T> {
  const start = (q.page - 1) * q.per_page;
  return pageEnvelope(all.slice(start, start + q.per_page), all.length, q.page, q.per_page, path, query);
}

/**
 * Cursor style: `per_page` + `last_id` (id of the last item already seen; items ordered by id).
 * `before` is how many items precede this page, which gives `page`; there is no prev link in this style.
 */
export function cursorEnvelope<T extends { id: string }>(
  rows: T[],
  total: number,
  before: number,
  perPage: number,
  path: string,
  query: Query,
): ListEnvelope<T> {
  const hasMore = rows.length > perPage;
  const objects = hasMore ? rows.slice(0, perPage) : rows;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const { last_id: _ignored, ...lastQuery } = query;
  return {
    objects,
    page: Math.floor(before / perPage) + 1,
    pages,
    per_page: perPage,
    total,
    first_url: link(path, lastQuery, { per_page: perPage }),
    last_url: null,
    next_url: hasMore
      ? link(path, lastQuery, { per_page: perPage, last_id: objects[objects.length - 1].id })
      : null,
    prev_url: null,
  };
}

export interface SortTerm {
  field: string;
  order: 'ASC' | 'DESC';
}

/** `sort=name,asc;type,desc` → terms; unknown fields or orders are a 400 naming the allowed ones. */
export function parseSort(
  sort: string | undefined,
  allowed: readonly string[],
  fallback: SortTerm[],
): SortTerm[] {
  if (sort === undefined || sort.trim() === '') return fallback;
  const terms: SortTerm[] = [];
  for (const part of sort.split(';').filter((p) => p.trim() !== '')) {
    const [field, order = 'asc', extra] = part.split(',').map((s) => s.trim());
    if (extra !== undefined || !allowed.includes(field) || !['asc', 'desc'].includes(order.toLowerCase())) {
      throw RequestErrors.INVALID({
        sort: `sort must be field,order pairs separated by ';' with field one of ${allowed.join(', ')} and order asc or desc`,
      });
    }
    terms.push({ field, order: order.toLowerCase() === 'desc' ? 'DESC' : 'ASC' });
  }
  return terms;
}
