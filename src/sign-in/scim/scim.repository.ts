import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { retireMailedSecrets } from '../../base/database/mailed-secrets.js';
import { insertOwnedAccount } from '../../base/database/owned-account.js';
import type { ScimEnterprise } from '../../base/model/scim-profile.entity.js';
import { UserEntity, type UserStatus } from '../../base/model/user.entity.js';
import { ownedAccountSql } from '../login/ownership.js';

/** An account a domain owns, with what its provisioning client keeps of it. */
export interface ScimUserRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  status: UserStatus;
  date_created: Date;
  date_modified: Date;
  external_id: string | null;
  display_name: string | null;
  enterprise: ScimEnterprise | null;
  /** When the profile last changed (null: none yet): a resource changed when either did. */
  p_modified?: Date | null;
}

export interface ScimGroupRow {
  id: string;
  name: string;
  external_id: string | null;
  roles: string[];
  date_created: Date;
  date_modified: Date;
}

/** What narrows a list before the filter runs: ids, emails or external ids the filter names (null: all). */
export interface Narrowing {
  ids: string[];
  keys: string[];
  externalIds: string[];
}

/** A live provisioning token of a domain (never its secret). */
export interface ScimTokenRow {
  id: string;
  user_id: string;
  date_created: Date;
  expires: Date;
  last_used_at: Date | null;
}

const OWNED = ownedAccountSql('u', '$1');
const USER_COLUMNS = `u.id, u.email, u.first_name, u.last_name, u.status, u.date_created, u.date_modified,
  p.external_id, p.display_name, p.enterprise, p.date_modified AS p_modified`;
const USERS_FROM = `FROM users u LEFT JOIN scim_profiles p ON p.user_id = u.id AND p.system_domain_id = $1
  WHERE ${OWNED}`;
const NARROW = (n: Narrowing | null, id: string, key: string, ext: string): [string, unknown[]] =>
  n
    ? [
        ` AND (${id} = ANY($2::uuid[]) OR ${key} = ANY($3::text[]) OR ${ext} = ANY($4::text[]))`,
        [n.ids, n.keys, n.externalIds],
      ]
    : ['', []];

/**
 * Every statement of the SCIM service: the accounts a domain owns (the sign-in authority's rule, ownership.ts,
 * as SQL), their profiles, the domain's groups and their members, and the domain's provisioning tokens.
 */
@Injectable()
export class ScimRepository extends FeatureRepository {
  users(domainId: string, narrow: Narrowing | null): Promise<ScimUserRow[]> {
    const [where, params] = NARROW(narrow, 'u.id', 'u.email', 'p.external_id');
    // raw: the ownership rule is SQL of its own (EXISTS over the memberships), shared with the authority
    return this.ds.query(`SELECT ${USER_COLUMNS} ${USERS_FROM}${where} ORDER BY u.date_created, u.id`, [
      domainId,
      ...params,
    ]);
  }

  /** One owned account, locked for a change when `em` is a transaction's; undefined when not owned. */
  async user(domainId: string, id: string, em: EntityManager = this.manager, lock = false) {
    const rows: ScimUserRow[] = await em.query(
      `SELECT ${USER_COLUMNS} ${USERS_FROM} AND u.id = $2${lock ? ' FOR UPDATE OF u' : ''}`,
      [domainId, id],
    );
    return rows[0];
  }

  /** The domain's groups (kind GROUP) each user is a member of. */
  async groupsOf(em: EntityManager, domainId: string, userIds: string[]) {
    if (!userIds.length) return [];
    return em.query(
      `SELECT gm.user_id, g.id, g.name FROM group_members gm JOIN groups g ON g.id = gm.group_id
       WHERE g.system_domain_id = $1 AND g.kind = 'GROUP' AND gm.user_id = ANY($2::uuid[]) ORDER BY g.name`,
      [domainId, userIds],
    ) as Promise<{ user_id: string; id: string; name: string }[]>;
  }

  /** Any account with this (normalised) email, whoever owns it, but `exceptId`. */
  async emailTaken(em: EntityManager, email: string, exceptId?: string): Promise<boolean> {
    const found = await em.getRepository(UserEntity).findOneBy({ email });
    return !!found && found.id !== exceptId;
  }

  /** A new account of the domain alone and its membership, inside the creation's transaction. */
  insertUser(
    em: EntityManager,
    domainId: string,
    a: Pick<UserEntity, 'email' | 'first_name' | 'last_name' | 'status'>,
  ): Promise<UserEntity> {
    return insertOwnedAccount(em, {
      email: a.email,
      firstName: a.first_name,
      lastName: a.last_name,
      status: a.status,
      domainId,
    });
  }

  async updateUser(em: EntityManager, id: string, changes: Partial<UserEntity>): Promise<void> {
    await em.update(UserEntity, { id }, changes);
    if (changes.email !== undefined) await retireMailedSecrets(em, id);
  }

  async saveProfile(
    em: EntityManager,
    p: {
      userId: string;
      domainId: string;
      externalId: string | null;
      displayName: string | null;
      enterprise: ScimEnterprise;
    },
  ): Promise<void> {
    await em.query(
      `INSERT INTO scim_profiles (user_id, system_domain_id, external_id, display_name, enterprise)
       VALUES ($1, $2, $3, $4, $5::jsonb)
       ON CONFLICT (user_id) DO UPDATE SET system_domain_id = $2, external_id = $3, display_name = $4,
         enterprise = $5::jsonb, date_modified = now()`,
      [p.userId, p.domainId, p.externalId, p.displayName, JSON.stringify(p.enterprise)],
    );
  }

  /** The account as it is now, inside `em`. */
  account(em: EntityManager, id: string): Promise<UserEntity> {
    return em.getRepository(UserEntity).findOneByOrFail({ id });
  }

  /** The account goes (its memberships, tokens, group memberships and profile with it: ON DELETE CASCADE). */
  async deleteUser(em: EntityManager, id: string): Promise<void> {
    await em.delete(UserEntity, { id });
  }

  /** Which of these ids are accounts the domain owns. */
  async ownedAmong(em: EntityManager, domainId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows: { id: string }[] = await em.query(
      `SELECT u.id FROM users u WHERE u.id = ANY($2::uuid[]) AND ${OWNED}`,
      [domainId, ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  // ---- groups --------------------------------------------------------------------------------------------

  groups(domainId: string, narrow: Narrowing | null): Promise<ScimGroupRow[]> {
    const [where, params] = NARROW(narrow, 'g.id', 'lower(g.name)', 'g.external_id');
    return this.ds.query(
      `SELECT g.id, g.name, g.external_id, g.roles, g.date_created, g.date_modified FROM groups g
       WHERE g.system_domain_id = $1 AND g.kind = 'GROUP'${where} ORDER BY g.date_created, g.id`,
      [domainId, ...params],
    );
  }

  async group(domainId: string, id: string, em: EntityManager = this.manager, lock = false) {
    const rows: ScimGroupRow[] = await em.query(
      `SELECT g.id, g.name, g.external_id, g.roles, g.date_created, g.date_modified FROM groups g
       WHERE g.system_domain_id = $1 AND g.kind = 'GROUP' AND g.id = $2${lock ? ' FOR UPDATE' : ''}`,
      [domainId, id],
    );
    return rows[0];
  }

  /** The members of these groups that SCIM sees (accounts the domain owns), by group. */
  async members(em: EntityManager, domainId: string, groupIds: string[]) {
    if (!groupIds.length) return [];
    return em.query(
      `SELECT gm.group_id, u.id, u.email FROM group_members gm JOIN users u ON u.id = gm.user_id
       WHERE gm.group_id = ANY($2::uuid[]) AND ${OWNED} ORDER BY u.email`,
      [domainId, groupIds],
    ) as Promise<{ group_id: string; id: string; email: string }[]>;
  }

  async nameTaken(em: EntityManager, domainId: string, name: string, exceptId?: string): Promise<boolean> {
    const rows: { id: string }[] = await em.query(
      "SELECT id FROM groups WHERE system_domain_id = $1 AND kind = 'GROUP' AND name = $2",
      [domainId, name],
    );
    return rows.some((r) => r.id !== exceptId);
  }

  async insertGroup(em: EntityManager, domainId: string, name: string, externalId: string | null) {
    const rows: { id: string }[] = await em.query(
      `INSERT INTO groups (system_domain_id, kind, name, external_id) VALUES ($1, 'GROUP', $2, $3) RETURNING id`,
      [domainId, name, externalId],
    );
    return rows[0].id;
  }

  async updateGroup(em: EntityManager, id: string, name: string, externalId: string | null) {
    await em.query('UPDATE groups SET name = $2, external_id = $3, date_modified = now() WHERE id = $1', [
      id,
      name,
      externalId,
    ]);
  }

  async touchGroup(em: EntityManager, id: string): Promise<void> {
    await em.query('UPDATE groups SET date_modified = now() WHERE id = $1', [id]);
  }

  async deleteGroup(em: EntityManager, id: string): Promise<void> {
    await em.query('DELETE FROM groups WHERE id = $1', [id]);
  }

  /** New memberships (those already there are left alone): the user ids added. */
  async addMembers(em: EntityManager, groupId: string, userIds: string[]): Promise<string[]> {
    if (!userIds.length) return [];
    const rows: { user_id: string }[] = await em.query(
      `INSERT INTO group_members (group_id, user_id) SELECT $1, x FROM unnest($2::uuid[]) x
       ON CONFLICT DO NOTHING RETURNING user_id`,
      [groupId, userIds],
    );
    return rows.map((r) => r.user_id);
  }

  async removeMembers(em: EntityManager, groupId: string, userIds: string[]): Promise<string[]> {
    if (!userIds.length) return [];
    const rows: { user_id: string }[] = await em.query(
      'DELETE FROM group_members WHERE group_id = $1 AND user_id = ANY($2::uuid[]) RETURNING user_id',
      [groupId, userIds],
    );
    return rows.map((r) => r.user_id);
  }

  // ---- provisioning tokens -------------------------------------------------------------------------------

  tokens(domainId: string): Promise<ScimTokenRow[]> {
    return this.ds.query(
      `SELECT id, user_id, date_created, expires, last_used_at FROM tokens
       WHERE system_domain_id = $1 AND kind = 'SCIM' AND revoked_at IS NULL AND expires > now()
       ORDER BY date_created, id`,
      [domainId],
    );
  }

  async tokenExists(domainId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      "SELECT 1 FROM tokens WHERE id = $2 AND system_domain_id = $1 AND kind = 'SCIM' AND revoked_at IS NULL",
      [domainId, id],
    );
    return rows.length > 0;
  }
}
