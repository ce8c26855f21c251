import { describe, expect, it } from '@jest/globals';
import { hashPassword, PASSWORD_HASH_CONCURRENCY, passwordHashLoad, verifyPassword } from './passwords.js';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one or a malformed hash', async () => {
    const stored = await hashPassword('amber quartz meadow 77');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await expect(verifyPassword(stored, 'amber quartz meadow 77')).resolves.toBe(true);
    await expect(verifyPassword(stored, 'amber quartz meadow 78')).resolves.toBe(false);
    await expect(verifyPassword('not a hash', 'amber quartz meadow 77')).resolves.toBe(false);
  });

  it('runs at most one hashing per core at once; the others wait and all finish with their own answer', async () => {
    const stored = await hashPassword('right');
    const n = PASSWORD_HASH_CONCURRENCY * 3 + 1;
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, passwordHashLoad().running)), 1);
    const all = Promise.all(
      Array.from({ length: n }, (_, i) => verifyPassword(stored, i % 2 === 0 ? 'right' : 'wrong')),
    );
    // right after submitting: the bound is full and the rest queue on the event loop
    expect(passwordHashLoad()).toEqual({
      running: PASSWORD_HASH_CONCURRENCY,
      waiting: n - PASSWORD_HASH_CONCURRENCY,
    });
    const answers = await all;
    clearInterval(sampler);
    expect(answers).toEqual(Array.from({ length: n }, (_, i) => i % 2 === 0));
    expect(peak).toBeLessThanOrEqual(PASSWORD_HASH_CONCURRENCY);
    expect(passwordHashLoad()).toEqual({ running: 0, waiting: 0 });
  });

  it('a failing run frees its slot', async () => {
    const n = PASSWORD_HASH_CONCURRENCY + 2;
    await expect(
      Promise.all(Array.from({ length: n }, () => verifyPassword('$argon2id$bad', 'x'))),
    ).resolves.toEqual(Array.from({ length: n }, () => false));
    expect(passwordHashLoad()).toEqual({ running: 0, waiting: 0 });
  });
});
