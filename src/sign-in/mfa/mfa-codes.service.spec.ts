import { jest } from '@jest/globals';
import { Secret, TOTP } from 'otpauth';
import type { AppConfig } from '../../app/config.js';
import type { MailService } from '../../delivery/mail/mail.service.js';
import { MfaCodes, wellFormed } from './mfa-codes.service.js';
import type { MfaRepository } from './mfa.repository.js';
import { fixedClock, repoWithTransaction } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';

const config = {
  auth: { keyEncryptionSecret: 'k'.repeat(40) },
  database: { dataDir: 'memory://' },
} as AppConfig;
const clock = fixedClock(NOW);

function setup() {
  const repo = repoWithTransaction(EM, {
    sealedSeed: jest.fn(async (): Promise<string | null> => null),
    advanceTotpStep: jest.fn(async () => true),
    consumeRecoveryHash: jest.fn(async () => true),
    consumeMailCode: jest.fn(async () => true),
    replaceMailCode: jest.fn(async () => undefined),
  });
  const mail = { queue: jest.fn(async () => undefined) };
  const codes = new MfaCodes(config, clock, repo as unknown as MfaRepository, mail as unknown as MailService);
  return { repo, mail, codes };
}

const codeAt = (base32: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(base32), digits: 6, period: 30 }).generate({
    timestamp: at.getTime(),
  });

describe('MfaCodes', () => {
  it('wellFormed: six digits for TOTP and mailed codes, 16 hex (dash optional) for recovery codes', () => {
    expect(wellFormed('TOTP', ' 123456 ')).toBe(true);
    expect(wellFormed('TOTP', '12345')).toBe(false);
    expect(wellFormed('MAIL_2SV', '12345a')).toBe(false);
    expect(wellFormed('RECOVERY', 'ABCDEF01-23456789')).toBe(true);
    expect(wellFormed('RECOVERY', 'abcdef0123456789')).toBe(true);
    expect(wellFormed('RECOVERY', '123456')).toBe(false);
    expect(wellFormed('TOTP', null)).toBe(false);
    expect(wellFormed('TOTP', undefined)).toBe(false);
  });

  it('seals the seed (never the plain base32) and accepts its code once per time step, ±1 step', async () => {
    const { codes, repo } = setup();
    const { secret, sealed } = codes.newSeed();
    expect(sealed).not.toContain(secret.base32);
    repo.sealedSeed.mockResolvedValue(sealed);
    const step = Math.floor(NOW.getTime() / 30_000);

    expect(await codes.consumeTotp('u1', codeAt(secret.base32, NOW), true)).toBe(true);
    expect(repo.advanceTotpStep).toHaveBeenLastCalledWith('u1', step);
    expect(repo.sealedSeed).toHaveBeenLastCalledWith('u1', true);

    // the previous step's code is accepted (drift) and names that step, so a replay is the repository's refusal
    expect(
      await codes.consumeTotp('u1', codeAt(secret.base32, new Date(NOW.getTime() - 30_000)), false),
    ).toBe(true);
    expect(repo.advanceTotpStep).toHaveBeenLastCalledWith('u1', step - 1);
    repo.advanceTotpStep.mockResolvedValueOnce(false);
    expect(await codes.consumeTotp('u1', codeAt(secret.base32, NOW), true)).toBe(false);
  });

  it('refuses a code two steps away, a code of another seed, and any code without a seed, storing nothing', async () => {
    const { codes, repo } = setup();
    const { secret, sealed } = codes.newSeed();
    repo.sealedSeed.mockResolvedValue(sealed);
    expect(await codes.consumeTotp('u1', codeAt(secret.base32, new Date(NOW.getTime() + 90_000)), true)).toBe(
      false,
    );
    const other = new Secret({ size: 20 }).base32;
    const foreign = codeAt(other, NOW);
    if (foreign !== codeAt(secret.base32, NOW))
      expect(await codes.consumeTotp('u1', foreign, true)).toBe(false);
    repo.sealedSeed.mockResolvedValue(null);
    expect(await codes.consumeTotp('u1', codeAt(secret.base32, NOW), true)).toBe(false);
    expect(repo.advanceTotpStep).not.toHaveBeenCalled();
  });

  it('recovery codes: ten distinct codes, only their keyed hashes stored, per user, case and dash ignored', () => {
    const { codes } = setup();
    const { codes: plain, hashes } = codes.newRecoveryCodes('u1');
    expect(plain).toHaveLength(10);
    expect(new Set(plain).size).toBe(10);
    for (const c of plain) expect(c).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}$/);
    expect(hashes).toEqual(plain.map((c) => codes.recoveryHash('u1', c)));
    for (const h of hashes) expect(plain.some((c) => h.includes(c.replace('-', '')))).toBe(false);
    const c = plain[0];
    expect(codes.recoveryHash('u1', c.toUpperCase().replace('-', ''))).toBe(hashes[0]);
    expect(codes.recoveryHash('u2', c)).not.toBe(hashes[0]);
  });

  it('uses up a recovery code through its hash', async () => {
    const { codes, repo } = setup();
    expect(await codes.consumeRecoveryCode('u1', 'ABCDEF01-23456789')).toBe(true);
    expect(repo.consumeRecoveryHash).toHaveBeenCalledWith('u1', codes.recoveryHash('u1', 'abcdef0123456789'));
  });

  it('mails a six-digit code, stores only its keyed hash with a ten-minute expiry, in one transaction', async () => {
    const { codes, repo, mail } = setup();
    await codes.sendMailCode('u1', 'a@example.test');
    expect(repo.transaction).toHaveBeenCalledTimes(1);
    const [em, userId, hash, now, expires] = repo.replaceMailCode.mock.calls[0] as unknown as [
      unknown,
      string,
      string,
      Date,
      Date,
    ];
    expect([em, userId, now]).toEqual([EM, 'u1', NOW]);
    expect(expires.getTime() - NOW.getTime()).toBe(10 * 60 * 1000);
    const sent = (mail.queue.mock.calls[0] as unknown as [unknown, { to: string; body: string }])[1];
    expect(sent.to).toBe('a@example.test');
    const code = /code is (\d{6})/.exec(sent.body)![1];
    expect(hash).not.toContain(code);

    // the code that was mailed is the one checked: consumeMailCode hashes it the same way
    await codes.consumeMailCode('u1', ` ${code} `);
    expect(repo.consumeMailCode).toHaveBeenCalledWith('u1', hash, NOW);
  });

  it('never asks the repository about a malformed mailed code', async () => {
    const { codes, repo } = setup();
    expect(await codes.consumeMailCode('u1', '12 345')).toBe(false);
    expect(await codes.consume('u1', 'MAIL_2SV', 'abcdef')).toBe(false);
    expect(repo.consumeMailCode).not.toHaveBeenCalled();
  });

  it('consume() dispatches by type', async () => {
    const { codes, repo } = setup();
    await codes.consume('u1', 'RECOVERY', 'abcdef0123456789');
    expect(repo.consumeRecoveryHash).toHaveBeenCalledTimes(1);
    await codes.consume('u1', 'TOTP', '123456');
    expect(repo.sealedSeed).toHaveBeenCalledWith('u1', true);
    expect(repo.consumeMailCode).not.toHaveBeenCalled();
  });
});
