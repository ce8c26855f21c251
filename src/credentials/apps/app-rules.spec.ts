import { ApiError } from '../../base/common/errors/api-error.js';
import { type AppShape, checkScenario, normalizeOrigins, normalizeRedirectUris } from './app-rules.js';

const base: AppShape = {
  type: 'OAUTH',
  oauth_client_type: 'confidential',
  default_user_id: null,
  allowed_scopes: [],
  redirect_uris: ['https://app.example.com/cb'],
  allowed_origins: [],
  post_logout_redirect_uris: [],
};

describe('app rules', () => {
  it('drops blank redirect URIs and rejects relative ones and fragments', () => {
    expect(normalizeRedirectUris(['', ' https://a.example/cb ', '  ']).uris).toEqual([
      'https://a.example/cb',
    ]);
    expect(normalizeRedirectUris(['/cb']).error).toMatch(/full URL/);
    expect(normalizeRedirectUris(['https://a.example/cb#x']).error).toMatch(/fragment/);
    expect(normalizeRedirectUris(['javascript:alert(1)']).error).toMatch(/forbidden/);
    expect(normalizeRedirectUris(['blob:https://a.example/0b5f']).error).toMatch(/forbidden/);
    expect(normalizeRedirectUris(['https://user:pass@a.example/cb']).error).toMatch(/user information/);
    expect(normalizeRedirectUris(['https://trusted.example@evil.example/cb']).error).toMatch(
      /user information/,
    );
    expect(normalizeRedirectUris(['com.example.app:/oauth']).uris).toEqual(['com.example.app:/oauth']);
  });

  it('refuses an empty fragment and an http(s) URI without //', () => {
    expect(normalizeRedirectUris(['https://a.example/cb#']).error).toMatch(/fragment/);
    expect(normalizeRedirectUris(['https://a.example/cb?x=1#']).error).toMatch(/fragment/);
    expect(normalizeRedirectUris(['https:evil.example']).error).toMatch(/scheme:\/\/host/);
    expect(normalizeRedirectUris(['https:/evil.example/cb']).error).toMatch(/scheme:\/\/host/);
    expect(normalizeRedirectUris(['http:\\\\evil.example/cb']).error).toMatch(/scheme:\/\/host/);
  });

  it('stores the URL standard’s form, duplicates removed after it', () => {
    expect(
      normalizeRedirectUris([
        'HTTPS://A.Example:443/cb',
        'https://a.example/cb',
        'https://a.example',
        'https://a.example/a b',
        'com.example.app:/oauth',
      ]).uris,
    ).toEqual([
      'https://a.example/cb',
      'https://a.example/',
      'https://a.example/a%20b',
      'com.example.app:/oauth',
    ]);
  });

  it('accepts only bare origins', () => {
    expect(normalizeOrigins(['https://a.example:8443/']).origins).toEqual(['https://a.example:8443']);
    expect(normalizeOrigins(['https://a.example/path']).error).toBeDefined();
  });

  it.each([
    ['service account with OAuth fields', { ...base, type: 'PAT' as const }, 'oauth_client_type'],
    ['OAuth app without client type', { ...base, oauth_client_type: null }, 'oauth_client_type'],
    ['server-side app without redirect URI', { ...base, redirect_uris: [] }, 'redirect_uris'],
    ['confidential app with origins', { ...base, allowed_origins: ['https://a.example'] }, 'allowed_origins'],
    [
      'service account with post-logout redirect URIs',
      {
        ...base,
        type: 'PAT' as const,
        oauth_client_type: null,
        redirect_uris: [],
        post_logout_redirect_uris: ['https://app.example.com/bye'],
      },
      'post_logout_redirect_uris',
    ],
  ])('refuses a %s', (_name, app, field) => {
    try {
      checkScenario(app);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect(Object.keys((e as ApiError).errors)).toContain(field);
    }
  });

  it('accepts the four scenarios', () => {
    expect(() =>
      checkScenario({
        ...base,
        type: 'PAT',
        oauth_client_type: null,
        redirect_uris: [],
        default_user_id: null,
      }),
    ).not.toThrow();
    expect(() => checkScenario({ ...base, default_user_id: 'u', redirect_uris: [] })).not.toThrow();
    expect(() => checkScenario(base)).not.toThrow();
    expect(() =>
      checkScenario({ ...base, oauth_client_type: 'public', allowed_origins: ['https://a.example'] }),
    ).not.toThrow();
  });

  it('accepts post-logout redirect URIs on OAuth apps, confidential and public', () => {
    const bye = ['https://app.example.com/bye'];
    expect(() => checkScenario({ ...base, post_logout_redirect_uris: bye })).not.toThrow();
    expect(() =>
      checkScenario({ ...base, oauth_client_type: 'public', post_logout_redirect_uris: bye }),
    ).not.toThrow();
  });
});
