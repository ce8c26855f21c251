import { jest } from '@jest/globals';
import { Secret } from 'otpauth';
import { MfaEnrolmentService } from './mfa-enrolment.service.js';
import type { MfaRow } from './mfa.repository.js';
import {
  authContext,
  fixedClock,
  recordingAudit,
  recordingEvents,
  repoWithTransaction,
} from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { expectEvent } from '../../../test/utils/fakes/expect.js';

const auth = authContext({ user: { email: 'a@example.test' } });
const INVALID = expect.objectContaining({ status: 400, code: 'mfa.INVALID_CODE' });

function setup(row: MfaRow | null = null) {
  const repo = repoWithTransaction(EM, {
    find: jest.fn(async () => row),
    configuredMethods: jest.fn(async () => []),
    startSeed: jest.fn(async () => undefined),
    confirmTotp: jest.fn(async () => undefined),
    clearTotp: jest.fn(async () => undefined),
    setMail2sv: jest.fn(async () => undefined),
    markEmailVerified: jest.fn(async (..._a: unknown[]) => undefined),
    setDomainPolicy: jest.fn(async (id: string, patch: object) => ({
      id,
      mfa_required: false,
      mfa_methods: ['TOTP', 'MAIL_2SV'],
      ...patch,
    })),
  });
  const secret = new Secret({ size: 20 });
  const codes = {
    hasSeed: jest.fn(async () => true),
    consumeTotp: jest.fn(async () => true),
    consumeRecoveryCode: jest.fn(async () => true),
    consumeMailCode: jest.fn(async () => true),
    newSeed: jest.fn(() => ({ secret, sealed: 'sealed-seed' })),
    totp: jest.fn(() => ({ toString: () => 'otpauth://totp/Portcullis:a' })),
    newRecoveryCodes: jest.fn(() => ({ codes: ['c1', 'c2'], hashes: ['h1', 'h2'] })),
  };
  const guessing = {
    attempt: jest.fn(async (_u: string, _f: string, verify: () => Promise<boolean>) =>
      (await verify()) ? 'ok' : 'wrong',
    ),
  };
  const mail = { queue: jest.fn(async () => undefined) };
  const events = recordingEvents();
  const audit = recordingAudit();
  const service = construct(MfaEnrolmentService, repo, codes, fixedClock(NOW), guessing, mail, events, audit);
  return { service, repo, codes, guessing, mail, events, audit, secret };
}

const confirmed = {
  totp_confirmed_at: NOW,
  mail_2sv_enabled: false,
  recovery_code_hashes: ['h1', 'h2', 'h3'],
};

describe('MfaEnrolmentService', () => {
  it('starts enrolment with a sealed seed and answers the plain seed, its URI and a QR code once', async () => {
    const s = setup();
    const out = await s.service.startTotp(auth);
    expect(s.repo.startSeed).toHaveBeenCalledWith('u1', 'sealed-seed');
    expect(out.secret).toBe(s.secret.base32);
    expect(out.uri).toBe('otpauth://totp/Portcullis:a');
    expect(out.qr_code).toMatch(/^data:image\/png;base64,/);
  });

  it('refuses to restart enrolment over a confirmed authenticator (409), storing nothing', async () => {
    const s = setup(confirmed);
    await expect(s.service.startTotp(auth)).rejects.toEqual(expect.objectContaining({ status: 409 }));
    expect(s.repo.startSeed).not.toHaveBeenCalled();
  });

  it('confirms with a code of the pending seed: stores the hashes, answers the codes, tells the user and webhooks', async () => {
    const s = setup();
    expect(await s.service.confirmTotp(auth, '123456')).toEqual({ recovery_codes: ['c1', 'c2'] });
    expect(s.codes.hasSeed).toHaveBeenCalledWith('u1', false);
    expect(s.codes.consumeTotp).toHaveBeenCalledWith('u1', '123456', false);
    expect(s.repo.confirmTotp).toHaveBeenCalledWith(EM, 'u1', NOW, ['h1', 'h2']);
    expect(s.mail.queue).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({ kind: 'totp_enabled', to: 'a@example.test' }),
    );
    expectEvent(s.events, EM, {
      realm: 'otp_configuration',
      data: { message_type: 'totp_enabled' },
      requestId: 'r1',
    });
  });

  it('confirm: refuses without a pending seed, a malformed code (no guess counted) and a wrong code', async () => {
    const s = setup();
    s.codes.hasSeed.mockResolvedValueOnce(false);
    await expect(s.service.confirmTotp(auth, '123456')).rejects.toEqual(
      expect.objectContaining({ code: 'mfa.TOTP_NOT_STARTED' }),
    );
    await expect(s.service.confirmTotp(auth, '12345')).rejects.toEqual(INVALID);
    expect(s.guessing.attempt).not.toHaveBeenCalled();
    s.codes.consumeTotp.mockResolvedValueOnce(false);
    await expect(s.service.confirmTotp(auth, '123456')).rejects.toEqual(INVALID);
    expect(s.guessing.attempt).toHaveBeenCalledWith('u1', 'totp', expect.any(Function));
    expect(s.repo.confirmTotp).not.toHaveBeenCalled();
    expect(s.mail.queue).not.toHaveBeenCalled();
  });

  it('removes the authenticator with a recovery code, counted as a recovery guess', async () => {
    const s = setup(confirmed);
    await s.service.removeTotp(auth, 'abcdef01-23456789', 'RECOVERY');
    expect(s.guessing.attempt).toHaveBeenCalledWith('u1', 'recovery', expect.any(Function));
    expect(s.codes.consumeRecoveryCode).toHaveBeenCalledWith('u1', 'abcdef01-23456789');
    expect(s.codes.consumeTotp).not.toHaveBeenCalled();
    expect(s.repo.clearTotp).toHaveBeenCalledWith(EM, 'u1');
    expect(s.mail.queue).toHaveBeenCalledWith(EM, expect.objectContaining({ kind: 'totp_disabled' }));
  });

  it('remove: a stolen session alone cannot (wrong code), nor without a confirmed authenticator', async () => {
    const s = setup(confirmed);
    s.codes.consumeTotp.mockResolvedValueOnce(false);
    await expect(s.service.removeTotp(auth, '123456', 'TOTP')).rejects.toEqual(INVALID);
    expect(s.codes.hasSeed).toHaveBeenCalledWith('u1', true);
    s.codes.hasSeed.mockResolvedValueOnce(false);
    await expect(s.service.removeTotp(auth, '123456', 'TOTP')).rejects.toEqual(
      expect.objectContaining({ code: 'mfa.TOTP_NOT_CONFIGURED' }),
    );
    await expect(s.service.removeTotp(auth, '123456', 'RECOVERY')).rejects.toEqual(INVALID);
    expect(s.repo.clearTotp).not.toHaveBeenCalled();
  });

  it('reports recovery codes left only while TOTP is confirmed', async () => {
    expect((await setup(confirmed).service.otpConfiguration('u1')).recovery_codes_remaining).toBe(3);
    const pending = { ...confirmed, totp_confirmed_at: null };
    const out = await setup(pending).service.otpConfiguration('u1');
    expect(out).toEqual(expect.objectContaining({ totp_enabled: false, recovery_codes_remaining: 0 }));
    expect(await setup(null).service.otpConfiguration('u1')).toEqual({
      mail_2sv_enabled: false,
      totp_enabled: false,
      recovery_codes_remaining: 0,
      mfa_methods_configured: [],
    });
  });

  it('turns mailed codes on with a mailed code; telling only when the setting changes', async () => {
    const s = setup({ ...confirmed, mail_2sv_enabled: false });
    await s.service.setMailOtp(auth, true, '123456');
    expect(s.guessing.attempt).toHaveBeenCalledWith('u1', 'mail_otp', expect.any(Function));
    expect(s.repo.setMail2sv).toHaveBeenCalledWith(EM, 'u1', true);
    // the mailed code proved the address, in the change's transaction
    expect(s.repo.markEmailVerified).toHaveBeenCalledWith(EM, 'u1', auth.user.email);
    expectEvent(s.events, EM, { data: { message_type: 'otp_enabled' } });
    const same = setup({ ...confirmed, mail_2sv_enabled: true });
    await same.service.setMailOtp(auth, true, '123456');
    expect(same.repo.setMail2sv).not.toHaveBeenCalled();
    expect(same.events.record).not.toHaveBeenCalled();
    // the setting unchanged, the code still proved the address
    expect(same.repo.markEmailVerified).toHaveBeenCalledWith(EM, 'u1', auth.user.email);
  });

  it('mailed codes: a wrong code changes nothing', async () => {
    const s = setup();
    s.codes.consumeMailCode.mockResolvedValueOnce(false);
    await expect(s.service.setMailOtp(auth, true, '123456')).rejects.toEqual(INVALID);
    await expect(s.service.setMailOtp(auth, true, 'abc')).rejects.toEqual(INVALID);
    expect(s.repo.setMail2sv).not.toHaveBeenCalled();
    expect(s.repo.markEmailVerified).not.toHaveBeenCalled();
  });

  it('domain policy: known methods only, in a fixed order; none left is refused; changes the caller’s domain', async () => {
    const s = setup();
    const out = await s.service.domainPolicy(auth, {
      mfa_methods: ['MAIL_2SV', 'SMS', 'TOTP'],
      mfa_required: true,
    } as never);
    expect(s.repo.setDomainPolicy).toHaveBeenCalledWith('d1', {
      mfa_required: true,
      mfa_methods: ['TOTP', 'MAIL_2SV'],
    });
    expect(out).toEqual({ mfa_required: true, mfa_methods: ['TOTP', 'MAIL_2SV'] });
    await expect(s.service.domainPolicy(auth, { mfa_methods: ['SMS'] } as never)).rejects.toEqual(
      expect.objectContaining({ code: 'mfa.NO_METHOD_LEFT' }),
    );
    expect(s.repo.setDomainPolicy).toHaveBeenCalledTimes(1);
  });
});
