import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { guardContext } from '../../../test/utils/guard-context.js';
import { TenantStatusStep } from './tenant-status.step.js';

describe('TenantStatusStep', () => {
  const step = new TenantStatusStep();
  const inDomain = (
    status: string,
    method = 'GET',
    opts: { whileFrozen?: boolean; isSuperAdmin?: boolean } = {},
  ) =>
    guardContext({
      method,
      policy: { whileFrozen: opts.whileFrozen },
      auth: { domain: { status } as AuthContext['domain'], isSuperAdmin: opts.isSuperAdmin ?? false },
    });

  it.each(['ACTIVE', 'WARNING', 'FROZEN'])('lets a read in a %s domain through', (status) => {
    expect(() => step.run(inDomain(status))).not.toThrow();
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('lets a %s through in ACTIVE and WARNING domains', (method) => {
    expect(() => step.run(inDomain('ACTIVE', method))).not.toThrow();
    expect(() => step.run(inDomain('WARNING', method))).not.toThrow();
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses a %s in a FROZEN domain with a 403', (method) => {
    expect(() => step.run(inDomain('FROZEN', method))).toThrow(
      expect.objectContaining({
        status: 403,
        errors: ['System domain is frozen: it is read-only until it is reactivated'],
      }),
    );
  });

  it('lets the writes marked whileFrozen, and super administrators, through a FROZEN domain', () => {
    expect(() => step.run(inDomain('FROZEN', 'DELETE', { whileFrozen: true }))).not.toThrow();
    expect(() => step.run(inDomain('FROZEN', 'PATCH', { isSuperAdmin: true }))).not.toThrow();
  });

  it('refuses every credential of a DEACTIVATED domain with a 401, reads and writes alike', () => {
    for (const method of ['GET', 'POST']) {
      expect(() => step.run(inDomain('DEACTIVATED', method, { isSuperAdmin: true }))).toThrow(
        expect.objectContaining({ status: 401, errors: ['System domain is deactivated'] }),
      );
    }
  });
});
