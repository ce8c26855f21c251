import { jest } from '@jest/globals';
import { type Client, InvalidCredentialsError } from 'ldapts';
import { DirectoryUnavailable, escapeFilterValue, passwordBinds, userFilter } from './ldap-directory.js';

// The parts of a directory sign-in that need no server: what goes into the search filter (RFC 4515), and the
// person's bind refusing what servers would take as an unauthenticated bind.

describe('escapeFilterValue (RFC 4515 §3)', () => {
  it.each([
    ['*', '\\2a'],
    ['(', '\\28'],
    [')', '\\29'],
    ['\\', '\\5c'],
    ['\0', '\\00'],
  ])('escapes %j as %s', (raw, escaped) => {
    expect(escapeFilterValue(`a${raw}b`)).toBe(`a${escaped}b`);
  });

  it('leaves everything else as it is (dots, @, +, quotes, non-ASCII)', () => {
    const plain = 'jo.doe+tag@corp.example "ü" {x} $&';
    expect(escapeFilterValue(plain)).toBe(plain);
  });

  it('escapes every occurrence, the backslash first-class (no double escaping)', () => {
    expect(escapeFilterValue('**\\2a')).toBe('\\2a\\2a\\5c2a');
  });
});

describe('userFilter', () => {
  it('puts the whole address in {email} and its local part in {username}', () => {
    const template = '(&(objectClass=user)(|(userPrincipalName={email})(sAMAccountName={username})))';
    expect(userFilter(template, 'jo.doe@corp.example')).toBe(
      '(&(objectClass=user)(|(userPrincipalName=jo.doe@corp.example)(sAMAccountName=jo.doe)))',
    );
  });

  it('fills every occurrence of a placeholder', () => {
    expect(userFilter('(|(mail={email})(proxyAddresses=smtp:{email}))', 'a@b.example')).toBe(
      '(|(mail=a@b.example)(proxyAddresses=smtp:a@b.example))',
    );
  });

  it('the local part is the part before the last @; without an @ the whole value', () => {
    expect(userFilter('(uid={username})', '"x@y"@corp.example')).toBe('(uid="x@y")');
    expect(userFilter('(uid={username})', 'jdoe')).toBe('(uid=jdoe)');
  });

  it('an injection stays one escaped value: `*)(uid=*` matches a person of that odd name, nobody else', () => {
    const template = '(&(objectClass=inetOrgPerson)(mail={email}))';
    const filter = userFilter(template, '*)(uid=*');
    expect(filter).toBe('(&(objectClass=inetOrgPerson)(mail=\\2a\\29\\28uid=\\2a))');
    // still exactly the template's own parentheses and no wildcard: the value opened and closed none
    const parens = (f: string) => f.replace(/[^()]/g, '');
    expect(parens(filter)).toBe(parens(template));
    expect(filter).not.toContain('*');
  });

  it('an injection through {username} is escaped too', () => {
    expect(userFilter('(uid={username})', 'x)(|(uid=*@corp.example')).toBe('(uid=x\\29\\28|\\28uid=\\2a)');
  });

  it('a value is put in once: a placeholder written inside the address is not filled in again', () => {
    // `{` and `}` are valid in an address's local part (RFC 5322 atext; class-validator's isEmail takes them)
    const email = '{username}x@corp.example';
    expect(userFilter('(|(mail={email})(uid={username}))', email)).toBe(
      '(|(mail={username}x@corp.example)(uid={username}x))',
    );
  });

  it.each(['$&', "$'", '$`', '$1', '$$'])(
    'a replacement pattern %s in the value is put in literally, not interpreted',
    (pattern) => {
      const email = `a${pattern}b@corp.example`;
      expect(userFilter('(mail={email})', email)).toBe(`(mail=${email})`);
      expect(userFilter('(uid={username})', email)).toBe(`(uid=a${pattern}b)`);
    },
  );
});

describe('passwordBinds', () => {
  const DN = 'uid=jdoe,ou=people,dc=example,dc=com';
  const fakeClient = (bind: (dn: string, password: string) => Promise<void>) => {
    const client = { bind: jest.fn(bind) };
    return { client, asClient: client as unknown as Client };
  };

  it('an empty password is refused without a bind (servers take it as an unauthenticated bind)', async () => {
    const { client, asClient } = fakeClient(async () => undefined);
    await expect(passwordBinds(asClient, DN, '')).resolves.toBe(false);
    expect(client.bind).not.toHaveBeenCalled();
  });

  it('binds as the person: true when the directory accepts the password', async () => {
    const { client, asClient } = fakeClient(async () => undefined);
    await expect(passwordBinds(asClient, DN, 'pw')).resolves.toBe(true);
    expect(client.bind).toHaveBeenCalledWith(DN, 'pw');
  });

  it('invalid credentials are a wrong password (false); any other failure is the directory unavailable', async () => {
    const wrong = fakeClient(async () => {
      throw new InvalidCredentialsError('49');
    });
    await expect(passwordBinds(wrong.asClient, DN, 'pw')).resolves.toBe(false);
    const down = fakeClient(async () => {
      throw new Error('socket hang up');
    });
    await expect(passwordBinds(down.asClient, DN, 'pw')).rejects.toBeInstanceOf(DirectoryUnavailable);
  });
});
