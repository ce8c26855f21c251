import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { jobAllowedSql } from './job-access.js';

/** The job statements that are not the query builder's: the access check over ids. */
@Injectable()
export class JobsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Which of these jobs of the caller's domain the caller may read or write. */
  async allowedIds(
    auth: AuthContext,
    ids: string[],
    permission: 'read' | 'write',
  ): Promise<{ id: string }[]> {
    // raw: the access condition is shared SQL (jobAllowedSql, also in the job list), over ANY($1::uuid[])
    return (await this.ds.query(
      `SELECT j.id FROM jobs j WHERE j.id = ANY($1::uuid[]) AND j.system_domain_id = $2
          AND ${jobAllowedSql(auth, 'j', permission, '$3')}`,
      [ids, auth.systemDomainId, auth.userId],
    )) as { id: string }[];
  }
}
