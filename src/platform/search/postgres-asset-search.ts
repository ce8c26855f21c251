import { Injectable } from '@nestjs/common';
import { callerGroupsSql, readableSql, seesAllAssets } from '../assets/asset-acl-sql.js';
import { SEARCH_CONFIG } from '../assets/search-document.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import type { Facet } from '../../base/common/http/page-list.js';
import {
  AssetSearch,
  SEARCH_FACETS,
  type CollectionHit,
  type SearchRequest,
  type SearchResult,
} from './asset-search.js';
import { checkFilter, CriteriaSql, type DocSource, Params, resolveField } from './criteria-sql.js';
import {
  ASSET_SOURCE,
  COLLECTION_METADATA,
  COLLECTION_SOURCE,
  collectionPermissionsSql,
  collectionReadableSql,
} from './doc-sources.js';
import { highlightHtml, START, STOP } from './highlight.js';
import { SearchRepository } from './search.repository.js';
import { afterSql, keysJsonSql, orderSql, sortKeys } from './sort-keys.js';

const TITLE_HEADLINE = `StartSel=${START}, StopSel=${STOP}, HighlightAll=true`;
const VALUE_HEADLINE = `StartSel=${START}, StopSel=${STOP}, MaxWords=30, MinWords=10, MaxFragments=2`;
/** GROUPING(m.type, m.status, m.doc_type) of each facet's grouping set, and of the total's. */
const GROUPING: Record<(typeof SEARCH_FACETS)[number], number> = { type: 3, status: 5, doc_type: 6 };

/** The metadata of collection `c`, field → values, as the page's objects carry it. */
const COLLECTION_METADATA_SQL = `(SELECT json_object_agg(mv.field_name,
      (SELECT coalesce(jsonb_agg(e.item -> 'value'), '[]'::jsonb) FROM jsonb_array_elements(mv.field_values) AS e(item))
      ORDER BY mv.field_name)
    FROM collection_metadata_values mv WHERE mv.collection_id = c.id)`;

/**
 * Full-text search in the database: `websearch_to_tsquery` (it accepts any text: operators and quotes are
 * the websearch syntax, never a syntax error) over each document's search document (GIN index), with the
 * criteria of the published clients (criteria-sql.ts, sort-keys.ts). The caller's domain, deletion, the ACL,
 * the filter and the facets filters are conditions of the same statement, so a hidden document is never
 * counted, paged, faceted or highlighted. The same SQL runs on PostgreSQL and PGlite.
 */
@Injectable()
export class PostgresAssetSearch extends AssetSearch {
  constructor(
    private readonly repo: SearchRepository,
    private readonly clock: Clock = new Clock(),
  ) {
    super();
  }

  async search(auth: AuthContext, r: SearchRequest): Promise<SearchResult> {
    if (r.filter) checkFilter(r.filter);
    const p = new Params();
    const criteria = new CriteriaSql(p, this.clock.now().getTime());
    const docTypes = r.docTypes?.length ? r.docTypes : ['assets'];
    const tsq = r.query ? `websearch_to_tsquery('${SEARCH_CONFIG}', ${p.add(r.query)})` : null;
    // a parameter PostgreSQL cannot type is an error: the caller's id only where a condition uses it
    const user = seesAllAssets(auth) ? null : p.add(auth.userId);
    const domain = p.add(auth.systemDomainId);
    // a full-text match checks each candidate asset's ACL entries, with the caller's groups read once
    const perCandidate = tsq !== null && user !== null && docTypes.includes('assets');
    const keys = sortKeys(r.sort, p, tsq !== null);
    // facets filters on a facet: a flag per row, so that the facet's own counts can ignore it
    const facetFilters = r.facetsFilters ?? [];
    const flagged = SEARCH_FACETS.filter((f) =>
      facetFilters.some((ff) => resolveField(ff.name).name === f && resolveField(ff.name).kind === 'column'),
    );
    const isFlagged = (name: string) => (flagged as string[]).includes(resolveField(name).name);

    const branch = (src: DocSource, from: string, alias: string, conditions: string[], extra: string) => {
      const score = tsq ? `ts_rank(${alias}.search_vector, ${tsq})::float8` : '0::float8';
      const filters = [
        ...(r.filter ? [criteria.filter(r.filter, src)] : []),
        ...facetFilters
          .map((ff, i) => ({ ff, i }))
          .filter(({ ff }) => !isFlagged(ff.name))
          .map(({ ff, i }) => criteria.term(ff, src, `facets_filters.${i}`)),
      ];
      const flags = flagged.map((f) => {
        const mine = facetFilters
          .map((ff, i) => ({ ff, i }))
          .filter(({ ff }) => isFlagged(ff.name) && resolveField(ff.name).name === f);
        return `(${mine.map(({ ff, i }) => criteria.term(ff, src, `facets_filters.${i}`)).join(' AND ')}) AS f_${f}`;
      });
      return `SELECT ${alias}.id, '${src.objectType}'::text AS doc_type, ${alias}.title, ${extra},
                ${score} AS _score${keys.map((k, i) => (k.expr ? `, ${k.expr(src)} AS k${i}` : '')).join('')}${flags.map((f) => `, ${f}`).join('')}
           FROM ${from} WHERE ${[...conditions, ...(tsq ? [`${alias}.search_vector @@ ${tsq}`] : []), ...filters].join(' AND ')}`;
    };
    const branches: string[] = [];
    if (docTypes.includes('assets')) {
      branches.push(
        branch(
          ASSET_SOURCE,
          `${perCandidate ? 'caller_groups, ' : ''}assets a`,
          'a',
          [
            `a.system_domain_id = ${domain}`,
            'a.date_deleted IS NULL',
            user === null
              ? 'TRUE'
              : readableSql(
                  auth,
                  'a',
                  user,
                  perCandidate ? { perCandidate: { groups: 'caller_groups.ids' } } : {},
                ),
          ],
          'a.type, a.status, a.current_version_id',
        ),
      );
    }
    if (docTypes.includes('collections')) {
      branches.push(
        branch(
          COLLECTION_SOURCE,
          'collections c',
          'c',
          [`c.system_domain_id = ${domain}`, 'c.date_deleted IS NULL', collectionReadableSql(auth, user)],
          'NULL::text AS type, c.status, NULL::uuid AS current_version_id',
        ),
      );
    }

    const order = orderSql(keys, 'm');
    const hitConditions = [
      ...flagged.map((f) => `m.f_${f}`),
      ...(r.searchAfter ? [afterSql(keys, r.searchAfter, p, 'm')] : []),
    ];
    const offset = r.searchAfter ? 0 : (r.page - 1) * r.perPage;
    const rows = await this.repo.run(
      `WITH ${perCandidate ? `caller_groups AS MATERIALIZED (${callerGroupsSql(user!)}), ` : ''}matching AS MATERIALIZED (
         ${branches.join('\n UNION ALL \n')}
       ), page AS (
         SELECT m.id, m.doc_type, m.title, m.current_version_id, ${keysJsonSql(keys, 'm')} AS sk,
                row_number() OVER (ORDER BY ${order}) AS rn
           FROM matching m ${hitConditions.length ? `WHERE ${hitConditions.join(' AND ')}` : ''}
          ORDER BY ${order} LIMIT ${p.add(r.perPage + 1)} OFFSET ${p.add(offset)}
       )
       SELECT g.facet, g.key, g.n, NULL::uuid AS id, NULL::text AS doc_type, NULL::text AS title_hl,
              NULL::json AS values_hl, NULL::bigint AS rn, NULL::json AS sk, NULL::json AS doc
         FROM (SELECT CASE GROUPING(m.type, m.status, m.doc_type) ${SEARCH_FACETS.map((f) => `WHEN ${GROUPING[f]} THEN '${f}'`).join(' ')} ELSE 'total' END AS facet,
                      coalesce(m.type, m.status, m.doc_type) AS key, ${this.countSql(flagged)} AS n
                 FROM matching m GROUP BY GROUPING SETS ((m.type), (m.status), (m.doc_type), ())) g
       UNION ALL
       SELECT NULL, NULL, NULL, p.id, p.doc_type, ${this.titleHl(tsq)}, ${this.valuesHl(tsq)}, p.rn, p.sk,
              ${docTypes.includes('collections') ? this.collectionDoc(auth, user) : 'NULL::json'}
         FROM page p`,
      p.values,
    );
    return this.result(rows, r.perPage);
  }

  /** The rows of the statement as the engine's answer. */
  private result(rows: Awaited<ReturnType<SearchRepository['run']>>, perPage: number): SearchResult {
    const facetRows = rows.filter((x) => x.rn === null);
    const facets: Record<string, Facet> = {};
    for (const field of SEARCH_FACETS) {
      const buckets = facetRows
        .filter((f) => f.facet === field && f.key !== null && (f.n ?? 0) > 0)
        .map((f) => ({ key: f.key!, doc_count: f.n ?? 0 }))
        .sort((a, b) => b.doc_count - a.doc_count || a.key.localeCompare(b.key));
      facets[field] = { buckets, doc_count_error_upper_bound: 0, sum_other_doc_count: 0 };
    }
    const page = rows
      .filter((x): x is typeof x & { id: string } => x.rn !== null && x.id !== null)
      .sort((a, b) => Number(a.rn) - Number(b.rn));
    const more = page.length > perPage;
    const shown = page.slice(0, perPage);
    return {
      hits: shown.map((h) => ({
        id: h.id,
        docType: h.doc_type ?? 'assets',
        highlight: {
          ...(h.title_hl ? { title: [highlightHtml(h.title_hl)] } : {}),
          ...Object.fromEntries(
            (h.values_hl ?? []).map(([field, fragment]) => [`metadata.${field}`, [highlightHtml(fragment)]]),
          ),
        },
        ...(h.doc ? { collection: h.doc as unknown as CollectionHit } : {}),
      })),
      total: facetRows.find((f) => f.facet === 'total')?.n ?? 0,
      facets,
      searchAfter: more && shown.length ? (shown[shown.length - 1].sk as unknown[]) : null,
    };
  }

  /** The count of each grouping set: a facet's ignores the facets filter on that facet, the total none. */
  private countSql(flagged: readonly string[]): string {
    if (flagged.length === 0) return 'count(*)::int';
    const all = flagged.map((f) => `m.f_${f}`).join(' AND ');
    const except = (facet: string) => flagged.filter((f) => f !== facet).map((f) => `m.f_${f}`);
    const cases = SEARCH_FACETS.map((f) => {
      const cond = except(f);
      return `WHEN ${GROUPING[f]} THEN count(*) FILTER (WHERE ${cond.length ? cond.join(' AND ') : 'TRUE'})`;
    });
    return `(CASE GROUPING(m.type, m.status, m.doc_type) ${cases.join(' ')} ELSE count(*) FILTER (WHERE ${all}) END)::int`;
  }

  private titleHl(tsq: string | null): string {
    return tsq
      ? `CASE WHEN to_tsvector('${SEARCH_CONFIG}', p.title) @@ ${tsq} THEN ts_headline('${SEARCH_CONFIG}', p.title, ${tsq}, '${TITLE_HEADLINE}') END`
      : 'NULL::text';
  }

  /** Per asset of the page, its current metadata fields whose values match: [[field, fragment], ...]. */
  private valuesHl(tsq: string | null): string {
    return tsq
      ? `CASE WHEN p.doc_type = 'assets' THEN
          (SELECT json_agg(json_build_array(mv.field_name, ts_headline('${SEARCH_CONFIG}', t.text, ${tsq}, '${VALUE_HEADLINE}'))
                          ORDER BY mv.field_name)
            FROM metadata_values mv
            CROSS JOIN LATERAL (SELECT string_agg(e.item -> 'value' #>> '{}', ' ') AS text
                                  FROM jsonb_array_elements(mv.field_values) AS e(item)) t
           WHERE mv.asset_id = p.id AND mv.version_id = p.current_version_id
             AND to_tsvector('${SEARCH_CONFIG}', coalesce(t.text, '')) @@ ${tsq}) END`
      : 'NULL::json';
  }

  /** A collection of the page as its object (read in this statement, so a search stays two statements). */
  private collectionDoc(auth: AuthContext, user: string | null): string {
    return `CASE WHEN p.doc_type = 'collections' THEN
      (SELECT json_build_object('id', c.id, 'system_domain_id', c.system_domain_id, 'title', c.title,
                'status', c.status, 'category', c.category, 'external_id', c.external_id,
                'custom_order_status', c.custom_order_status, 'parent_id', c.parent_id,
                'created_by_user', c.created_by_user, 'deleted_by_user', c.deleted_by_user,
                'date_created', c.date_created, 'date_modified', c.date_modified, 'date_deleted', c.date_deleted,
                'permissions', ${collectionPermissionsSql(auth, user)}, 'metadata', ${COLLECTION_METADATA ? COLLECTION_METADATA_SQL : 'NULL::json'})
         FROM collections c WHERE c.id = p.id) END`;
  }
}
