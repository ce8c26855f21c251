// The WebAuthn ceremonies (webauthn.ts) against a software authenticator (test/utils/soft-authenticator.ts):
// the options they hand out, and the verdicts on real registrations and assertions, honest and misbehaving.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SoftAuthenticator, type SoftGetOptions } from '../../../test/utils/soft-authenticator.js';
import {
  CEREMONY_MS,
  challengeKey,
  clientChallenge,
  creationOptions,
  decoyCredential,
  requestOptions,
  verifyAssertion,
  verifyRegistration,
} from './webauthn.js';
import { ORIGIN, PASSKEYS_CONFIG as CONFIG } from '../../../test/utils/fakes/passkeys.js';

const USER = {
  handle: randomBytes(32).toString('base64url'),
  email: 'ada@example.com',
  displayName: 'Ada L',
};

/** base64url of the UTF-8 text `s` (how a browser encodes clientDataJSON). */
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

/** A passkey registered through verifyRegistration, as the service stores it, and the authenticator holding it. */
async function registered(authenticator = new SoftAuthenticator()) {
  const options = await creationOptions(CONFIG, USER, []);
  const v = await verifyRegistration(
    CONFIG,
    authenticator.create(options, { origin: ORIGIN }),
    options.challenge,
  );
  if (!v.ok) throw new Error(v.reason);
  const passkey = { credential_id: v.credentialId, public_key: v.publicKey, transports: v.transports };
  return { authenticator, passkey };
}

/** An assertion by `authenticator` over fresh request options for `passkey`, with the misbehaviours given. */
async function assertion(
  authenticator: SoftAuthenticator,
  passkey: { credential_id: string; transports: string[] },
  o: Partial<SoftGetOptions> = {},
  uv: 'required' | 'preferred' = 'required',
) {
  const options = await requestOptions(CONFIG, [passkey], uv);
  return { response: authenticator.get(options, { origin: ORIGIN, ...o }), challenge: options.challenge };
}

/** verifyAssertion's verdict on an assertion for its challenge, user verification required or not. */
const verified = (
  a: Awaited<ReturnType<typeof assertion>>,
  passkey: Parameters<typeof verifyAssertion>[3],
  requireUv: boolean,
) => verifyAssertion(CONFIG, a.response, a.challenge, passkey, requireUv);

describe('challengeKey', () => {
  it('is the SHA-256 of the challenge, hex', () => {
    expect(challengeKey('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(challengeKey('abc')).toMatch(/^[0-9a-f]{64}$/);
    expect(challengeKey('abd')).not.toBe(challengeKey('abc'));
  });
});

describe('clientChallenge', () => {
  it('reads the challenge of base64url client data, padded or not', () => {
    const data = JSON.stringify({ type: 'webauthn.get', challenge: 'Q2hhbGxlbmdl', origin: ORIGIN });
    expect(clientChallenge(b64(data))).toBe('Q2hhbGxlbmdl');
    expect(
      clientChallenge(Buffer.from(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_')),
    ).toBe('Q2hhbGxlbmdl');
  });

  it('reads what a real authenticator wrote', async () => {
    const options = await creationOptions(CONFIG, USER, []);
    const response = new SoftAuthenticator().create(options, { origin: ORIGIN });
    expect(clientChallenge(response.response.clientDataJSON)).toBe(options.challenge);
  });

  it.each([
    ['characters outside base64url', 'eyJjaGFsbGVuZ2UiOiJhIn0+/'],
    ['spaces', 'eyJj aGFs'],
    ['an empty string', ''],
    ['base64url that is not JSON', b64('not json at all')],
    ['JSON null', b64('null')],
    ['a JSON string', b64('"abc"')],
    ['JSON without a challenge', b64(JSON.stringify({ type: 'webauthn.get' }))],
    ['a numeric challenge', b64(JSON.stringify({ challenge: 12345 }))],
    ['an object challenge', b64(JSON.stringify({ challenge: { a: 1 } }))],
    ['an empty challenge', b64(JSON.stringify({ challenge: '' }))],
    ['a challenge of 257 characters', b64(JSON.stringify({ challenge: 'a'.repeat(257) }))],
  ])('is null for %s', (_name, input) => {
    expect(clientChallenge(input)).toBeNull();
  });

  it('accepts a challenge of 256 characters, the longest', () => {
    expect(clientChallenge(b64(JSON.stringify({ challenge: 'a'.repeat(256) })))).toBe('a'.repeat(256));
  });

  it.each([
    ['a number', 123],
    ['undefined', undefined],
    ['null', null],
    ['an object', { challenge: 'abc' }],
  ])('is null (does not throw) for a non-string: %s', (_name, input) => {
    expect(clientChallenge(input as unknown as string)).toBeNull();
  });
});

describe('creationOptions', () => {
  it('names the RP, the user by their handle’s bytes, ES256 and RS256, no attestation, discoverable preferred', async () => {
    const o = await creationOptions(CONFIG, USER, []);
    expect(o.rp).toEqual({ id: 'localhost', name: 'Portcullis' });
    expect(o.user).toEqual({ id: USER.handle, name: 'ada@example.com', displayName: 'Ada L' });
    expect(Buffer.from(o.user.id, 'base64url')).toEqual(Buffer.from(USER.handle, 'base64url'));
    expect(o.pubKeyCredParams.map((p) => p.alg)).toEqual([-7, -257]);
    expect(o.pubKeyCredParams.every((p) => p.type === 'public-key')).toBe(true);
    expect(o.attestation).toBe('none');
    expect(o.timeout).toBe(CEREMONY_MS);
    expect(CEREMONY_MS).toBe(5 * 60_000);
    expect(o.authenticatorSelection).toMatchObject({
      residentKey: 'preferred',
      userVerification: 'preferred',
    });
    expect(o.excludeCredentials).toEqual([]);
    expect(Buffer.from(o.challenge, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('excludes the account’s passkeys with their transports, and each call has its own challenge', async () => {
    const exclude = [
      { credential_id: 'Y3JlZC0x', transports: ['internal'] },
      { credential_id: 'Y3JlZC0y', transports: ['usb', 'nfc'] },
    ];
    const a = await creationOptions(CONFIG, USER, exclude);
    const b = await creationOptions(CONFIG, USER, exclude);
    expect(a.excludeCredentials).toEqual([
      { id: 'Y3JlZC0x', type: 'public-key', transports: ['internal'] },
      { id: 'Y3JlZC0y', type: 'public-key', transports: ['usb', 'nfc'] },
    ]);
    expect(a.challenge).not.toBe(b.challenge);
  });

  it('an authenticator that holds an excluded passkey refuses to make another', async () => {
    const { authenticator, passkey } = await registered();
    const o = await creationOptions(CONFIG, USER, [passkey]);
    expect(() => authenticator.create(o, { origin: ORIGIN })).toThrow(
      expect.objectContaining({ name: 'InvalidStateError' }),
    );
  });
});

describe('requestOptions', () => {
  it('names the RP ID, the passkeys allowed with their transports, and the user verification asked', async () => {
    const allow = [{ credential_id: 'Y3JlZC0x', transports: ['internal', 'hybrid'] }];
    const required = await requestOptions(CONFIG, allow, 'required');
    expect(required).toMatchObject({ rpId: 'localhost', timeout: CEREMONY_MS, userVerification: 'required' });
    expect(required.allowCredentials).toEqual([
      { id: 'Y3JlZC0x', type: 'public-key', transports: ['internal', 'hybrid'] },
    ]);
    expect((await requestOptions(CONFIG, allow, 'preferred')).userVerification).toBe('preferred');
  });

  it('allows none for a usernameless sign-in; each call has its own challenge', async () => {
    const a = await requestOptions(CONFIG, [], 'required');
    const b = await requestOptions(CONFIG, [], 'required');
    expect(a.allowCredentials).toEqual([]);
    expect(a.challenge).not.toBe(b.challenge);
  });
});

describe('verifyRegistration', () => {
  it('keeps what verifies the passkey: its id, key, counter, transports, AAGUID, device type, backup', async () => {
    const aaguid = '01020304-0506-0708-090a-0b0c0d0e0f10';
    const authenticator = new SoftAuthenticator({ aaguid });
    const options = await creationOptions(CONFIG, USER, []);
    const response = authenticator.create(options, {
      origin: ORIGIN,
      transports: ['usb', 'nfc'],
      backupEligible: true,
      backedUp: true,
    });
    const v = await verifyRegistration(CONFIG, response, options.challenge);
    expect(v).toMatchObject({
      ok: true,
      credentialId: response.id,
      counter: 0,
      transports: ['usb', 'nfc'],
      aaguid,
      deviceType: 'multiDevice',
      backedUp: true,
    });
    if (!v.ok) throw new Error(v.reason);
    expect(v.publicKey).toBeInstanceOf(Buffer);
    expect(v.publicKey.length).toBeGreaterThan(64);
  });

  it('a device-bound passkey without backup: singleDevice, not backed up, the zero AAGUID', async () => {
    const options = await creationOptions(CONFIG, USER, []);
    const response = new SoftAuthenticator().create(options, { origin: ORIGIN });
    expect(await verifyRegistration(CONFIG, response, options.challenge)).toMatchObject({
      ok: true,
      deviceType: 'singleDevice',
      backedUp: false,
      aaguid: '00000000-0000-0000-0000-000000000000',
      transports: ['internal', 'hybrid'],
    });
  });

  it('accepts any of the configured origins', async () => {
    const config = { ...CONFIG, origins: [ORIGIN, 'http://localhost:4000'] };
    const options = await creationOptions(config, USER, []);
    const response = new SoftAuthenticator().create(options, { origin: 'http://localhost:4000' });
    expect((await verifyRegistration(config, response, options.challenge)).ok).toBe(true);
  });

  it('does not require user verification at registration', async () => {
    const options = await creationOptions(CONFIG, USER, []);
    const response = new SoftAuthenticator().create(options, { origin: ORIGIN, userVerified: false });
    expect((await verifyRegistration(CONFIG, response, options.challenge)).ok).toBe(true);
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }, /origin/i],
    ['another RP ID', { origin: ORIGIN, rpId: 'evil.example' }, /RP ID/i],
    ['another challenge', { origin: ORIGIN, challenge: 'b3RoZXItY2hhbGxlbmdl' }, /challenge/i],
    ['a get instead of a create', { origin: ORIGIN, type: 'webauthn.get' }, /type/i],
  ])('refuses %s, with the verifier’s reason', async (_name, o, reason) => {
    const options = await creationOptions(CONFIG, USER, []);
    const response = new SoftAuthenticator().create(options, o);
    const v = await verifyRegistration(CONFIG, response, options.challenge);
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.reason).toMatch(reason);
    expect(v.reason.length).toBeLessThanOrEqual(300);
  });

  it('refuses a malformed attestation with a reason instead of throwing', async () => {
    const options = await creationOptions(CONFIG, USER, []);
    const response = new SoftAuthenticator().create(options, { origin: ORIGIN });
    response.response.attestationObject = b64('not cbor');
    const v = await verifyRegistration(CONFIG, response, options.challenge);
    expect(v).toEqual({ ok: false, reason: expect.any(String) });
  });
});

describe('verifyAssertion', () => {
  it('accepts the passkey’s own assertion: its counter and user verification', async () => {
    const { authenticator, passkey } = await registered();
    const first = await assertion(authenticator, passkey);
    expect(await verified(first, passkey, true)).toEqual({ counter: 1, userVerified: true });
    const second = await assertion(authenticator, passkey);
    expect(await verified(second, passkey, true)).toEqual({ counter: 2, userVerified: true });
  });

  it('without user verification, passes only when it is not required, and says it was not verified', async () => {
    const { authenticator, passkey } = await registered();
    const a = await assertion(authenticator, passkey, { userVerified: false }, 'preferred');
    expect(await verified(a, passkey, false)).toEqual({ counter: 1, userVerified: false });
    expect(await verified(a, passkey, true)).toBeNull();
  });

  it('an authenticator without a counter reports 0, and passes', async () => {
    const { authenticator, passkey } = await registered(new SoftAuthenticator({ counterStep: 0 }));
    const a = await assertion(authenticator, passkey);
    expect(await verified(a, passkey, true)).toEqual({ counter: 0, userVerified: true });
  });

  it('does not judge the counter: a lower one than before is returned for the caller to judge', async () => {
    const { authenticator, passkey } = await registered();
    const high = await assertion(authenticator, passkey, { counter: 50 });
    expect(await verified(high, passkey, true)).toMatchObject({ counter: 50 });
    const clone = authenticator.clone();
    const low = await assertion(clone, passkey, { counter: 3 });
    expect(await verified(low, passkey, true)).toEqual({ counter: 3, userVerified: true });
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { rpId: 'evil.example' }],
    ['another challenge', { challenge: 'b3RoZXItY2hhbGxlbmdl' }],
    ['a create instead of a get', { type: 'webauthn.create' }],
    ['no user presence', { userPresent: false, userVerified: false }],
    ['a tampered signature', { tamperSignature: true }],
    [
      'a signature by another key',
      { signWith: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey },
    ],
  ] as [string, Partial<SoftGetOptions>][])('is null for %s', async (_name, o) => {
    const { authenticator, passkey } = await registered();
    const a = await assertion(authenticator, passkey, o, 'preferred');
    expect(await verified(a, passkey, false)).toBeNull();
    // the same authenticator's honest answer passes: the refusal is the misbehaviour's
    const honest = await assertion(authenticator, passkey, {}, 'preferred');
    expect(await verified(honest, passkey, false)).not.toBeNull();
  });

  it('is null for another passkey’s key (the assertion is not this passkey’s)', async () => {
    const mine = await registered();
    const theirs = await registered();
    const a = await assertion(mine.authenticator, mine.passkey);
    const forged = { ...mine.passkey, public_key: theirs.passkey.public_key };
    expect(await verified(a, forged, true)).toBeNull();
  });

  it('is null for a malformed response instead of throwing', async () => {
    const { authenticator, passkey } = await registered();
    const a = await assertion(authenticator, passkey);
    a.response.response.authenticatorData = b64('short');
    expect(await verified(a, passkey, true)).toBeNull();
  });
});

describe('decoyCredential', () => {
  const key = randomBytes(32);
  const other = randomBytes(32);

  it('is the same for the same email and key, at every request', () => {
    expect(decoyCredential(key, 'ghost@example.com')).toEqual(decoyCredential(key, 'ghost@example.com'));
  });

  it('has the shape of a real passkey’s: 16 bytes base64url, a platform passkey’s transports', () => {
    const d = decoyCredential(key, 'ghost@example.com');
    expect(Buffer.from(d.credential_id, 'base64url')).toHaveLength(16);
    expect(d.credential_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(d.transports).toEqual(['internal', 'hybrid']);
  });

  it('differs between emails and between keys', () => {
    const a = decoyCredential(key, 'ghost@example.com').credential_id;
    expect(decoyCredential(key, 'other@example.com').credential_id).not.toBe(a);
    expect(decoyCredential(other, 'ghost@example.com').credential_id).not.toBe(a);
  });
});
