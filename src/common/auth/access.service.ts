import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../errors/api-error.js';
import { isUuid } from '../http/uuid-param.pipe.js';
import type { AuthContext } from './auth-context.js';
import type { AccessEntity } from './authenticated.decorator.js';

const TABLE: Record<AccessEntity, { sql: string; label: string }> = {
  app: {
    sql: 'SELECT id FROM apps WHERE id = ANY($1::uuid[]) AND system_domain_id = $2 AND NOT is_builtin',
    label: 'App',
  },
  token: {
    sql: 'SELECT id, user_id FROM tokens WHERE id = ANY($1::uuid[]) AND system_domain_id = $2',
    label: 'Token',
  },
  user: {
    sql: 'SELECT user_id AS id FROM user_system_domains WHERE user_id = ANY($1::uuid[]) AND system_domain_id = $2',
    label: 'User',
  },
  group: {
    sql: 'SELECT id FROM groups WHERE id = ANY($1::uuid[]) AND system_domain_id = $2',
    label: 'Group',
  },
};

/**
 * ACL checks over sets of ids: the entities must exist in the caller's domain (else 404, so other tenants'
 * ids are not even confirmed), and owner-only entities (tokens) need ownership or an administrator (else
 * 404 too, for the same reason).
 * The guard calls it for the entity named by the route; services call it for ids found in bodies.
 */
@Injectable()
export class AccessService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async require(auth: AuthContext, entity: AccessEntity, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    const { sql, label } = TABLE[entity];
    if (unique.some((id) => !isUuid(id))) throw ApiError.notFound(label);
    const rows: { id: string; user_id?: string }[] = await this.ds.query(sql, [unique, auth.systemDomainId]);
    if (rows.length !== unique.length) throw ApiError.notFound(label);
    // another user's token answers like an unknown one: a non-administrator learns nothing about its id
    if (entity === 'token' && !auth.isAdmin && rows.some((r) => r.user_id !== auth.userId)) {
      throw ApiError.notFound(label);
    }
  }
}
