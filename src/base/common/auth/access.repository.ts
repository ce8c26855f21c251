import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The one statement of AccessService: a feature's registered access query (AccessService.registerQuery). */
@Injectable()
export class AccessRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Runs a checker's SQL over `$1::uuid[]` (the ids) and `$2` (the caller's domain). */
  find(sql: string, ids: string[], systemDomainId: string): Promise<{ id: string; owner_id?: string }[]> {
    // raw: each feature registers its own statement text (its tables and ownership rule), not an entity
    return this.ds.query(sql, [ids, systemDomainId]);
  }
}
