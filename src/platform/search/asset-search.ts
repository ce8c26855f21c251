import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { Facet } from '../../base/common/http/page-list.js';
import type { CriteriaFilter } from './criteria-sql.js';

/** The facets every answer carries; `type` counts assets only (collections have no type). */
export const SEARCH_FACETS = ['type', 'status', 'doc_type'] as const;
export const SEARCH_DOC_TYPES = ['assets', 'collections'] as const;
export type SearchDocType = (typeof SEARCH_DOC_TYPES)[number];

/** A search as the service understands it, whatever answers it. */
export interface SearchRequest {
  /** Free text (websearch syntax: words, "phrases", or, -word); empty: every readable document. */
  query: string;
  /** Field names as clients send them (`_score`, a column, `metadata.<field>` or a bare metadata name). */
  sort: { name: string; order: 'asc' | 'desc' }[];
  filter: CriteriaFilter | null;
  page: number;
  perPage: number;
  /** Default: assets. */
  docTypes?: SearchDocType[];
  /** Restrict the hits to these values; a facet's own counts ignore the filter on that facet. */
  facetsFilters?: { name: string; value_in: (string | number | boolean | null)[] }[];
  /** The previous answer's search_after: the page starts after that hit (page is then ignored). */
  searchAfter?: unknown[] | null;
}

/** A collection hit as the search statement reads it (collections are built there, in one statement). */
export interface CollectionHit {
  id: string;
  system_domain_id: string;
  title: string;
  status: string;
  category: string | null;
  external_id: string | null;
  custom_order_status: string;
  parent_id: string | null;
  created_by_user: string | null;
  deleted_by_user: string | null;
  date_created: string;
  date_modified: string;
  date_deleted: string | null;
  permissions: string[] | null;
  metadata: Record<string, unknown[]> | null;
}

export interface SearchResult {
  /** The page's hits in order, each with its highlighted fragments (field → fragments). */
  hits: { id: string; docType: string; highlight: Record<string, string[]>; collection?: CollectionHit }[];
  /** Matching documents the caller may read (after facets_filters). */
  total: number;
  facets: Record<string, Facet>;
  /** What the next call sends as search_after, or null when this page is the last. */
  searchAfter: unknown[] | null;
}

/**
 * The one seam between the search endpoint and the engine behind it. Today `PostgresAssetSearch` (full-text
 * search over the assets' and collections' search documents, with the ACL and deletion inside the query). An
 * engine such as OpenSearch would implement the same contract; see docs/search.md for what moving would take.
 */
export abstract class AssetSearch {
  abstract search(auth: AuthContext, request: SearchRequest): Promise<SearchResult>;
}
