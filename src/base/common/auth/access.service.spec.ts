import type { AccessRepository } from './access.repository.js';
import { randomUUID } from 'node:crypto';
import { guardContext } from '../../../../test/utils/guard-context.js';
import { AccessService } from './access.service.js';

describe('AccessService (the access-checker registry)', () => {
  const mine = randomUUID();
  const theirs = randomUUID();
  const service = () => {
    const s = new AccessService({} as AccessRepository);
    s.register('thing', {
      label: 'Thing',
      ownerOnly: true,
      find: async (_auth, ids) =>
        ids
          .filter((id) => id === mine || id === theirs)
          .map((id) => ({ id, owner_id: id === mine ? 'u' : 'v' })),
    });
    return s;
  };
  const auth = guardContext().auth;

  it('passes entities of the caller’s domain that the caller owns', async () => {
    await expect(service().require(auth, 'thing', [mine, mine])).resolves.toBeUndefined();
  });

  it('unknown, malformed and other owners’ ids all answer the same 404', async () => {
    for (const ids of [[randomUUID()], ['nope'], [theirs], [mine, theirs]]) {
      await expect(service().require(auth, 'thing', ids)).rejects.toMatchObject({
        status: 404,
        errors: ['Thing not found'],
      });
    }
    await expect(service().require({ ...auth, isAdmin: true }, 'thing', [theirs])).resolves.toBeUndefined();
  });

  it('refuses a second checker for one entity, and fails loudly for an entity nobody registered', async () => {
    const s = service();
    expect(() => s.register('thing', { label: 'x', find: async () => [] })).toThrow(/already registered/);
    await expect(s.require(auth, 'unregistered', [mine])).rejects.toThrow(/No access checker/);
    expect(s.entities()).toEqual(['thing']);
  });
});
