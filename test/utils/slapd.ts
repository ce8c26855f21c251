import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlreadyExistsError, Attribute, Change, Client } from 'ldapts';
import { generate } from 'selfsigned';
import { freePortBelowEphemeralRange } from './ports.js';

/**
 * A real OpenLDAP server (Debian's `slapd`) for the directory sign-in tests, one private instance per suite.
 *
 * Under CI (CI=true, which .ci/run sets and where it installs slapd) a missing slapd is a FAILURE. Elsewhere
 * the README's `npm test` must pass on a fresh clone with nothing else installed, so without slapd the suites
 * are skipped, saying so; PORTCULLIS_SKIP_LDAP=1 skips them explicitly.
 */
export const SLAPD = process.env.SLAPD_PATH ?? '/usr/sbin/slapd';
export const SKIP_LDAP =
  process.env.PORTCULLIS_SKIP_LDAP === '1' || (process.env.CI !== 'true' && !existsSync(SLAPD));

/** `describe`, or `describe.skip` (with a warning naming the suite) when there is no slapd to start. */
export function describeWithLdap(name: string, fn: () => void): void {
  if (SKIP_LDAP && process.env.PORTCULLIS_SKIP_LDAP !== '1') {
    console.warn(`${name}: skipped, no slapd at ${SLAPD} (apt-get install slapd); CI runs it`);
  }
  (SKIP_LDAP ? describe.skip : describe)(name, fn);
}

const SCHEMA_DIR = process.env.SLAPD_SCHEMA_DIR ?? '/etc/ldap/schema';
const MODULE_DIR = process.env.SLAPD_MODULE_DIR ?? '/usr/lib/ldap';
// msuser (the Active Directory classes) refers to attributes of cosine, inetorgperson and nis (homeDirectory);
// it is included from the instance's directory, patched (msuserWithMatchingRules)
const SCHEMAS = ['core', 'cosine', 'inetorgperson', 'nis'];

/**
 * Debian's msuser.schema gives most attributes no matching rule, so a filter such as
 * (userPrincipalName=ada@corp.example) or (memberOf=cn=…) matches nothing, and the memberof overlay cannot
 * remove a value. Active Directory matches them (case-insensitively for names), so the copy we load has the
 * rules AD has for the attributes a sign-in uses.
 */
const MSUSER_MATCHING_RULES: Record<string, string> = {
  userPrincipalName: 'EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch',
  sAMAccountName: 'EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch',
  memberOf: 'EQUALITY distinguishedNameMatch',
  objectCategory: 'EQUALITY distinguishedNameMatch',
  userAccountControl: 'EQUALITY integerMatch',
};

function msuserWithMatchingRules(): string {
  let schema = readFileSync(join(SCHEMA_DIR, 'msuser.schema'), 'utf8');
  for (const [name, rules] of Object.entries(MSUSER_MATCHING_RULES)) {
    const definition = new RegExp(`(NAME '${name}'\\s+)(SYNTAX )`);
    if (!definition.test(schema)) throw new Error(`msuser.schema: no definition of ${name} to patch`);
    schema = schema.replace(definition, `$1${rules} $2`);
  }
  return schema;
}

export const BASE_DN = 'dc=corp,dc=example';
export const PEOPLE_DN = `ou=people,${BASE_DN}`;
export const GROUPS_DN = `ou=groups,${BASE_DN}`;
export const ADMIN_DN = `cn=admin,${BASE_DN}`;
export const SERVICE_DN = `cn=svc-portcullis,ou=service,${BASE_DN}`;

/** AD's userAccountControl: NORMAL_ACCOUNT (512), plus ACCOUNTDISABLE (2) for a disabled account. */
export const UAC_NORMAL = 512;
export const UAC_DISABLED = 514;

export interface SlapdUser {
  cn: string;
  uid?: string;
  mail?: string;
  /** AD's sign-in name (only with `ad`). */
  userPrincipalName?: string;
  /** AD's pre-Windows-2000 name (only with `ad`; msuser's `user` lacks it, so the entry gets extensibleObject). */
  sAMAccountName?: string;
  givenName?: string;
  /** Defaults to the last word of `cn` (person requires it). */
  sn?: string;
  password: string;
  /** Group cn's under ou=groups, created on demand (groupOfNames); memberOf follows through the overlay. */
  groups?: string[];
  /** AD only: userAccountControl 514 instead of 512. slapd does not enforce it: a disabled user still binds. */
  disabled?: boolean;
  /** An AD-shaped entry (objectClass user, userPrincipalName, userAccountControl) instead of inetOrgPerson. */
  ad?: boolean;
}

export interface Slapd {
  /** `ldap://127.0.0.1:<port>` (StartTLS works on it). */
  url: string;
  /** `ldaps://127.0.0.1:<port>`. */
  ldapsUrl: string;
  /** The CA that signed the server certificate (SAN IP:127.0.0.1, DNS:localhost): all a client needs to verify. */
  caPem: string;
  baseDn: string;
  peopleDn: string;
  groupsDn: string;
  /** The service account: reads every entry but never userPassword. */
  bindDn: string;
  bindPassword: string;
  /** The rootdn (no access control), for seeding and changing the directory behind the app's back. */
  adminDn: string;
  adminPassword: string;
  /** Creates a user under ou=people (and its groups), returns its DN. */
  addUser(user: SlapdUser): Promise<string>;
  /** Runs `fn` with a client bound as the rootdn (e.g. to modify or delete an entry); the client stays open. */
  asAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T>;
  /** An ldap:// URL whose port accepts TCP connections and never answers (a directory that hangs). */
  unreachableUrl(): string;
  /** The temporary directory of its configuration, certificates and database (removed by stop()). */
  dir: string;
  /** Kills slapd, closes the silent port, removes the directory. */
  stop(): Promise<void>;
}

export interface StartSlapdOptions {
  /** How long slapd may take to accept a bind (default 10 s). */
  startTimeoutMs?: number;
}

/** RFC 4514 escaping of an attribute value inside a DN. */
export function escapeDnValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)
    .replace(/^[ #]/, (c) => `\\${c}`)
    .replace(/ $/, '\\ ');
}

/** `{SSHA}` as slappasswd writes it: the directory stores a hash, as real ones do, and bind checks it. */
function ssha(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

const SERVER_NAMES = [
  { type: 7 as const, ip: '127.0.0.1' },
  { type: 2 as const, value: 'localhost' },
];

/** A CA and a server certificate it signs, EC keys (an RSA key takes a second on a loaded 2-core machine). */
async function certificates(): Promise<{ caPem: string; cert: string; key: string }> {
  const common = {
    keyType: 'ec' as const,
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 2 * 86_400_000),
  };
  const ca = await generate([{ name: 'commonName', value: 'Portcullis test directory CA' }], {
    ...common,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    ...common,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: SERVER_NAMES },
    ],
  });
  return { caPem: ca.cert, cert: server.cert, key: server.private };
}

function slapdConf(dir: string, adminPassword: string): string {
  return [
    ...SCHEMAS.map((s) => `include ${join(SCHEMA_DIR, `${s}.schema`)}`),
    `include ${join(dir, 'msuser.schema')}`,
    `modulepath ${MODULE_DIR}`,
    'moduleload back_mdb',
    'moduleload memberof',
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    `TLSCACertificateFile ${join(dir, 'ca.pem')}`,
    `TLSCertificateFile ${join(dir, 'server.pem')}`,
    `TLSCertificateKeyFile ${join(dir, 'server.key')}`,
    'database mdb',
    // a test directory: durability across a crash does not matter, fsync time does
    'dbnosync',
    `suffix "${BASE_DN}"`,
    `rootdn "${ADMIN_DN}"`,
    `rootpw ${adminPassword}`,
    `directory ${join(dir, 'db')}`,
    'index objectClass,uid,mail,userPrincipalName,cn eq',
    // memberOf on the user, kept in step with the groups' member values (refint: also on delete and rename);
    // msuser defines memberOf as a user attribute, so the entry's classes must allow it (see addUser)
    'overlay memberof',
    'memberof-refint TRUE',
    // anonymous may only bind; a user binds as itself and reads its own entry; the service account reads every
    // entry but no password (the rootdn is above access control)
    'access to attrs=userPassword by anonymous auth by self auth by * none',
    `access to * by dn.exact="${SERVICE_DN}" read by self read by anonymous auth by * none`,
    '',
  ].join('\n');
}

/** A TCP port that accepts connections and holds them without a byte of answer. */
async function silentServer(): Promise<{ server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket.on('error', () => undefined).on('close', () => sockets.delete(socket)));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return { server, sockets };
}

type Running = { child: ChildProcess; url: string; ldapsUrl: string };

/** One slapd start on fresh ports; rejects with slapd's stderr if it exits or does not accept a bind in time. */
async function launch(dir: string, adminPassword: string, timeoutMs: number): Promise<Running> {
  const [plain, secure] = [await freePortBelowEphemeralRange(), await freePortBelowEphemeralRange()];
  const url = `ldap://127.0.0.1:${plain}`;
  const ldapsUrl = `ldaps://127.0.0.1:${secure}`;
  // -d keeps slapd in the foreground (a child we can kill); level "none" still prints its errors.
  // SLAPD_DEBUG=stats (or another -d level) shows slapd's log while a suite runs.
  const debug = process.env.SLAPD_DEBUG;
  const args = ['-f', join(dir, 'slapd.conf'), '-h', `${url}/ ${ldapsUrl}/`, '-d', debug ?? 'none'];
  const child = spawn(SLAPD, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-16_000);
    if (debug) process.stderr.write(chunk);
  });
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `exited with ${signal ?? code}`));
  child.once('error', (err) => (exited = `could not be started: ${err.message}`));

  const until = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    if (exited !== null) throw new Error(`slapd ${exited} before accepting connections:\n${stderr}`);
    const client = new Client({ url, connectTimeout: 1000, timeout: 1000 });
    try {
      await client.bind(ADMIN_DN, adminPassword);
      await client.unbind();
      return { child, url, ldapsUrl };
    } catch (err) {
      lastError = (err as Error).message;
      await client.unbind().catch(() => undefined);
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(
        `slapd did not accept a bind at ${url} within ${timeoutMs} ms (last error: ${lastError}):\n${stderr}`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** The base, its OUs and the service account. */
function seed(serviceHash: string): Array<[string, Record<string, string | string[]>]> {
  const ou = (name: string): [string, Record<string, string>] => [
    `ou=${name},${BASE_DN}`,
    { objectClass: 'organizationalUnit', ou: name },
  ];
  const service = {
    objectClass: 'person',
    cn: 'svc-portcullis',
    sn: 'Portcullis',
    userPassword: serviceHash,
  };
  return [
    [BASE_DN, { objectClass: ['dcObject', 'organization'], dc: 'corp', o: 'Corp' }],
    ...['people', 'groups', 'service'].map(ou),
    [SERVICE_DN, service],
  ];
}

/** The attributes of a user entry, AD-shaped or inetOrgPerson. */
function userEntry(user: SlapdUser): Record<string, string | string[]> {
  const entry: Record<string, string | string[]> = {
    cn: user.cn,
    sn: user.sn ?? user.cn.trim().split(/\s+/).pop()!,
    userPassword: ssha(user.password),
  };
  for (const key of ['uid', 'mail', 'givenName'] as const) if (user[key]) entry[key] = user[key];
  if (!user.ad) {
    // extensibleObject lets the overlay write memberOf (a user attribute in msuser, which inetOrgPerson lacks)
    entry.objectClass = ['top', 'person', 'organizationalPerson', 'inetOrgPerson', 'extensibleObject'];
    return entry;
  }
  // sAMAccountName is in no class of msuser's (AD has it from an auxiliary class): extensibleObject allows it
  const extensible = user.sAMAccountName ? ['extensibleObject'] : [];
  Object.assign(entry, {
    objectClass: ['top', 'person', 'organizationalPerson', 'user', ...extensible],
    userAccountControl: String(user.disabled ? UAC_DISABLED : UAC_NORMAL),
    // what msuser's abstract class mstop requires of every AD object
    instanceType: '4',
    nTSecurityDescriptor: 'test',
    objectCategory: `CN=Person,CN=Schema,CN=Configuration,${BASE_DN}`,
  });
  for (const key of ['userPrincipalName', 'sAMAccountName'] as const) if (user[key]) entry[key] = user[key];
  return entry;
}

/** Starts a private slapd (seeded with the base, the OUs and the service account) in a temporary directory. */
export async function startSlapd(opts: StartSlapdOptions = {}): Promise<Slapd> {
  if (!existsSync(SLAPD)) {
    throw new Error(
      `slapd not found at ${SLAPD}. Install Debian's slapd (apt-get install -y slapd) ` +
        'or, on a developer machine without it, set PORTCULLIS_SKIP_LDAP=1 to skip this suite.',
    );
  }
  const tls = await certificates();
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-slapd-'));
  const adminPassword = randomBytes(12).toString('hex');
  const bindPassword = `svc-${randomBytes(12).toString('hex')}`;
  let running: Running | undefined;
  let silent: Awaited<ReturnType<typeof silentServer>> | undefined;
  let admin: Client | undefined;
  // an orphaned slapd would outlive a crashed jest worker and keep its ports
  const killOnExit = () => running?.child.kill('SIGKILL');
  try {
    mkdirSync(join(dir, 'db'));
    const conf = slapdConf(dir, adminPassword);
    const files = { 'ca.pem': tls.caPem, 'server.pem': tls.cert, 'server.key': tls.key, 'slapd.conf': conf };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text, { mode: 0o600 });
    writeFileSync(join(dir, 'msuser.schema'), msuserWithMatchingRules());
    // a port taken between the check and slapd's bind fails the start: try again on others
    for (let attempt = 1; !running; attempt++) {
      try {
        running = await launch(dir, adminPassword, opts.startTimeoutMs ?? 10_000);
      } catch (err) {
        if (attempt >= 3 || !/Address already in use/.test((err as Error).message)) throw err;
      }
    }
    process.once('exit', killOnExit);
    admin = new Client({ url: running.url, timeout: 5000, connectTimeout: 5000 });
    await admin.bind(ADMIN_DN, adminPassword);
    for (const [dn, attrs] of seed(ssha(bindPassword))) await admin.add(dn, attrs);
    silent = await silentServer();
  } catch (err) {
    await admin?.unbind().catch(() => undefined);
    if (running) await stopChild(running.child);
    process.removeListener('exit', killOnExit);
    silent?.server.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const { url, ldapsUrl, child } = running;
  const adminClient = admin;
  const { server: silentTcp, sockets } = silent;
  const silentPort = (silentTcp.address() as AddressInfo).port;

  const addToGroup = async (group: string, memberDn: string): Promise<void> => {
    const dn = `cn=${escapeDnValue(group)},${GROUPS_DN}`;
    try {
      await adminClient.add(dn, { objectClass: ['groupOfNames'], cn: group, member: memberDn });
    } catch (err) {
      if (!(err instanceof AlreadyExistsError)) throw err;
      const modification = new Attribute({ type: 'member', values: [memberDn] });
      await adminClient.modify(dn, new Change({ operation: 'add', modification }));
    }
  };

  return {
    url,
    ldapsUrl,
    caPem: tls.caPem,
    baseDn: BASE_DN,
    peopleDn: PEOPLE_DN,
    groupsDn: GROUPS_DN,
    bindDn: SERVICE_DN,
    bindPassword,
    adminDn: ADMIN_DN,
    adminPassword,
    async addUser(user) {
      const dn = `cn=${escapeDnValue(user.cn)},${PEOPLE_DN}`;
      await adminClient.add(dn, userEntry(user));
      for (const group of user.groups ?? []) await addToGroup(group, dn);
      return dn;
    },
    asAdmin: (fn) => fn(adminClient),
    dir,
    unreachableUrl: () => `ldap://127.0.0.1:${silentPort}`,
    async stop() {
      await adminClient.unbind().catch(() => undefined);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silentTcp.close(() => resolve()));
      await stopChild(child);
      process.removeListener('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
