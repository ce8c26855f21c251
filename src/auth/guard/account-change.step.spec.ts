import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { TokenEntity } from '../../base/model/token.entity.js';
import { guardContext } from '../../../test/utils/guard-context.js';
import { AccountChangeStep } from './account-change.step.js';
import { requireAccountChange } from '../../base/common/auth/account-change.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const WINDOW = 300;
const ago = (s: number) => new Date(NOW.getTime() - s * 1000);

function caller(record: Partial<TokenEntity>, over: Partial<AuthContext> = {}): AuthContext {
  return guardContext({
    auth: {
      record: {
        is_mfa_authenticated: false,
        auth_time: ago(10),
        vouched_by_tenant: false,
        ...record,
      } as TokenEntity,
      tenantOwnsAccount: false,
      ...over,
    },
  }).auth;
}

const verdict = (auth: AuthContext): number | 'ok' => {
  try {
    requireAccountChange(auth, NOW, WINDOW);
    return 'ok';
  } catch (e) {
    return (e as { status: number }).status;
  }
};

const message = (auth: AuthContext): string => {
  try {
    requireAccountChange(auth, NOW, WINDOW);
    return '';
  } catch (e) {
    return (e as { errors: string[] }).errors[0];
  }
};

describe('requireAccountChange', () => {
  it('lets the service’s own recent sign-in, or one that passed a second factor, change the account', () => {
    expect(verdict(caller({ auth_time: ago(10) }))).toBe('ok');
    expect(verdict(caller({ auth_time: ago(WINDOW + 1), is_mfa_authenticated: true }))).toBe('ok');
  });

  it('asks a stale sign-in without a second factor to sign in again', () => {
    expect(verdict(caller({ auth_time: ago(WINDOW + 1) }))).toBe(403);
    expect(message(caller({ auth_time: null }))).toMatch(/recent sign-in/);
  });

  it('refuses tokens minted for apps and capped sessions', () => {
    expect(verdict(caller({}, { kind: 'PAT' }))).toBe(403);
    expect(verdict(caller({}, { kind: 'OAUTH' }))).toBe(403);
    expect(verdict(caller({}, { rightsCap: ['@admin'] }))).toBe(403);
  });

  it('lets a tenant-vouched session change an account that tenant owns, within the window only', () => {
    expect(verdict(caller({ vouched_by_tenant: true }, { tenantOwnsAccount: true }))).toBe('ok');
    expect(
      verdict(caller({ vouched_by_tenant: true, auth_time: ago(WINDOW + 1) }, { tenantOwnsAccount: true })),
    ).toBe(403);
  });

  it('never takes a tenant’s word for a second factor', () => {
    // even a (pre-migration) mark of a second factor on a tenant-vouched token does not stand for one
    const old = caller(
      { vouched_by_tenant: true, is_mfa_authenticated: true, auth_time: ago(WINDOW + 1) },
      { tenantOwnsAccount: true },
    );
    expect(verdict(old)).toBe(403);
  });

  it('refuses a tenant-vouched session on an account the tenant does not own, however recent', () => {
    const shared = caller(
      { vouched_by_tenant: true, is_mfa_authenticated: true },
      { tenantOwnsAccount: false },
    );
    expect(verdict(shared)).toBe(403);
    expect(message(shared)).toMatch(/service’s own password/);
  });

  it('runs on routes marked accountChange only', () => {
    const step = new AccountChangeStep(() => NOW, WINDOW);
    const ctx = guardContext({
      policy: { accountChange: true },
      auth: { record: { auth_time: ago(WINDOW + 1), is_mfa_authenticated: false } as TokenEntity },
    });
    expect(() => step.run(ctx)).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => step.run({ ...ctx, policy: {} })).not.toThrow();
  });
});
