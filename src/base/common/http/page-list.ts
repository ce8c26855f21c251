import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { type ListEnvelope, pageEnvelope, parseSort, type SortTerm } from './list-envelope.js';

/** Counts per value of one field, in the platform's facet shape. */
export interface Facet {
  buckets: { key: string; doc_count: number }[];
  doc_count_error_upper_bound: number;
  sum_other_doc_count: number;
}

export type PageList<T> = ListEnvelope<T> & { facets?: Record<string, Facet> };

export interface PageListOptions<E extends ObjectLiteral, T> {
  /** The filtered query (tenant, search terms); the helper adds sorting and the page. */
  qb: SelectQueryBuilder<E>;
  alias: string;
  q: { page: number; per_page: number; sort?: string };
  sortable: readonly string[];
  defaultSort: SortTerm[];
  path: string;
  /** Filters to repeat in the envelope's links (page, per_page and sort are added). */
  query?: Record<string, unknown>;
  view: (rows: E[]) => T[] | Promise<T[]>;
  /** Columns to count per value over the whole filtered list (not just the page), as `facets`. */
  facets?: readonly string[];
}

/**
 * A page-style list: `sort=field,order;…` over allowed fields (the id breaks ties, so equal keys never move
 * rows between pages), the page, the total, the envelope with its links, and optional facets.
 */
export async function pageList<E extends ObjectLiteral, T>(o: PageListOptions<E, T>): Promise<PageList<T>> {
  const { qb, alias, q } = o;
  const facets = o.facets?.length ? await facetCounts(qb.clone(), alias, o.facets) : undefined;
  for (const term of parseSort(q.sort, o.sortable, o.defaultSort))
    qb.addOrderBy(`${alias}.${term.field}`, term.order);
  qb.addOrderBy(`${alias}.id`, 'ASC')
    .offset((q.page - 1) * q.per_page)
    .limit(q.per_page);
  const [rows, total] = await qb.getManyAndCount();
  const envelope = pageEnvelope(await o.view(rows), total, q.page, q.per_page, o.path, {
    page: q.page,
    per_page: q.per_page,
    sort: q.sort,
    ...o.query,
  });
  return facets ? { ...envelope, facets } : envelope;
}

/**
 * A page-style list filtered by the `query` parameter, as most lists are: `search` gets it trimmed (undefined
 * when absent) and returns the filtered query, and the envelope's links repeat it.
 */
export function searchedPageList<E extends ObjectLiteral, T>(
  o: Omit<PageListOptions<E, T>, 'qb' | 'query' | 'q'> & {
    q: PageListOptions<E, T>['q'] & { query?: string };
    search: (text: string | undefined) => SelectQueryBuilder<E>;
  },
): Promise<PageList<T>> {
  const { search, ...rest } = o;
  const text = o.q.query?.trim();
  return pageList({ ...rest, qb: search(text), query: { query: text } });
}

async function facetCounts<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  alias: string,
  fields: readonly string[],
): Promise<Record<string, Facet>> {
  const out: Record<string, Facet> = {};
  for (const field of fields) {
    const rows: { key: string | null; doc_count: string }[] = await qb
      .clone()
      .select(`${alias}.${field}`, 'key')
      .addSelect('count(*)', 'doc_count')
      .groupBy(`${alias}.${field}`)
      .orderBy('doc_count', 'DESC')
      .addOrderBy('key', 'ASC')
      .getRawMany();
    out[field] = {
      buckets: rows
        .filter((r) => r.key !== null)
        .map((r) => ({ key: String(r.key), doc_count: Number(r.doc_count) })),
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
    };
  }
  return out;
}
