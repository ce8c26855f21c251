import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { Attribute, Change, Client, InvalidCredentialsError } from 'ldapts';
import { describeWithLdap, type Slapd, startSlapd, UAC_DISABLED, UAC_NORMAL } from './slapd.js';

/** Opens `url` (TLS on ldaps, StartTLS with `startTls`), runs `fn`, always unbinds. */
async function withClient<T>(
  url: string,
  fn: (client: Client) => Promise<T>,
  tls: { ca?: string; startTls?: boolean } = {},
): Promise<T> {
  const tlsOptions = tls.ca ? { ca: [tls.ca] } : {};
  // ldapts speaks TLS from the first byte whenever tlsOptions has a value, even on ldap://: StartTLS takes
  // its options in startTLS() only
  const client = new Client({
    url,
    tlsOptions: tls.startTls ? undefined : tlsOptions,
    connectTimeout: 3000,
    timeout: 3000,
  });
  try {
    if (tls.startTls) await client.startTLS(tlsOptions);
    return await fn(client);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

describeWithLdap('the slapd test directory (test/utils/slapd.ts)', () => {
  let slapd: Slapd;
  let adDn: string;
  let plainDn: string;

  beforeAll(async () => {
    slapd = await startSlapd();
    adDn = await slapd.addUser({
      cn: 'Ada Lovelace',
      givenName: 'Ada',
      mail: 'ada@corp.example',
      userPrincipalName: 'ada@corp.example',
      sAMAccountName: 'ada',
      password: 'analytical-engine',
      groups: ['engineers', 'portcullis-admins'],
      ad: true,
    });
    plainDn = await slapd.addUser({
      cn: 'Grace Hopper',
      uid: 'grace',
      mail: 'grace@corp.example',
      password: 'cobol-1959',
      groups: ['engineers'],
    });
  });

  afterAll(() => slapd?.stop());

  it('lets the service account bind over StartTLS and find a plain user by mail, with memberOf', async () => {
    const entries = await withClient(
      slapd.url,
      async (client) => {
        await client.bind(slapd.bindDn, slapd.bindPassword);
        const { searchEntries } = await client.search(slapd.baseDn, {
          scope: 'sub',
          filter: '(mail=grace@corp.example)',
        });
        return searchEntries;
      },
      { ca: slapd.caPem, startTls: true },
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ dn: plainDn, uid: 'grace', cn: 'Grace Hopper', sn: 'Hopper' });
    expect(entries[0].memberOf).toBe(`cn=engineers,${slapd.groupsDn}`);
  });

  it('lets the service account bind over ldaps:// and find an AD user by userPrincipalName', async () => {
    const entries = await withClient(
      slapd.ldapsUrl,
      async (client) => {
        await client.bind(slapd.bindDn, slapd.bindPassword);
        const { searchEntries } = await client.search(slapd.peopleDn, {
          scope: 'sub',
          filter: '(&(objectClass=user)(userPrincipalName=ada@corp.example))',
          attributes: ['memberOf', 'userAccountControl', 'mail', 'givenName', 'sAMAccountName'],
        });
        return searchEntries;
      },
      { ca: slapd.caPem },
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      dn: adDn,
      mail: 'ada@corp.example',
      givenName: 'Ada',
      sAMAccountName: 'ada',
      userAccountControl: String(UAC_NORMAL),
    });
    expect([entries[0].memberOf].flat().sort()).toEqual([
      `cn=engineers,${slapd.groupsDn}`,
      `cn=portcullis-admins,${slapd.groupsDn}`,
    ]);
  });

  it('matches AD attributes as AD does: userPrincipalName ignoring case, memberOf, the disabled bit', async () => {
    await slapd.addUser({
      cn: 'Off Boarded',
      userPrincipalName: 'off@corp.example',
      password: 'x',
      disabled: true,
      ad: true,
    });
    const dns = (filter: string) =>
      withClient(slapd.url, async (client) => {
        await client.bind(slapd.bindDn, slapd.bindPassword);
        const { searchEntries } = await client.search(slapd.peopleDn, {
          scope: 'sub',
          filter,
          attributes: ['cn'],
        });
        return searchEntries.map((e) => e.dn).sort();
      });
    expect(await dns('(userPrincipalName=ADA@Corp.Example)')).toEqual([adDn]);
    expect(await dns(`(memberOf=cn=portcullis-admins,${slapd.groupsDn})`)).toEqual([adDn]);
    expect(await dns(`(memberOf=cn=engineers,${slapd.groupsDn})`)).toEqual([adDn, plainDn].sort());
    // LDAP_MATCHING_RULE_BIT_AND on ACCOUNTDISABLE (2), the filter AD clients use for enabled accounts
    expect(await dns('(&(objectClass=user)(!(userAccountControl:1.2.840.113556.1.4.803:=2)))')).toEqual([
      adDn,
    ]);
  });

  it("keeps memberOf in step when a group changes behind the app's back (asAdmin)", async () => {
    const dn = await slapd.addUser({
      cn: 'Mover',
      uid: 'mover',
      password: 'x',
      groups: ['team-a', 'team-b'],
    });
    const memberOf = async () =>
      [
        (await slapd.asAdmin((c) => c.search(dn, { scope: 'base', attributes: ['memberOf'] })))
          .searchEntries[0].memberOf,
      ]
        .flat()
        .sort();
    expect(await memberOf()).toEqual([`cn=team-a,${slapd.groupsDn}`, `cn=team-b,${slapd.groupsDn}`]);
    // a groupOfNames cannot lose its last member: a change of membership takes a group with others in it
    await slapd.addUser({ cn: 'Stayer', password: 'x', groups: ['team-a'] });
    const leave = new Attribute({ type: 'member', values: [dn] });
    await slapd.asAdmin((c) =>
      c.modify(`cn=team-a,${slapd.groupsDn}`, new Change({ operation: 'delete', modification: leave })),
    );
    expect(await memberOf()).toEqual([`cn=team-b,${slapd.groupsDn}`]);
    await slapd.asAdmin((c) => c.del(`cn=team-b,${slapd.groupsDn}`));
    expect(await memberOf()).toEqual([]);
  });

  it('checks user passwords on bind: the right one succeeds, a wrong one is InvalidCredentialsError', async () => {
    await expect(
      withClient(slapd.url, (c) => c.bind(adDn, 'analytical-engine'), { ca: slapd.caPem, startTls: true }),
    ).resolves.toBeUndefined();
    await expect(
      withClient(slapd.ldapsUrl, (c) => c.bind(plainDn, 'cobol-1959'), { ca: slapd.caPem }),
    ).resolves.toBeUndefined();
    await expect(withClient(slapd.url, (c) => c.bind(adDn, 'difference-engine'))).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    await expect(withClient(slapd.url, (c) => c.bind(slapd.bindDn, 'nope'))).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
  });

  it('marks a disabled AD account with userAccountControl 514 but still lets it bind (the app must check)', async () => {
    const dn = await slapd.addUser({
      cn: 'Former Employee',
      userPrincipalName: 'former@corp.example',
      password: 'still-valid',
      disabled: true,
      ad: true,
    });
    const entry = await slapd.asAdmin(async (c) => (await c.search(dn, { scope: 'base' })).searchEntries[0]);
    expect(entry.userAccountControl).toBe(String(UAC_DISABLED));
    await expect(withClient(slapd.url, (c) => c.bind(dn, 'still-valid'))).resolves.toBeUndefined();
  });

  it('never shows userPassword to the service account (the rootdn sees it hashed)', async () => {
    const asService = await withClient(slapd.url, async (client) => {
      await client.bind(slapd.bindDn, slapd.bindPassword);
      return (await client.search(adDn, { scope: 'base', attributes: ['userPassword', 'cn'] })).searchEntries;
    });
    expect(asService).toHaveLength(1);
    expect(asService[0].cn).toBe('Ada Lovelace');
    // ldapts lists a requested attribute the server did not send as []
    expect(asService[0].userPassword ?? []).toEqual([]);
    const asAdmin = await slapd.asAdmin(
      async (c) => (await c.search(adDn, { scope: 'base', attributes: ['userPassword'] })).searchEntries,
    );
    expect(String(asAdmin[0].userPassword)).toMatch(/^\{SSHA\}/);
  });

  it('lets anonymous clients and users bind but not read other entries', async () => {
    const anonymous = await withClient(slapd.url, async (client) => {
      return (await client.search(slapd.peopleDn, { scope: 'sub', filter: '(mail=*)' }).catch(() => null))
        ?.searchEntries;
    });
    expect(anonymous ?? []).toHaveLength(0);
    const asUser = await withClient(slapd.url, async (client) => {
      await client.bind(plainDn, 'cobol-1959');
      const own = (await client.search(plainDn, { scope: 'base' })).searchEntries;
      const other = await client.search(adDn, { scope: 'base' }).catch(() => null);
      return { own, other: other?.searchEntries ?? [] };
    });
    expect(asUser.own.map((e) => e.dn)).toEqual([plainDn]);
    expect(asUser.other).toHaveLength(0);
  });

  it('refuses TLS to a client that does not trust the test CA', async () => {
    await expect(withClient(slapd.ldapsUrl, (c) => c.bind(slapd.bindDn, slapd.bindPassword))).rejects.toThrow(
      /self[- ]signed|unable to (get|verify)/i,
    );
    await expect(
      withClient(slapd.url, (c) => c.bind(slapd.bindDn, slapd.bindPassword), { startTls: true }),
    ).rejects.toThrow(/self[- ]signed|unable to (get|verify)/i);
  });

  it('gives a URL that accepts TCP and never answers: a client with a short timeout rejects', async () => {
    const client = new Client({ url: slapd.unreachableUrl(), connectTimeout: 300, timeout: 300 });
    const started = Date.now();
    await expect(client.bind(slapd.bindDn, slapd.bindPassword)).rejects.toThrow(/timed? ?out/i);
    expect(Date.now() - started).toBeLessThan(5000);
    await client.unbind().catch(() => undefined);
  });

  it('stops: its ports refuse connections and its directory is gone', async () => {
    const other = await startSlapd();
    const ports = [other.url, other.ldapsUrl, other.unreachableUrl()].map((u) => Number(new URL(u).port));
    expect(existsSync(other.dir)).toBe(true);
    await other.stop();
    const refused = (port: number) =>
      new Promise<boolean>((resolve) => {
        const socket = createConnection(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(false)));
        socket.once('error', () => resolve(true));
      });
    expect(await Promise.all(ports.map(refused))).toEqual([true, true, true]);
    expect(existsSync(other.dir)).toBe(false);
  });
});
