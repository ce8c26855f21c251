import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * One row of the search statement: a facet row (rn null: `facet` is the facet's name or `total`, `key` its
 * bucket, `n` the count) or a hit of the page with its highlights, its sort values (`sk`, with the id last)
 * and, for a collection, the collection itself (`doc`).
 */
export interface SearchRow {
  facet: string | null;
  key: string | null;
  n: number | null;
  id: string | null;
  doc_type: string | null;
  title_hl: string | null;
  values_hl: [string, string][] | null;
  rn: string | null;
  sk: unknown[] | null;
  doc: Record<string, unknown> | null;
}

/** Runs the search statement PostgresAssetSearch builds. */
@Injectable()
export class SearchRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The full-text statement: built by PostgresAssetSearch from fixed fragments (every value a numbered
   * parameter of `values`).
   */
  async run(sql: string, values: unknown[]): Promise<SearchRow[]> {
    // raw: a MATERIALIZED CTE, GROUPING SETS facets, row_number() and ts_headline highlights in one statement
    return (await this.ds.query(sql, values)) as SearchRow[];
  }
}
