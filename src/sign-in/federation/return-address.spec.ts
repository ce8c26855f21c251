import { originOf, trustedReturn, withParam } from './return-address.js';

// Where a browser may be sent back after a tenant's authenticator: the open-redirect rule of federated sign-in.

const SERVICE = 'https://auth.example';
const APP = 'https://media.tenant.example/app/';

describe('trustedReturn', () => {
  it('keeps a path of the service, on the service’s origin', () => {
    expect(trustedReturn(SERVICE, APP, '/oauth/authorize?client_id=a&state=s')).toBe(
      'https://auth.example/oauth/authorize?client_id=a&state=s',
    );
    expect(trustedReturn(`${SERVICE}/`, null, '/')).toBe('https://auth.example/');
  });

  it.each([
    ['a protocol-relative address', '//evil.example/phish'],
    ['a backslash (browsers read /\\ as //)', '/\\evil.example'],
    ['a backslash later in the path', '/ok\\..\\x'],
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a foreign origin', 'https://evil.example/'],
    ['a look-alike of the app’s origin', 'https://media.tenant.example.evil.example/'],
    ['the app’s host over another scheme', 'http://media.tenant.example/app/'],
    ['the app’s host on another port', 'https://media.tenant.example:8443/app/'],
    ['something that is not a URL', 'not a url'],
  ])('refuses %s: the domain’s web app instead', (_what, wanted) => {
    expect(trustedReturn(SERVICE, APP, wanted)).toBe(APP);
  });

  it('keeps an address on the service’s own origin, and on the domain’s web app’s', () => {
    expect(trustedReturn(SERVICE, APP, 'https://auth.example/account?x=1')).toBe(
      'https://auth.example/account?x=1',
    );
    expect(trustedReturn(SERVICE, APP, 'https://media.tenant.example/library#top')).toBe(
      'https://media.tenant.example/library#top',
    );
  });

  it('nothing asked for: the domain’s web app', () => {
    expect(trustedReturn(SERVICE, APP, null)).toBe(APP);
    expect(trustedReturn(SERVICE, APP, undefined)).toBe(APP);
    expect(trustedReturn(SERVICE, APP, '')).toBe(APP);
  });

  it('without a domain web app (none, or not an http(s) address): the service’s root', () => {
    expect(trustedReturn(SERVICE, null, 'https://evil.example/')).toBe('https://auth.example/');
    expect(trustedReturn(SERVICE, null, undefined)).toBe('https://auth.example/');
    expect(trustedReturn(SERVICE, 'javascript:alert(1)', 'javascript:alert(1)')).toBe(
      'https://auth.example/',
    );
  });

  it('refuses an address over 2000 characters, even a path of the service', () => {
    const long = `/${'a'.repeat(2000)}`;
    expect(trustedReturn(SERVICE, APP, long)).toBe(APP);
    const fits = `/${'a'.repeat(1999)}`;
    expect(trustedReturn(SERVICE, APP, fits)).toBe(`${SERVICE}${fits}`);
  });
});

describe('originOf', () => {
  it('the origin of an http(s) URL, else null', () => {
    expect(originOf('https://a.example:8443/x?y')).toBe('https://a.example:8443');
    expect(originOf('http://a.example/')).toBe('http://a.example');
    expect(originOf('ftp://a.example/')).toBeNull();
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('/relative')).toBeNull();
  });
});

describe('withParam', () => {
  it('adds a query parameter with ? or &, its value URL-encoded', () => {
    expect(withParam('https://a.example/cb', 'code', 'x y')).toBe('https://a.example/cb?code=x%20y');
    expect(withParam('https://a.example/cb?state=s', 'code', 'a&b=c')).toBe(
      'https://a.example/cb?state=s&code=a%26b%3Dc',
    );
    expect(withParam('/oauth/authorize?client_id=a', 'oauth_code', 'k/+=')).toBe(
      '/oauth/authorize?client_id=a&oauth_code=k%2F%2B%3D',
    );
  });
});
