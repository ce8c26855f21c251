import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The origins of public OAuth clients, for the CORS preflight. */
@Injectable()
export class CorsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Whether any public OAuth client allows this origin. */
  async isAllowedOrigin(origin: string): Promise<boolean> {
    // raw: membership in a text[] column ($1 = ANY(allowed_origins)), existence only
    const rows: unknown[] = await this.ds.query(
      "SELECT 1 FROM apps WHERE type = 'OAUTH' AND oauth_client_type = 'public' AND $1 = ANY(allowed_origins) LIMIT 1",
      [origin],
    );
    return rows.length > 0;
  }

  /** Every origin a public OAuth client allows. */
  async allowedOrigins(): Promise<string[]> {
    // raw: SELECT DISTINCT unnest(…) flattens the text[] columns in the database
    const rows: { origin: string }[] = await this.ds.query(
      "SELECT DISTINCT unnest(allowed_origins) AS origin FROM apps WHERE type = 'OAUTH' AND oauth_client_type = 'public'",
    );
    return rows.map((r) => r.origin);
  }
}
