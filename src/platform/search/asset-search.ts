import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { Facet } from '../../base/common/http/page-list.js';

export const SEARCH_SORTABLE = [
  '_score',
  'title',
  'date_created',
  'date_modified',
  'type',
  'status',
] as const;
/** Asset fields a filter term may name (exact match); `metadata.<field>` names a metadata field. */
export const FILTERABLE = [
  'id',
  'title',
  'type',
  'status',
  'analyze_status',
  'archive_status',
  'external_id',
  'is_online',
  'media_type',
  'created_by_user',
] as const;
export const SEARCH_FACETS = ['type', 'status'] as const;

/** A search as the service understands it, whatever answers it. */
export interface SearchRequest {
  /** Free text (websearch syntax: words, "phrases", or, -word); empty: every readable asset. */
  query: string;
  sort: { name: (typeof SEARCH_SORTABLE)[number]; order: 'asc' | 'desc' }[];
  filter: { operator: 'and' | 'or'; terms: { name: string; value: string | number | boolean }[] } | null;
  page: number;
  perPage: number;
}

export interface SearchResult {
  /** The page's asset ids in order, each with its highlighted fragments (field → fragments). */
  hits: { id: string; highlight: Record<string, string[]> }[];
  /** Matching assets the caller may read. */
  total: number;
  facets: Record<string, Facet>;
}

/**
 * The one seam between the search endpoint and the engine behind it. Today `PostgresAssetSearch` (full-text
 * search over the assets' search documents, with the ACL and deletion inside the query). An engine such as
 * OpenSearch would implement the same contract; see docs/assets-metadata-search.md for what moving would take.
 */
export abstract class AssetSearch {
  abstract search(auth: AuthContext, request: SearchRequest): Promise<SearchResult>;
}
