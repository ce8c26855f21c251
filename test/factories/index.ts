import { randomUUID } from 'node:crypto';
import { AppEntity, type AppType, type OAuthClientType } from '../../src/base/model/app.entity.js';
import { capOf } from '../../src/base/common/auth/rights.js';
import { hashPassword } from '../../src/base/common/crypto/passwords.js';
import { GroupMemberEntity } from '../../src/base/model/group-member.entity.js';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import type { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { SystemDomainsService } from '../../src/accounts/system-domains/system-domains.service.js';
import { ActingRightsService } from '../../src/credentials/tokens/acting-rights.service.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import type { TestApp } from '../utils/create-test-app.js';

export const DEFAULT_PASSWORD = 'correct-horse-battery';

/**
 * One real argon2id hash per password, shared by the users a suite creates with it: hashing costs about 15 ms
 * of CPU, and the suites create users by the hundred. Sign-ins still verify against it with argon2id; the
 * service's own hashing (registration, password changes) is untouched.
 */
const hashes = new Map<string, Promise<string>>();
function hashOf(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

export async function createDomain(
  t: TestApp,
  fields: Partial<SystemDomainEntity> = {},
): Promise<SystemDomainEntity> {
  return t.ds.transaction((em) =>
    t
      .get(SystemDomainsService)
      .create(em, { name: `Domain ${randomUUID().slice(0, 8)}`, base_url: 'https://d.example', ...fields }),
  );
}

export interface UserOptions {
  domainId?: string;
  /** Extra domains the user is also a member of. */
  alsoIn?: string[];
  roles?: string[];
  /** Administrator of the primary domain (not of `alsoIn`). */
  isAdmin?: boolean;
  isSuperAdmin?: boolean;
  status?: 'ACTIVE' | 'INACTIVE';
  password?: string | null;
  email?: string;
}

/** A user with a password, membership(s), and (with `roles`) a group in their domain carrying those roles. */
export async function createUser(t: TestApp, o: UserOptions = {}): Promise<UserEntity> {
  const domainId = o.domainId ?? t.domainId;
  const password = o.password === undefined ? DEFAULT_PASSWORD : o.password;
  const user = await t.ds.getRepository(UserEntity).save(
    t.ds.getRepository(UserEntity).create({
      email: o.email ?? `user-${randomUUID().slice(0, 8)}@example.com`,
      first_name: 'Test',
      last_name: 'User',
      password_hash: password ? await hashOf(password) : null,
      status: o.status ?? 'ACTIVE',
      is_super_admin: o.isSuperAdmin ?? false,
      system_domain_id: domainId,
    }),
  );
  for (const d of [domainId, ...(o.alsoIn ?? [])]) {
    // administrator of the primary domain only: admin rights are per domain
    await t.ds
      .getRepository(UserSystemDomainEntity)
      .insert({ user_id: user.id, system_domain_id: d, is_admin: d === domainId && (o.isAdmin ?? false) });
  }
  if (o.roles?.length) {
    const group = await t.ds
      .getRepository(GroupEntity)
      .save({ system_domain_id: domainId, name: `g-${randomUUID().slice(0, 8)}`, roles: o.roles });
    await t.ds.getRepository(GroupMemberEntity).insert({ group_id: group.id, user_id: user.id });
  }
  return user;
}

export async function createApp(
  t: TestApp,
  o: {
    domainId?: string;
    type?: AppType;
    clientType?: OAuthClientType | null;
    defaultUserId?: string | null;
    scopes?: string[];
    redirectUris?: string[];
    name?: string;
    /** The app's ceiling; by default the acting user's rights now, as if an administrator holding them set it. */
    actingCap?: string[] | null;
  } = {},
): Promise<AppEntity> {
  const domainId = o.domainId ?? t.domainId;
  let cap = o.actingCap;
  if (cap === undefined && o.defaultUserId) {
    const rights = await t.get(ActingRightsService).rightsOf(o.defaultUserId, domainId);
    cap = rights ? capOf(rights) : [];
  }
  return t.ds.getRepository(AppEntity).save(
    t.ds.getRepository(AppEntity).create({
      system_domain_id: domainId,
      name: o.name ?? `app-${randomUUID().slice(0, 8)}`,
      type: o.type ?? 'PAT',
      oauth_client_type: o.clientType ?? null,
      default_user_id: o.defaultUserId ?? null,
      acting_rights_cap: cap ?? null,
      allowed_scopes: o.scopes ?? [],
      redirect_uris: o.redirectUris ?? [],
    }),
  );
}
