import { assertReachable, literalHostProblem, PrivateHostError } from './network-guard.js';

// The SSRF rule of federated sign-in: a tenant's directory or OpenID provider must be on public addresses
// unless FEDERATION_ALLOW_PRIVATE. Literal addresses only (and `localhost`, which /etc/hosts answers): no
// network is asked.

const PRIVATE = [
  '127.0.0.1',
  '10.0.0.1',
  '10.255.1.2',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '::1',
  '[::1]',
  'fe80::1',
  'fd00::1',
  '[::ffff:127.0.0.1]',
  '::ffff:169.254.169.254',
  '[::ffff:7f00:1]',
];
const PUBLIC = ['8.8.8.8', '93.184.216.34', '2001:4860:4860::8888', '[2606:4700:4700::1111]'];

describe('literalHostProblem', () => {
  it.each(PRIVATE)('refuses %s without FEDERATION_ALLOW_PRIVATE, accepts it with', (host) => {
    expect(literalHostProblem(host, false)).toMatch(/must not be a private, loopback, link-local/);
    expect(literalHostProblem(host, true)).toBeNull();
  });

  it.each(PUBLIC)('accepts the public address %s', (host) => {
    expect(literalHostProblem(host, false)).toBeNull();
  });

  it('leaves a name to the check at each connection (null at save time)', () => {
    expect(literalHostProblem('localhost', false)).toBeNull();
    expect(literalHostProblem('ldap.example.com', false)).toBeNull();
  });
});

describe('assertReachable', () => {
  it.each(PRIVATE)('refuses %s without FEDERATION_ALLOW_PRIVATE', async (host) => {
    const refused = assertReachable(host, false);
    await expect(refused).rejects.toBeInstanceOf(PrivateHostError);
    await expect(assertReachable(host, false)).rejects.toThrow(`${host} is not a public address`);
  });

  it.each(PUBLIC)('lets the public address %s through', async (host) => {
    await expect(assertReachable(host, false)).resolves.toBeUndefined();
  });

  it('refuses the name localhost: it resolves to a loopback address', async () => {
    await expect(assertReachable('localhost', false)).rejects.toThrow(
      /^localhost resolves to (127\.0\.0\.1|::1), not a public address$/,
    );
  });

  it.each([...PRIVATE, 'localhost'])('accepts %s with FEDERATION_ALLOW_PRIVATE', async (host) => {
    await expect(assertReachable(host, true)).resolves.toBeUndefined();
  });
});
