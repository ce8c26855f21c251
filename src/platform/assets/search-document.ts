/**
 * The text search configuration of the search documents and of every query over them: `simple` (lower-cased
 * words, no stemming, no stop words), since titles and metadata values are names, codes and words of any
 * language. Queries must use the same configuration, or their lexemes would not match.
 */
export const SEARCH_CONFIG = 'simple';

/**
 * The search document of assets: the title (weight A) and the values of the current version's metadata
 * (weight B). The same SQL rebuilds it after any change to either, in the change's transaction, and seeds
 * it in the benchmark (AssetsRepository.refreshSearchDocument runs it for one asset).
 */
export const SEARCH_DOCUMENT_SQL = `
  setweight(to_tsvector('${SEARCH_CONFIG}', coalesce(a.title, '')), 'A') ||
  setweight(to_tsvector('${SEARCH_CONFIG}', coalesce((
    SELECT string_agg(v.value #>> '{}', ' ')
      FROM metadata_values mv CROSS JOIN LATERAL jsonb_array_elements(mv.field_values) AS e(item)
      CROSS JOIN LATERAL (SELECT e.item -> 'value' AS value) v
     WHERE mv.asset_id = a.id AND mv.version_id = a.current_version_id), '')), 'B')`;

/**
 * The search document of collections: the title (weight A) and the values of the collection's metadata
 * (weight B, `collection_metadata_values`, the metadata feature's table, named here in SQL: this folder does
 * not import that feature). CollectionsRepository.refreshSearchDocument writes it in the transaction of every
 * change to either (the metadata feature calls CollectionsService.refreshSearchDocument); `c` is the
 * collections row.
 */
export const COLLECTION_SEARCH_DOCUMENT_SQL = `
  setweight(to_tsvector('${SEARCH_CONFIG}', coalesce(c.title, '')), 'A') ||
  setweight(to_tsvector('${SEARCH_CONFIG}', coalesce((
    SELECT string_agg(e.item -> 'value' #>> '{}', ' ')
      FROM collection_metadata_values mv CROSS JOIN LATERAL jsonb_array_elements(mv.field_values) AS e(item)
     WHERE mv.collection_id = c.id), '')), 'B')`;
