import { generate } from 'selfsigned';
import {
  DIRECTORY_DEFAULTS,
  type DirectorySettings,
  validateDirectorySettings,
} from './directory-settings.js';

// What a domain administrator may save as a directory's settings (docs/federated-login.md): defaults per type,
// and every refusal with the field it names.

const BASE = { url: 'ldaps://ldap.example.com', base_dn: 'dc=example,dc=com' };

/** The settings of a valid body, or the test fails with the problems the validator found. */
function ok(raw: Record<string, unknown>, type: 'LDAP' | 'ACTIVE_DIRECTORY' = 'LDAP', allowPrivate = false) {
  const r = validateDirectorySettings(type, raw, allowPrivate);
  if ('errors' in r) throw new Error(`expected valid settings, got ${JSON.stringify(r.errors)}`);
  return r.settings;
}

/** The problems of an invalid body (the test fails when it is accepted). */
function problems(raw: unknown, type: 'LDAP' | 'ACTIVE_DIRECTORY' = 'LDAP', allowPrivate = false) {
  const r = validateDirectorySettings(type, raw, allowPrivate);
  if (!('errors' in r)) throw new Error(`expected refusal, got ${JSON.stringify(r.settings)}`);
  return r.errors;
}

describe('validateDirectorySettings: defaults', () => {
  it('an LDAP directory: inetOrgPerson by mail, the inetOrgPerson attributes, bounded timeouts, nothing else on', () => {
    expect(ok(BASE)).toEqual<DirectorySettings>({
      url: 'ldaps://ldap.example.com',
      start_tls: false,
      bind_dn: null,
      base_dn: 'dc=example,dc=com',
      user_filter: '(&(objectClass=inetOrgPerson)(mail={email}))',
      attributes: { email: 'mail', first_name: 'givenName', last_name: 'sn', groups: 'memberOf' },
      ca_certificate: null,
      connect_timeout_ms: 5_000,
      timeout_ms: 10_000,
      jit_provisioning: false,
    });
  });

  it('an Active Directory: user objects by userPrincipalName', () => {
    const s = ok(BASE, 'ACTIVE_DIRECTORY');
    expect(s.user_filter).toBe('(&(objectClass=user)(userPrincipalName={email}))');
    expect(s.attributes).toEqual(DIRECTORY_DEFAULTS.ACTIVE_DIRECTORY.attributes);
    expect(s.user_filter).not.toBe(DIRECTORY_DEFAULTS.LDAP.user_filter);
  });

  it('what was set is kept (trimmed); a partial attribute mapping is merged over the type’s defaults', () => {
    const s = ok({
      ...BASE,
      url: ' ldap://ldap.example.com:389 ',
      start_tls: true,
      bind_dn: 'cn=svc,dc=example,dc=com',
      bind_password: 'not a setting',
      user_filter: '(|(mail={email})(uid={username}))',
      attributes: { first_name: 'cn', groups: '1.2.840.113556.1.2.102' },
      connect_timeout_ms: 100,
      timeout_ms: 60_000,
      jit_provisioning: true,
    });
    expect(s).toMatchObject({
      url: 'ldap://ldap.example.com:389',
      start_tls: true,
      bind_dn: 'cn=svc,dc=example,dc=com',
      user_filter: '(|(mail={email})(uid={username}))',
      attributes: { email: 'mail', first_name: 'cn', last_name: 'sn', groups: '1.2.840.113556.1.2.102' },
      connect_timeout_ms: 100,
      timeout_ms: 60_000,
      jit_provisioning: true,
    });
    // the service account's password is sealed apart by the service, never a setting
    expect(s).not.toHaveProperty('bind_password');
  });
});

describe('validateDirectorySettings: the url', () => {
  it('is required, and must be ldap:// or ldaps://', () => {
    expect(problems({ base_dn: BASE.base_dn })['settings.url']).toMatch(/is required/);
    expect(problems({ ...BASE, url: 'http://ldap.example.com' })['settings.url']).toBe(
      'must use ldap:// or ldaps://',
    );
    expect(problems({ ...BASE, url: 'not a url' })['settings.url']).toMatch(/must be ldap:\/\/host/);
  });

  it.each([
    ['a path', 'ldap://ldap.example.com/dc=example,dc=com'],
    ['a query', 'ldap://ldap.example.com?uid'],
    ['a fragment', 'ldaps://ldap.example.com#x'],
  ])('refuses %s: the server only', (_what, url) => {
    expect(problems({ ...BASE, url })['settings.url']).toMatch(/must be the server only/);
  });

  it('accepts the server with a port and a bare trailing slash', () => {
    expect(ok({ ...BASE, url: 'ldaps://ldap.example.com:636/' }).url).toBe('ldaps://ldap.example.com:636/');
  });

  it('refuses credentials in the url (they belong in bind_dn and bind_password)', () => {
    expect(problems({ ...BASE, url: 'ldap://svc:secret@ldap.example.com' })['settings.url']).toMatch(
      /must not carry credentials/,
    );
  });

  it.each(['ldap://127.0.0.1', 'ldap://10.1.2.3:389', 'ldaps://169.254.169.254', 'ldaps://[::1]:636'])(
    'refuses the private literal %s without FEDERATION_ALLOW_PRIVATE, accepts it with',
    (url) => {
      expect(problems({ ...BASE, url })['settings.url']).toMatch(/non-public address/);
      expect(ok({ ...BASE, url }, 'LDAP', true).url).toBe(url);
    },
  );

  it('accepts a public literal address without FEDERATION_ALLOW_PRIVATE', () => {
    expect(ok({ ...BASE, url: 'ldaps://8.8.8.8' }).url).toBe('ldaps://8.8.8.8');
  });

  it('start_tls applies to ldap:// only', () => {
    const e = problems({ ...BASE, url: 'LDAPS://ldap.example.com', start_tls: true });
    expect(e['settings.start_tls']).toMatch(/applies to ldap:\/\/ only/);
    expect(ok({ ...BASE, url: 'ldap://ldap.example.com', start_tls: true }).start_tls).toBe(true);
    expect(problems({ ...BASE, start_tls: 'yes' })['settings.start_tls']).toBe('must be true or false');
  });
});

describe('validateDirectorySettings: base DN and user filter', () => {
  it.each(['example.com', 'dc=example,', '=example', 'dc=example,,dc=com'])(
    'refuses the base DN %j',
    (base_dn) => {
      expect(problems({ ...BASE, base_dn })['settings.base_dn']).toMatch(/must be a distinguished name/);
    },
  );

  it('requires a base DN, and accepts one with an escaped comma', () => {
    expect(problems({ url: BASE.url })['settings.base_dn']).toMatch(/is required/);
    expect(ok({ ...BASE, base_dn: 'ou=Sales\\, EMEA,dc=example,dc=com' }).base_dn).toBe(
      'ou=Sales\\, EMEA,dc=example,dc=com',
    );
  });

  it.each([
    ['without a placeholder', '(objectClass=person)', /must contain \{email\} or \{username\}/],
    ['outside parentheses', 'mail={email}', /in parentheses/],
    ['with an unclosed parenthesis', '(&(objectClass=person)(mail={email})', /unbalanced/],
    ['closing too early', '(mail={email}))(uid=x)', /unbalanced/],
    ['with an unknown placeholder', '(&(mail={email})(ou={department}))', /only the placeholders/],
  ])('refuses a filter %s', (_what, user_filter, why) => {
    expect(problems({ ...BASE, user_filter })['settings.user_filter']).toMatch(why);
  });
});

describe('validateDirectorySettings: keys, attributes, certificate, timeouts', () => {
  it('refuses a body that is not an object', () => {
    for (const raw of [null, 'x', ['url']]) expect(problems(raw)).toEqual({ settings: 'must be an object' });
  });

  it('refuses an unknown setting, naming it', () => {
    expect(problems({ ...BASE, password: 'x', tls: true })).toEqual({
      'settings.password': 'is not a directory setting',
      'settings.tls': 'is not a directory setting',
    });
  });

  it('refuses attribute names that are not LDAP attribute names, and keys that are not mapped', () => {
    const e = problems({
      ...BASE,
      attributes: {
        email: 'mail;binary',
        first_name: '1abc',
        last_name: '',
        groups: 7,
        phone: 'telephoneNumber',
      },
    });
    expect(e).toEqual({
      'settings.attributes.email': 'must be an LDAP attribute name',
      'settings.attributes.first_name': 'must be an LDAP attribute name',
      'settings.attributes.last_name': 'must be an LDAP attribute name',
      'settings.attributes.groups': 'must be an LDAP attribute name',
      'settings.attributes.phone': 'is not a mapped attribute',
    });
    expect(problems({ ...BASE, attributes: ['mail'] })['settings.attributes']).toMatch(/must be an object/);
  });

  it('refuses a CA certificate that is not PEM, accepts a real one', async () => {
    expect(problems({ ...BASE, ca_certificate: 'not a certificate' })['settings.ca_certificate']).toBe(
      'must be a PEM certificate',
    );
    const truncated = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    expect(problems({ ...BASE, ca_certificate: truncated })['settings.ca_certificate']).toBe(
      'must be a PEM certificate',
    );
    const { cert } = await generate([{ name: 'commonName', value: 'Example CA' }], { keyType: 'ec' });
    expect(ok({ ...BASE, ca_certificate: cert }).ca_certificate).toBe(cert.trim());
  });

  it.each([
    ['connect_timeout_ms', 99, /from 100 to 30000/],
    ['connect_timeout_ms', 30_001, /from 100 to 30000/],
    ['connect_timeout_ms', 1500.5, /from 100 to 30000/],
    ['connect_timeout_ms', '5000', /from 100 to 30000/],
    ['timeout_ms', 99, /from 100 to 60000/],
    ['timeout_ms', 60_001, /from 100 to 60000/],
  ])('refuses %s = %j', (key, value, why) => {
    expect(problems({ ...BASE, [key]: value })[`settings.${key}`]).toMatch(why);
  });

  it('collects every problem of a body at once', () => {
    const e = problems({ url: 'http://x', base_dn: 'x', user_filter: '(x)', timeout_ms: 0, extra: 1 });
    expect(Object.keys(e).sort()).toEqual([
      'settings.base_dn',
      'settings.extra',
      'settings.timeout_ms',
      'settings.url',
      'settings.user_filter',
    ]);
  });
});
