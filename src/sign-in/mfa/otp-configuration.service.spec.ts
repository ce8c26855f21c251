import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { UserFactorsDto } from './dto/mfa.dto.js';
import { OtpConfigurationService } from './otp-configuration.service.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const auth = { userId: 'u1', systemDomainId: 'd1' } as AuthContext;
type Policy = Pick<SystemDomainEntity, 'mfa_required' | 'mfa_methods'> | null;
const factors = (configured: string[]) =>
  ({ mfa_methods_configured: configured }) as unknown as UserFactorsDto;
const INVALID = expect.objectContaining({ status: 400, code: 'mfa.INVALID_CODE' });

function setup(
  policy: Policy = { mfa_required: false, mfa_methods: ['MAIL_2SV', 'TOTP'] },
  configured: string[] = [],
) {
  const repo = { domainPolicy: jest.fn(async (): Promise<Policy> => policy) };
  const mfa = {
    otpConfiguration: jest.fn(async () => factors(configured)),
    setMailOtp: jest.fn(async () => factors(configured)),
  };
  const service = construct(OtpConfigurationService, repo, mfa);
  return { service, repo, mfa };
}

describe('OtpConfigurationService (users/current/otp/configure/, the published form)', () => {
  it('the user’s factors with the caller’s domain policy; methods in the service’s order', async () => {
    const s = setup();
    await expect(s.service.get(auth)).resolves.toEqual({
      mfa_methods_configured: [],
      mfa_required: false,
      mfa_methods: ['TOTP', 'MAIL_2SV'],
    });
    expect(s.repo.domainPolicy).toHaveBeenCalledWith('d1');
  });

  it('mfa_required says whether a factor is owed: the domain requires one, or the user confirmed one', async () => {
    expect((await setup({ mfa_required: true, mfa_methods: ['TOTP'] }).service.get(auth)).mfa_required).toBe(
      true,
    );
    expect((await setup(undefined, ['TOTP']).service.get(auth)).mfa_required).toBe(true);
  });

  it('no such domain: not required, no methods', async () => {
    await expect(setup(null).service.get(auth)).resolves.toMatchObject({
      mfa_required: false,
      mfa_methods: [],
    });
  });

  it('enable turns the mailed code on with the code given', async () => {
    const s = setup();
    await s.service.enable(auth, '123456');
    expect(s.mfa.setMailOtp).toHaveBeenCalledWith(auth, true, '123456');
  });

  it('update: mfa_required (published) or enabled (older) says on or off', async () => {
    const s = setup();
    await s.service.update(auth, { mfa_required: false, otp: '1' } as never);
    expect(s.mfa.setMailOtp).toHaveBeenLastCalledWith(auth, false, '1');
    await s.service.update(auth, { enabled: true, otp: '2' } as never);
    expect(s.mfa.setMailOtp).toHaveBeenLastCalledWith(auth, true, '2');
  });

  it('update: neither given, or the two disagreeing, is 400 and changes nothing', async () => {
    const s = setup();
    await expect(s.service.update(auth, { otp: '1' } as never)).rejects.toEqual(INVALID);
    await expect(s.service.update(auth, { mfa_required: true, enabled: false } as never)).rejects.toEqual(
      INVALID,
    );
    expect(s.mfa.setMailOtp).not.toHaveBeenCalled();
  });
});
