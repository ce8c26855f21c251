import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { guardContext } from '../../../test/utils/guard-context.js';
import { admitToPage } from './page-steps.js';

describe('admitToPage (the guard’s steps on a page’s cookie credential)', () => {
  const page = (status: string, o: { kind?: string; method?: string; isSuperAdmin?: boolean } = {}) => {
    const { req, auth } = guardContext({
      method: o.method ?? 'POST',
      auth: {
        domain: { status } as AuthContext['domain'],
        kind: (o.kind ?? 'LOGIN') as AuthContext['kind'],
        isSuperAdmin: o.isSuperAdmin ?? false,
      },
    });
    return { req, auth };
  };

  it('no credential is not signed in', async () => {
    await expect(admitToPage(page('ACTIVE').req, { kinds: ['LOGIN'] }, null)).resolves.toBeNull();
  });

  it('a kind the step does not declare is not signed in (the API’s 401)', async () => {
    const { req, auth } = page('ACTIVE', { kind: 'TEMP' });
    await expect(admitToPage(req, { kinds: ['LOGIN'] }, auth)).resolves.toBeNull();
  });

  it('a DEACTIVATED domain is not signed in (the API’s 401)', async () => {
    const { req, auth } = page('DEACTIVATED');
    await expect(admitToPage(req, { kinds: ['LOGIN'], whileFrozen: true }, auth)).resolves.toBeNull();
  });

  it('a FROZEN domain: reads and `whileFrozen` steps pass; other writes are the API’s 403 unless super admin', async () => {
    const read = page('FROZEN', { method: 'GET' });
    await expect(admitToPage(read.req, { kinds: ['LOGIN'] }, read.auth)).resolves.toBe(read.auth);
    const write = page('FROZEN');
    await expect(admitToPage(write.req, { kinds: ['LOGIN'], whileFrozen: true }, write.auth)).resolves.toBe(
      write.auth,
    );
    await expect(admitToPage(write.req, { kinds: ['LOGIN'] }, write.auth)).rejects.toMatchObject({
      status: 403,
    });
    const admin = page('FROZEN', { isSuperAdmin: true });
    await expect(admitToPage(admin.req, { kinds: ['LOGIN'] }, admin.auth)).resolves.toBe(admin.auth);
  });
});
