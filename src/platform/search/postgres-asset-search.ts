import { Injectable } from '@nestjs/common';
import { callerGroupsSql, readableSql, seesAllAssets } from '../assets/asset-acl-sql.js';
import { SEARCH_CONFIG } from '../assets/search-document.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { Facet } from '../../base/common/http/page-list.js';
import {
  AssetSearch,
  FILTERABLE,
  SEARCH_FACETS,
  type SearchRequest,
  type SearchResult,
} from './asset-search.js';
import { highlightHtml, START, STOP } from './highlight.js';
import { SearchErrors } from './search.errors.js';
import { SearchRepository } from './search.repository.js';

const UUID_COLUMNS = new Set(['id', 'created_by_user']);
const METADATA_FIELD = /^metadata\.([A-Za-z_][A-Za-z0-9_.-]{0,99})$/;
const TITLE_HEADLINE = `StartSel=${START}, StopSel=${STOP}, HighlightAll=true`;
const VALUE_HEADLINE = `StartSel=${START}, StopSel=${STOP}, MaxWords=30, MinWords=10, MaxFragments=2`;

/** Parameters of one statement: `add(value)` returns its `$n`. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * Full-text search in the database: `websearch_to_tsquery` (it accepts any text: operators and quotes are
 * the websearch syntax, never a syntax error) over each asset's search document (GIN index). The caller's
 * domain, deletion, the ACL and the filter are conditions of the same query, so a hidden asset is never
 * counted, paged or faceted. The same SQL runs on PostgreSQL and PGlite.
 */
@Injectable()
export class PostgresAssetSearch extends AssetSearch {
  constructor(private readonly repo: SearchRepository) {
    super();
  }

  async search(auth: AuthContext, r: SearchRequest): Promise<SearchResult> {
    const p = new Params();
    const tsq = r.query ? `websearch_to_tsquery('${SEARCH_CONFIG}', ${p.add(r.query)})` : null;
    // a parameter PostgreSQL cannot type is an error: the caller's id only where the condition uses it
    const user = seesAllAssets(auth) ? null : p.add(auth.userId);
    // a full-text match checks each candidate's ACL entries, with the caller's groups read once (caller_groups)
    const perCandidate = tsq !== null && user !== null;
    const where = [
      `a.system_domain_id = ${p.add(auth.systemDomainId)}`,
      'a.date_deleted IS NULL',
      user === null
        ? 'TRUE'
        : readableSql(auth, 'a', user, perCandidate ? { perCandidate: { groups: 'caller_groups.ids' } } : {}),
      ...(tsq ? [`a.search_vector @@ ${tsq}`] : []),
      ...(r.filter && r.filter.terms.length ? [this.filterSql(r.filter, p)] : []),
    ].join(' AND ');
    const score = tsq ? `ts_rank(a.search_vector, ${tsq})` : '0::real';
    const titleHl = tsq
      ? `CASE WHEN to_tsvector('${SEARCH_CONFIG}', p.title) @@ ${tsq} THEN ts_headline('${SEARCH_CONFIG}', p.title, ${tsq}, '${TITLE_HEADLINE}') END`
      : 'NULL::text';
    // per asset of the page, its current metadata fields whose values match: [[field, fragment], ...]
    const valuesHl = tsq
      ? `(SELECT json_agg(json_build_array(mv.field_name, ts_headline('${SEARCH_CONFIG}', t.text, ${tsq}, '${VALUE_HEADLINE}'))
                          ORDER BY mv.field_name)
            FROM metadata_values mv
            CROSS JOIN LATERAL (SELECT string_agg(e.item -> 'value' #>> '{}', ' ') AS text
                                  FROM jsonb_array_elements(mv.field_values) AS e(item)) t
           WHERE mv.asset_id = p.id AND mv.version_id = p.current_version_id
             AND to_tsvector('${SEARCH_CONFIG}', coalesce(t.text, '')) @@ ${tsq})`
      : 'NULL::json';
    const order = this.orderSql(r, tsq, 'm');
    // one statement, the match set evaluated once: the facets (whose type buckets sum to the total) and the
    // page with its highlights, told apart by rn (null on facet rows)
    const rows = await this.repo.run(
      `WITH ${perCandidate ? `caller_groups AS MATERIALIZED (${callerGroupsSql(user)}), ` : ''}matching AS MATERIALIZED (
         SELECT a.id, a.title, a.type, a.status, a.date_created, a.date_modified, a.current_version_id,
                ${score} AS _score
           FROM ${perCandidate ? 'caller_groups, ' : ''}assets a WHERE ${where}
       ), page AS (
         SELECT m.id, m.title, m.current_version_id, row_number() OVER (ORDER BY ${order}) AS rn
           FROM matching m ORDER BY ${order} LIMIT ${p.add(r.perPage)} OFFSET ${p.add((r.page - 1) * r.perPage)}
       )
       SELECT NULL::uuid AS id, NULL::text AS title_hl, NULL::json AS values_hl, NULL::bigint AS rn,
              f.type, f.status, f.n
         FROM (SELECT type, status, count(*)::int AS n FROM matching GROUP BY GROUPING SETS ((type), (status))) f
       UNION ALL
       SELECT p.id, ${titleHl}, ${valuesHl}, p.rn, NULL::text, NULL::text, NULL::int FROM page p`,
      p.values,
    );
    const facetRows = rows.filter((x) => x.rn === null);
    const total = facetRows.filter((f) => f.type !== null).reduce((sum, f) => sum + (f.n ?? 0), 0);
    const facets: Record<string, Facet> = {};
    for (const field of SEARCH_FACETS) {
      const buckets = facetRows
        .filter((f) => f[field] !== null)
        .map((f) => ({ key: f[field]!, doc_count: f.n ?? 0 }))
        .sort((a, b) => b.doc_count - a.doc_count || a.key.localeCompare(b.key));
      facets[field] = { buckets, doc_count_error_upper_bound: 0, sum_other_doc_count: 0 };
    }
    const page = rows
      .filter((x): x is typeof x & { id: string } => x.rn !== null && x.id !== null)
      .sort((a, b) => Number(a.rn) - Number(b.rn));
    return {
      hits: page.map((h) => ({
        id: h.id,
        highlight: {
          ...(h.title_hl ? { title: [highlightHtml(h.title_hl)] } : {}),
          ...Object.fromEntries(
            (h.values_hl ?? []).map(([field, fragment]) => [`metadata.${field}`, [highlightHtml(fragment)]]),
          ),
        },
      })),
      total,
      facets,
    };
  }

  /** `a.<col> = value` for asset fields; `metadata.<field>`: one of the field's values equals it. */
  private filterSql(filter: NonNullable<SearchRequest['filter']>, p: Params): string {
    const parts = filter.terms.map((term, i) => {
      const value = String(term.value);
      const meta = METADATA_FIELD.exec(term.name);
      if (meta) {
        return `EXISTS (SELECT 1 FROM metadata_values mv CROSS JOIN LATERAL jsonb_array_elements(mv.field_values) e
                 WHERE mv.asset_id = a.id AND mv.version_id = a.current_version_id
                   AND mv.field_name = ${p.add(meta[1])} AND (e -> 'value') #>> '{}' = ${p.add(value)})`;
      }
      if (!(FILTERABLE as readonly string[]).includes(term.name)) {
        throw SearchErrors.INVALID({
          [`filter.terms.${i}.name`]: `must be one of ${FILTERABLE.join(', ')}, or metadata.<field>`,
        });
      }
      return `a.${term.name}::text = ${p.add(UUID_COLUMNS.has(term.name) ? value.toLowerCase() : value)}`;
    });
    return `(${parts.join(filter.operator === 'or' ? ' OR ' : ' AND ')})`;
  }

  private orderSql(r: SearchRequest, tsq: string | null, alias: string): string {
    const terms = r.sort.length
      ? r.sort
      : [{ name: tsq ? '_score' : 'date_created', order: 'desc' as const }];
    // the column names come from SEARCH_SORTABLE (validated), never from the request's text
    const order = terms.map(
      (t) =>
        `${t.name === '_score' ? '_score' : `${alias}.${t.name}`} ${t.order === 'desc' ? 'DESC' : 'ASC'}`,
    );
    return [...order, `${alias}.id ASC`].join(', ');
  }
}
