import type { AuthContext } from '../auth-context.js';
import { guardContext } from '../../../../test/utils/guard-context.js';
import { TenantStatusStep } from './tenant-status.step.js';

describe('TenantStatusStep', () => {
  const step = new TenantStatusStep();
  const inDomain = (status: string) =>
    guardContext({ auth: { domain: { status } as AuthContext['domain'] } });

  it.each(['ACTIVE', 'WARNING', 'FROZEN'])('lets a %s domain through', (status) => {
    expect(() => step.run(inDomain(status))).not.toThrow();
  });

  it('refuses every credential of a DEACTIVATED domain with a 401', () => {
    expect(() => step.run(inDomain('DEACTIVATED'))).toThrow(
      expect.objectContaining({ status: 401, errors: ['System domain is deactivated'] }),
    );
  });
});
