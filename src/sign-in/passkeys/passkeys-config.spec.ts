// The relying party the service is to authenticators (passkeys-config.ts): RP ID, name and origins, from
// PUBLIC_BASE_URL and the WEBAUTHN_* variables, every bad value named as a problem.
import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../app/config.js';
import { configProblems } from '../../../test/utils/fakes/config.js';
import type { BaseConfig } from '../../base/config/config.js';
import { PASSKEYS_CONFIG } from './passkeys-config.js';

/** The base settings the loader reads: only the public base URL. */
const base = (publicBaseUrl: string) => ({ http: { publicBaseUrl } }) as BaseConfig;

/** The passkeys settings for `env` over `publicBaseUrl`, and the problems found. */
function load(env: Record<string, string>, publicBaseUrl = 'https://auth.example.com') {
  const problems: string[] = [];
  const config = PASSKEYS_CONFIG.load(env, problems, base(publicBaseUrl));
  return { config, problems };
}

describe('passkeys configuration', () => {
  it('by default, the RP is the public URL’s host, named Portcullis, answering its origin only', () => {
    expect(load({})).toEqual({
      config: { rpId: 'auth.example.com', rpName: 'Portcullis', origins: ['https://auth.example.com'] },
      problems: [],
    });
  });

  it('the origin keeps a port and drops a path; the RP ID is the host alone', () => {
    expect(load({}, 'http://localhost:3000').config).toEqual({
      rpId: 'localhost',
      rpName: 'Portcullis',
      origins: ['http://localhost:3000'],
    });
    expect(load({}, 'https://example.com:8443/auth').config).toMatchObject({
      rpId: 'example.com',
      origins: ['https://example.com:8443'],
    });
  });

  it('is the namespace the app loads, under the key passkeys', () => {
    expect(PASSKEYS_CONFIG.key).toBe('passkeys');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://auth.example.com' }).passkeys).toEqual({
      rpId: 'auth.example.com',
      rpName: 'Portcullis',
      origins: ['https://auth.example.com'],
    });
  });

  describe('WEBAUTHN_RP_ID', () => {
    it.each([
      ['the host itself', 'auth.example.com', 'auth.example.com'],
      ['a parent domain', 'example.com', 'example.com'],
      ['a parent domain in capitals (lower-cased)', 'Example.COM', 'example.com'],
      ['a parent domain with spaces around', '  example.com ', 'example.com'],
    ])('accepts %s', (_name, value, rpId) => {
      expect(load({ WEBAUTHN_RP_ID: value })).toEqual({
        config: expect.objectContaining({ rpId }),
        problems: [],
      });
    });

    it('accepts a grandparent of a deeper host', () => {
      expect(load({ WEBAUTHN_RP_ID: 'example.com' }, 'https://a.b.example.com').problems).toEqual([]);
    });

    it.each([
      ['an unrelated domain', 'evil.example'],
      ['a domain the host merely ends with (no dot before it)', 'ample.com'],
      ['a subdomain of the host', 'x.auth.example.com'],
      ['a sibling of the host', 'login.example.com'],
    ])('names %s as a problem', (_name, value) => {
      const { problems } = load({ WEBAUTHN_RP_ID: value });
      expect(problems).toEqual([
        'WEBAUTHN_RP_ID must be the host of PUBLIC_BASE_URL (auth.example.com) or a parent domain of it',
      ]);
    });

    it('names a bare top-level domain (browsers refuse every ceremony under it); localhost is fine', () => {
      expect(load({ WEBAUTHN_RP_ID: 'com' }).problems).toEqual([
        'WEBAUTHN_RP_ID must be a registrable domain (example.com), not a top-level domain',
      ]);
      expect(load({}, 'http://localhost:3000').problems).toEqual([]);
    });

    it('a bad PUBLIC_BASE_URL is named once, by the base settings (no crash here)', () => {
      expect(configProblems({ PUBLIC_BASE_URL: 'not a url' })).toEqual(['PUBLIC_BASE_URL must be a URL']);
    });

    it('a bad one stops the start (loadConfig throws a ConfigError naming it)', () => {
      const problems = configProblems({
        PUBLIC_BASE_URL: 'https://auth.example.com',
        WEBAUTHN_RP_ID: 'evil.example',
      });
      expect(problems.join('\n')).toContain('WEBAUTHN_RP_ID must be the host');
    });
  });

  describe('WEBAUTHN_ORIGINS', () => {
    it('adds other origins and Android apps after the public origin, in order, ignoring blanks', () => {
      const apk = 'android:apk-key-hash:Sx4Zr3pPCiGZ3c9Zcq0PnQ4JLJ8gHt6KQb6m6R_1x3A';
      const { config, problems } = load({
        WEBAUTHN_ORIGINS: ` https://app.example.com, ,${apk},https://example.com:8443,`,
      });
      expect(problems).toEqual([]);
      expect(config.origins).toEqual([
        'https://auth.example.com',
        'https://app.example.com',
        apk,
        'https://example.com:8443',
      ]);
    });

    it('does not repeat the public origin', () => {
      const { config, problems } = load({
        WEBAUTHN_ORIGINS: 'https://auth.example.com,https://app.example.com,https://auth.example.com',
      });
      expect(problems).toEqual([]);
      expect(config.origins).toEqual(['https://auth.example.com', 'https://app.example.com']);
    });

    it.each([
      ['a URL with a path', 'https://app.example.com/login'],
      ['a URL with a trailing slash', 'https://app.example.com/'],
      ['a URL with a query', 'https://app.example.com?x=1'],
      ['a scheme other than http and https', 'ftp://app.example.com'],
      ['a host in capitals (origins are lower case)', 'https://App.example.com'],
      ['no URL at all', 'app.example.com'],
    ])('names %s as a problem', (_name, value) => {
      const { problems } = load({ WEBAUTHN_ORIGINS: `https://ok.example.com,${value}` });
      expect(problems).toEqual([
        `WEBAUTHN_ORIGINS: "${value}" is not an origin (scheme://host[:port], nothing after)`,
      ]);
    });

    it('names every bad one', () => {
      expect(load({ WEBAUTHN_ORIGINS: 'https://a.example.com/x,nope' }).problems).toHaveLength(2);
    });
  });

  describe('WEBAUTHN_RP_NAME', () => {
    it('names the RP (trimmed); blank keeps Portcullis', () => {
      expect(load({ WEBAUTHN_RP_NAME: ' Example Corp ' }).config.rpName).toBe('Example Corp');
      expect(load({ WEBAUTHN_RP_NAME: '   ' }).config.rpName).toBe('Portcullis');
    });
  });
});
