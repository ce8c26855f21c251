import { jest } from '@jest/globals';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { SignJWT } from 'jose';
import type { SigningKeysService } from '../base/keys/signing-keys.service.js';
import { Clock } from '../base/common/clock.js';
import { kidOf, TokenVerificationError, TokenVerifier } from './token-verifier.js';

const keyPair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const sign = (key: KeyObject, kid: string, expSeconds: number, claims: Record<string, unknown> = {}) =>
  new SignJWT({ id: 'token-id', app_id: 'app-id', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid })
    .setExpirationTime(Math.floor(Date.now() / 1000) + expSeconds)
    .sign(key);

describe('TokenVerifier', () => {
  const a = keyPair();
  const b = keyPair();
  const keys = { verificationKey: async (kid: string) => ({ a: a.publicKey, b: b.publicKey })[kid] ?? null };
  const clock = new Clock();
  const verifier = () => new TokenVerifier(keys as unknown as SigningKeysService, clock);
  afterEach(() => clock.reset());
  const spy = jest.spyOn(jwt, 'verify');
  beforeEach(() => spy.mockClear());

  it('verifies a token of a known key by its kid, once: later presentations hit the cache', async () => {
    const v = verifier();
    const token = await sign(a.privateKey, 'a', 60);
    expect(await v.verify(token)).toMatchObject({ id: 'token-id', app_id: 'app-id' });
    expect(await v.verify(token)).toMatchObject({ id: 'token-id' });
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('refuses an unknown kid, another key’s signature, a changed token, and an expired token by name', async () => {
    const v = verifier();
    await expect(v.verify(await sign(a.privateKey, 'zz', 60))).rejects.toBeInstanceOf(TokenVerificationError);
    await expect(v.verify(await sign(b.privateKey, 'a', 60))).rejects.toMatchObject({
      name: 'JsonWebTokenError',
    });
    const good = await sign(a.privateKey, 'a', 60);
    await v.verify(good);
    const [h, p, s] = good.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ id: 'other', app_id: 'x', exp: 9e9 })).toString('base64url')}.${s}`;
    await expect(v.verify(forged)).rejects.toMatchObject({ name: 'JsonWebTokenError' });
    expect(p).toBeDefined();
    await expect(v.verify(await sign(a.privateKey, 'a', -10))).rejects.toMatchObject({
      name: 'TokenExpiredError',
    });
  });

  it('accepts ES256 only: alg none and an HMAC made with the public key are refused', async () => {
    const v = verifier();
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'a' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ id: 'x', app_id: 'y', exp: Math.floor(Date.now() / 1000) + 60 }),
    ).toString('base64url')}.`;
    await expect(v.verify(none)).rejects.toBeInstanceOf(TokenVerificationError);
    const pem = a.publicKey.export({ type: 'spki', format: 'pem' });
    const hs = jwt.sign({ id: 'x', app_id: 'y' }, pem, { algorithm: 'HS256', keyid: 'a', expiresIn: 60 });
    await expect(v.verify(hs)).rejects.toBeInstanceOf(TokenVerificationError);
  });

  it('a cached verification does not outlive its expiry, nor serve another key', async () => {
    const v = verifier();
    const token = await sign(a.privateKey, 'a', 1);
    await v.verify(token);
    expect(() => v.verifyWith(token, b.publicKey)).toThrow(TokenVerificationError);
    clock.advance(1100);
    await expect(v.verify(token)).rejects.toMatchObject({ name: 'TokenExpiredError' });
  });

  it('verifyOrNull answers null instead of throwing', async () => {
    expect(await verifier().verifyOrNull('not.a.jwt')).toBeNull();
  });
});

describe('kidOf', () => {
  const header = (h: unknown) => Buffer.from(JSON.stringify(h)).toString('base64url');

  it("reads the header's kid, and answers the same from memory for the next token with that header", () => {
    const h = header({ alg: 'ES256', kid: 'key-1' });
    expect(kidOf(`${h}.payload-1.sig`)).toBe('key-1');
    expect(kidOf(`${h}.payload-2.sig`)).toBe('key-1');
    expect(kidOf(h)).toBe('key-1');
  });

  it('answers null for a missing or non-string kid and for a header that is not JSON, every time', () => {
    for (let round = 0; round < 2; round++) {
      expect(kidOf(`${header({ alg: 'ES256' })}.p.s`)).toBeNull();
      expect(kidOf(`${header({ alg: 'ES256', kid: 7 })}.p.s`)).toBeNull();
      expect(kidOf('not-base64-json.p.s')).toBeNull();
      expect(kidOf('')).toBeNull();
    }
  });

  it('stays right for many distinct headers (the memo is bounded and refilled), and for oversized ones', () => {
    for (let i = 0; i < 300; i++)
      expect(kidOf(`${header({ alg: 'ES256', kid: `k${i}` })}.p.s`)).toBe(`k${i}`);
    for (let i = 0; i < 300; i += 37)
      expect(kidOf(`${header({ alg: 'ES256', kid: `k${i}` })}.x.y`)).toBe(`k${i}`);
    const big = header({ alg: 'ES256', kid: 'big', pad: 'x'.repeat(2000) });
    expect(kidOf(`${big}.p.s`)).toBe('big');
    expect(kidOf(`${big}.p.s`)).toBe('big');
  });
});
