import { guardedLookup, isPublicAddress, urlProblem } from './target-address.js';

describe('webhook targets: the SSRF rule', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.255',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '240.0.0.1',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '2001:0:4136:e378::1',
    // IPv4-compatible (::/96) and the rest of the reserved ::/8, in every spelling
    '::169.254.169.254',
    '::a9fe:a9fe',
    '::a00:1',
    '::7f00:1',
    '::808:808',
    '0:0:0:0:0:1:a9fe:a9fe',
    '::1:0:0',
    '0:ff::1',
    // mapped, translated, NAT64 (well-known and local-use), 6to4: refused whatever IPv4 they embed
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::ffff:10.0.0.1',
    '::ffff:0:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::c0a8:1',
    '2002:a9fe:a9fe::1',
    '2002:c0a8:1::1',
    'not an address',
  ])('%s is not public', (a) => expect(isPublicAddress(a)).toBe(false));

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450::1',
  ])('%s is public', (a) => expect(isPublicAddress(a)).toBe(true));

  it('registration: http(s) only, no credentials, no non-public IP literal unless allowed; names pass', () => {
    expect(urlProblem('https://hooks.example.com/x', false)).toBeNull();
    expect(urlProblem('http://localhost:3000/', false)).toBeNull(); // a name: checked at each delivery
    expect(urlProblem('http://127.0.0.1/', false)).toMatch(/non-public/);
    expect(urlProblem('http://[::1]:8080/', false)).toMatch(/non-public/);
    expect(urlProblem('http://127.0.0.1/', true)).toBeNull();
    expect(urlProblem('http://017700000001/', false)).toMatch(/non-public/); // octal 127.0.0.1
    // the cloud metadata address embedded in IPv6 forms (URL parsing rewrites them to hex)
    for (const host of [
      '[::169.254.169.254]',
      '[::ffff:169.254.169.254]',
      '[64:ff9b::169.254.169.254]',
      '[2002:a9fe:a9fe::]',
    ]) {
      expect(urlProblem(`http://${host}/latest/meta-data/`, false)).toMatch(/non-public/);
    }
    expect(urlProblem('file:///etc/passwd', false)).toBe('must use http or https');
    expect(urlProblem('https://a:b@example.com/', true)).toBe('must not carry credentials (use headers)');
    expect(urlProblem('//example.com/', false)).toBe('must be an absolute http or https URL');
  });

  it('at delivery, a name resolving to a non-public address fails the lookup; a public one is handed on', async () => {
    const lookup = (host: string, all: boolean) =>
      new Promise<{ err: Error | null; address: unknown }>((resolve) =>
        guardedLookup(host, { all }, (err, address) => resolve({ err, address })),
      );
    const local = await lookup('localhost', false);
    expect(local.err?.message).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), which is not a public address/,
    );
    // an IP literal resolves to itself: the guard sees the same address the socket would use
    const pub = await lookup('93.184.216.34', true);
    expect(pub).toEqual({ err: null, address: [{ address: '93.184.216.34', family: 4 }] });
    const one = await lookup('93.184.216.34', false);
    expect(one).toEqual({ err: null, address: '93.184.216.34' });
  });
});
