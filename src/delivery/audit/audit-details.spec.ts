import { describe, expect, it } from '@jest/globals';
import { auditDetails } from './audit-details.js';

describe('auditDetails', () => {
  it('drops keys that could name a secret, whatever their value', () => {
    const out = auditDetails({
      password: 'hunter2',
      new_password: 'x',
      client_secret: 's',
      token: 't',
      refresh_token: 'r',
      code: '123456',
      password_hash: 'h',
      private_key: 'k',
      fields: ['first_name'],
      reason: 'admin_cli',
    });
    expect(out).toEqual({ fields: ['first_name'], reason: 'admin_cli' });
  });

  it('keeps scalars and lists of scalars only, strings bounded', () => {
    const out = auditDetails({
      nested: { password: 'p' },
      fn: () => 1,
      n: Number.NaN,
      ok: true,
      long: 'a'.repeat(1000),
      list: ['a', { x: 1 }, 2],
    });
    expect(out).toEqual({ ok: true, long: 'a'.repeat(200), list: ['a', 2] });
  });
});
