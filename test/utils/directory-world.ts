import { randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';
import type { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, type UserOptions } from '../factories/index.js';
import { bearer, tokenFor } from './auth.js';
import type { TestApp } from './create-test-app.js';
import { SAML, verifyByDecision } from './saml-setup.js';
import type { Slapd, SlapdUser } from './slapd.js';

export const DIRECTORIES = '/API/auth/v1/directories/';
export const AD_LOGIN = '/API/auth/v1/auth/ad/login/';
export const GROUPS = '/API/users/v1/groups/';

/** How the app reaches the test slapd: StartTLS on ldap://, ldaps://, or plain ldap:// (no TLS at all). */
export type Transport = 'starttls' | 'ldaps' | 'plain';

/**
 * Directory settings that reach `slapd` as its service account, people under ou=people, verifying the server
 * against the harness's CA (StartTLS and ldaps). Timeouts are short: a hang should fail a test, not stall it.
 */
export function slapdSettings(
  slapd: Slapd,
  transport: Transport = 'starttls',
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    url: transport === 'ldaps' ? slapd.ldapsUrl : slapd.url,
    ...(transport === 'starttls' ? { start_tls: true } : {}),
    ...(transport === 'plain' ? {} : { ca_certificate: slapd.caPem }),
    bind_dn: slapd.bindDn,
    bind_password: slapd.bindPassword,
    base_dn: slapd.peopleDn,
    connect_timeout_ms: 3000,
    timeout_ms: 5000,
    ...over,
  };
}

/** A person to put into the directory: `local` is the part of their address before the world's @domain. */
export interface PersonSpec extends Omit<SlapdUser, 'cn' | 'password' | 'mail' | 'userPrincipalName'> {
  local: string;
  password?: string;
  /** The mail attribute: the address by default on LDAP entries, none on AD ones (the UPN is the address). */
  mail?: string | null;
}

/** A person as the directory holds them: the address they sign in with, their password and entry. */
export interface Person {
  email: string;
  password: string;
  dn: string;
}

/** The directory as the API shows it. */
export interface DirectoryView {
  id: string;
  system_domain_id: string;
  name: string;
  type: 'LDAP' | 'ACTIVE_DIRECTORY';
  enabled: boolean;
  settings: Record<string, unknown>;
  domains: string[];
}

export interface DirectoryWorld {
  domainId: string;
  /** The email domain bound to the directory (unique to the world). */
  emailDomain: string;
  /** A short random tag unique to the world (its email domain, its people's CNs). */
  tag: string;
  admin: UserEntity;
  adminAuth: Record<string, string>;
  directory: DirectoryView;
  email(local: string): string;
  /** Adds a person to slapd, AD-shaped when the directory is ACTIVE_DIRECTORY (unless `ad` says otherwise). */
  addPerson(spec: PersonSpec): Promise<Person>;
  /** A local account with the world's address `local@emailDomain`, in the world's domain unless told. */
  account(local: string, o?: UserOptions): Promise<UserEntity>;
  /** POST auth/ad/login/ (unresolved: expect the status yourself). */
  login(
    email: string,
    password: string,
    extra?: Record<string, unknown>,
  ): ReturnType<TestApp['http']['post']>;
  /** POST directories/{id}/test/ as the world's administrator → the report (200 expected). */
  probe(body?: { email?: string }): Promise<Record<string, unknown>>;
  /** PATCH the directory as the world's administrator → the directory (200 expected). */
  patch(body: Record<string, unknown>): Promise<DirectoryView>;
  /** A domain group of the world, mapped from each of `names` (group mappings) → the group's id. */
  mappedGroup(names: string[]): Promise<string>;
  /** The ids of a domain group's members. */
  membersOf(groupId: string): Promise<string[]>;
}

export interface DirectoryWorldOptions {
  type?: 'LDAP' | 'ACTIVE_DIRECTORY';
  transport?: Transport;
  /** Settings over slapdSettings(slapd, transport). */
  settings?: Record<string, unknown>;
  /** Fields of the new system domain (e.g. mfa_required). */
  domain?: Partial<SystemDomainEntity>;
  /** A label at the start of the email domain (readable logs). */
  label?: string;
  /** Bind the email domain and verify it by a super administrator's decision (default); false: bound only. */
  verified?: boolean;
}

/**
 * A system domain with an administrator, a directory of `slapd` created through the API by that administrator,
 * and an email domain of its own (`<label>-<tag>.corp.example`) bound to the directory by the administrator and
 * verified by the bootstrap super administrator's decision, as the SAML suites bind theirs (saml-setup.ts).
 */
export async function directoryWorld(
  t: TestApp,
  slapd: Slapd,
  o: DirectoryWorldOptions = {},
): Promise<DirectoryWorld> {
  const tag = randomBytes(3).toString('hex');
  const type = o.type ?? 'LDAP';
  const emailDomain = `${o.label ?? 'dir'}-${tag}.corp.example`;
  const domain = await createDomain(t, { name: `Directory ${tag}`, ...o.domain });
  const admin = await createUser(t, {
    domainId: domain.id,
    isAdmin: true,
    email: `admin-${tag}@admins.test`,
  });
  const adminAuth = bearer((await tokenFor(t, admin, { domainId: domain.id })).token);
  const created = await t.http
    .post(DIRECTORIES)
    .set(adminAuth)
    .send({ name: `Corp ${tag}`, type, settings: slapdSettings(slapd, o.transport, o.settings) })
    .expect(201);
  let directory = created.body as DirectoryView;
  await t.http
    .post(`${SAML}/domains/`)
    .set(adminAuth)
    .send({ domain: emailDomain, directory_id: directory.id })
    .expect(201);
  if (o.verified !== false) await verifyByDecision(t, emailDomain, domain.id);
  const email = (local: string) => `${local}@${emailDomain}`;
  let people = 0;

  return {
    domainId: domain.id,
    emailDomain,
    tag,
    admin,
    adminAuth,
    get directory() {
      return directory;
    },
    email,
    async addPerson(spec) {
      const { local, mail, password = `pw-${randomBytes(6).toString('hex')}`, ...rest } = spec;
      const ad = rest.ad ?? type === 'ACTIVE_DIRECTORY';
      const address = email(local);
      const fallbackMail = ad ? undefined : address;
      const dn = await slapd.addUser({
        // a CN unique in ou=people (the harness's people share one subtree)
        cn: `${local} ${tag} ${++people}`,
        sn: 'Person',
        ...rest,
        ad,
        password,
        ...(ad ? { userPrincipalName: address } : {}),
        ...(mail === null ? {} : { mail: mail ?? fallbackMail }),
      });
      return { email: address, password, dn };
    },
    account: (local, uo = {}) => createUser(t, { domainId: domain.id, email: email(local), ...uo }),
    login: (address, password, extra = {}) =>
      t.http.post(AD_LOGIN).send({ email: address, password, ...extra }),
    async probe(body = {}) {
      const res = await t.http
        .post(`${DIRECTORIES}${directory.id}/test/`)
        .set(adminAuth)
        .send(body)
        .expect(200);
      return res.body as Record<string, unknown>;
    },
    async patch(body) {
      const res = await t.http.patch(`${DIRECTORIES}${directory.id}/`).set(adminAuth).send(body).expect(200);
      directory = res.body as DirectoryView;
      return directory;
    },
    async mappedGroup(names) {
      const group = await t.http
        .post(GROUPS)
        .set(adminAuth)
        .send({ name: `mapped-${tag}-${randomBytes(3).toString('hex')}` })
        .expect(201);
      for (const name of names) {
        await t.http
          .post(`${GROUPS}mappings/`)
          .set(adminAuth)
          .send({ name, group_id: group.body.id })
          .expect(201);
      }
      return group.body.id as string;
    },
    async membersOf(groupId) {
      const res = await t.http.get(`${GROUPS}${groupId}/`).set(adminAuth).expect(200);
      return res.body.member_ids as string[];
    },
  };
}

/** A CA certificate of its own, which did not sign the test slapd's certificate. */
export async function strangerCa(): Promise<string> {
  const ca = await generate([{ name: 'commonName', value: 'Not the directory CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'basicConstraints', cA: true, critical: true }],
  });
  return ca.cert;
}

/** The audit records of `action` about `targetId` (a user, a directory). */
export function auditOf(
  t: TestApp,
  action: string,
  targetId: string,
): Promise<{ system_domain_id: string | null; target_type: string; details: Record<string, unknown> }[]> {
  return t.ds.query(
    'SELECT system_domain_id, target_type, details FROM audit_events WHERE action = $1 AND target_id = $2',
    [action, targetId],
  );
}

/** The system domains a user is a member of. */
export async function membershipsOf(t: TestApp, userId: string): Promise<string[]> {
  const rows: { system_domain_id: string }[] = await t.ds.query(
    'SELECT system_domain_id FROM user_system_domains WHERE user_id = $1 ORDER BY system_domain_id',
    [userId],
  );
  return rows.map((r) => r.system_domain_id);
}
