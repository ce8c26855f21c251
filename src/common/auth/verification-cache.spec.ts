import { jest } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { SignJWT } from 'jose';
import { installVerificationCache } from './verification-cache.js';

const require = createRequire(import.meta.url);
const jwt = require('jsonwebtoken') as { verify: (...args: unknown[]) => unknown };
const { Strategy } = require('passport-jwt') as {
  Strategy: {
    JwtVerifier: (t: string, k: unknown, o: unknown, cb: (e: Error | null, p?: unknown) => void) => void;
  };
};

const keyPair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const sign = (key: ReturnType<typeof keyPair>, expSeconds: number) =>
  new SignJWT({ id: 'x' })
    .setProtectedHeader({ alg: 'ES256' })
    .setExpirationTime(Math.floor(Date.now() / 1000) + expSeconds)
    .sign(key.privateKey);
const verify = (token: string, key: unknown) =>
  new Promise<{ err: Error | null; payload?: unknown }>((resolve) =>
    Strategy.JwtVerifier(token, key, { algorithms: ['ES256'] }, (err, payload) => resolve({ err, payload })),
  );

describe('JWT verification cache', () => {
  const spy = jest.spyOn(jwt, 'verify');
  beforeAll(() => installVerificationCache());
  beforeEach(() => spy.mockClear());

  it('verifies a token once per key, then answers from memory', async () => {
    const k = keyPair();
    const token = await sign(k, 60);
    expect((await verify(token, k.publicKey)).err).toBeNull();
    expect((await verify(token, k.publicKey)).err).toBeNull();
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('never accepts a changed token or another key from memory', async () => {
    const k = keyPair();
    const token = await sign(k, 60);
    await verify(token, k.publicKey);
    const [h, p, s] = token.split('.');
    const tampered = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await verify(tampered, k.publicKey)).err).not.toBeNull();
    expect((await verify(token, keyPair().publicKey)).err).not.toBeNull();
  });

  it('re-checks expiry on a hit', async () => {
    const k = keyPair();
    const token = await sign(k, 1);
    expect((await verify(token, k.publicKey)).err).toBeNull();
    await new Promise((r) => setTimeout(r, 1100));
    expect((await verify(token, k.publicKey)).err).not.toBeNull();
  });
});
