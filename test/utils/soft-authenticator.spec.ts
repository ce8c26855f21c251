// The software authenticator (test/utils/soft-authenticator.ts) answers as a platform passkey: its answers
// pass the verifier the service uses (@simplewebauthn/server), and each misbehaviour it can be told to commit
// is one that verifier refuses, so that an e2e suite refusing it proves the service's check, not a broken fake.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import {
  convertCOSEtoPKCS,
  decodeAttestationObject,
  decodeClientDataJSON,
  isoBase64URL,
  parseAuthenticatorData,
} from '@simplewebauthn/server/helpers';
import {
  cbor,
  SoftAuthenticator,
  type SoftCreateOptions,
  type SoftGetOptions,
} from './soft-authenticator.js';

const rpID = 'localhost';
const origin = 'http://localhost:3000';

async function creationOptions(
  extra: Partial<Parameters<typeof generateRegistrationOptions>[0]> = {},
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: 'Portcullis',
    rpID,
    userName: 'ada@example.com',
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    ...extra,
  });
}

async function verifyRegistration(
  response: RegistrationResponseJSON,
  expectedChallenge: string,
  extra: { requireUserVerification?: boolean } = {},
) {
  return verifyRegistrationResponse({
    response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    ...extra,
  });
}

/** Registers a credential with `authenticator` and returns what the relying party keeps of it. */
async function register(
  authenticator: SoftAuthenticator,
  o: Partial<SoftCreateOptions> = {},
): Promise<{ credential: WebAuthnCredential; userHandle: string }> {
  const options = await creationOptions();
  const result = await verifyRegistration(authenticator.create(options, { origin, ...o }), options.challenge);
  expect(result.verified).toBe(true);
  return { credential: result.registrationInfo!.credential, userHandle: options.user.id };
}

async function verifyAssertion(
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  credential: WebAuthnCredential,
  requireUserVerification = true,
) {
  return verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential,
    requireUserVerification,
  });
}

describe('SoftAuthenticator registration', () => {
  it('answers a registration the verifier accepts, with the credential it keeps', async () => {
    const authenticator = new SoftAuthenticator();
    const options = await creationOptions();
    const response = authenticator.create(options, { origin });

    const result = await verifyRegistration(response, options.challenge);

    expect(result.verified).toBe(true);
    const info = result.registrationInfo!;
    expect(info.fmt).toBe('none');
    expect(info.userVerified).toBe(true);
    expect(info.aaguid).toBe('00000000-0000-0000-0000-000000000000');
    expect(info.origin).toBe(origin);
    expect(info.rpID).toBe(rpID);
    expect(info.credentialDeviceType).toBe('singleDevice');
    expect(info.credentialBackedUp).toBe(false);
    expect(authenticator.credentials).toHaveLength(1);
    const held = authenticator.credentials[0];
    expect(info.credential.id).toBe(held.id);
    expect(response.id).toBe(held.id);
    expect(isoBase64URL.toBuffer(held.id).length).toBeGreaterThanOrEqual(16);
    expect(isoBase64URL.toBuffer(held.id).length).toBeLessThanOrEqual(32);
    expect(info.credential.counter).toBe(0);
    expect(info.credential.transports).toEqual(['internal', 'hybrid']);
    expect(held).toMatchObject({ rpId: rpID, userHandle: options.user.id, counter: 0, discoverable: true });
    // the COSE key the verifier keeps is the authenticator's public key: 0x04 ‖ x ‖ y
    const jwk = held.publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([
      Buffer.from([4]),
      Buffer.from(jwk.x!, 'base64url'),
      Buffer.from(jwk.y!, 'base64url'),
    ]);
    expect(Buffer.from(convertCOSEtoPKCS(info.credential.publicKey))).toEqual(point);
  });

  it('writes the response members a browser writes: clientData, authenticator data, SPKI key, attachment', async () => {
    const authenticator = new SoftAuthenticator({ aaguid: 'adce0002-35bc-c60a-648b-0b25f1f05503' });
    const options = await creationOptions();
    const response = authenticator.create(options, { origin, transports: ['internal'] });

    expect(response).toMatchObject({
      type: 'public-key',
      rawId: response.id,
      authenticatorAttachment: 'platform',
    });
    expect(response.clientExtensionResults).toEqual({});
    expect(Buffer.from(response.response.clientDataJSON, 'base64url').toString()).toBe(
      JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }),
    );
    expect(response.response.publicKeyAlgorithm).toBe(-7);
    expect(response.response.transports).toEqual(['internal']);
    const spki = authenticator.credentials[0].publicKey.export({ type: 'spki', format: 'der' });
    expect(response.response.publicKey).toBe(spki.toString('base64url'));
    const attestation = decodeAttestationObject(isoBase64URL.toBuffer(response.response.attestationObject));
    expect(attestation.get('fmt')).toBe('none');
    expect(attestation.get('attStmt').size).toBe(0);
    expect(Buffer.from(attestation.get('authData')).toString('base64url')).toBe(
      response.response.authenticatorData,
    );
    const authData = parseAuthenticatorData(attestation.get('authData'));
    expect(Buffer.from(authData.rpIdHash)).toEqual(createHash('sha256').update(rpID).digest());
    expect(authData.flags).toMatchObject({ up: true, uv: true, at: true, be: false, bs: false, ed: false });
    expect(authData.counter).toBe(0);

    const result = await verifyRegistration(response, options.challenge);
    expect(result.registrationInfo!.aaguid).toBe('adce0002-35bc-c60a-648b-0b25f1f05503');
  });

  it('reports a synced passkey (BE and BS) as multi-device and backed up', async () => {
    const authenticator = new SoftAuthenticator();
    const options = await creationOptions();
    const response = authenticator.create(options, { origin, backupEligible: true, backedUp: true });

    const result = await verifyRegistration(response, options.challenge);

    expect(result.registrationInfo).toMatchObject({
      credentialDeviceType: 'multiDevice',
      credentialBackedUp: true,
    });
  });

  const refusals: [string, Partial<SoftCreateOptions>, RegExp][] = [
    ['another origin', { origin: 'http://evil.example:3000' }, /origin/],
    ['another RP ID', { rpId: 'evil.example' }, /RP ID/],
    ['another challenge', { challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' }, /challenge/],
    ['an assertion type', { type: 'webauthn.get' }, /type/],
    ['no user verification', { userVerified: false }, /User verification was required/],
    ['no user presence', { userPresent: false }, /User presence was required/],
    ['backed up but not backup eligible', { backedUp: true }, /backed up/],
  ];
  it.each(refusals)(
    'gives a registration the verifier refuses on request: %s',
    async (_, misbehaviour, error) => {
      const options = await creationOptions();
      const response = new SoftAuthenticator().create(options, { origin, ...misbehaviour });

      await expect(verifyRegistration(response, options.challenge)).rejects.toThrow(error);
    },
  );

  it('registers without user verification when the relying party does not require it', async () => {
    const options = await creationOptions();
    const response = new SoftAuthenticator().create(options, { origin, userVerified: false });

    const result = await verifyRegistration(response, options.challenge, { requireUserVerification: false });

    expect(result.verified).toBe(true);
    expect(result.registrationInfo!.userVerified).toBe(false);
  });

  it('refuses to create a credential it already holds among excludeCredentials (InvalidStateError)', async () => {
    const authenticator = new SoftAuthenticator();
    const { credential } = await register(authenticator);
    const other = new SoftAuthenticator();
    await register(other);

    const options = await creationOptions({
      excludeCredentials: [{ id: other.credentials[0].id }, { id: credential.id }],
    });
    expect(() => authenticator.create(options, { origin })).toThrow(
      expect.objectContaining({ name: 'InvalidStateError' }),
    );
    expect(authenticator.credentials).toHaveLength(1);
    // an excluded credential the authenticator does not hold does not stop it
    const fresh = new SoftAuthenticator();
    const result = await verifyRegistration(fresh.create(options, { origin }), options.challenge);
    expect(result.verified).toBe(true);
  });

  it('refuses options that do not offer ES256', async () => {
    const options = await creationOptions({ supportedAlgorithmIDs: [-8, -257] });
    const authenticator = new SoftAuthenticator();

    expect(() => authenticator.create(options, { origin })).toThrow(/ES256/);
    expect(authenticator.credentials).toHaveLength(0);
  });
});

describe('SoftAuthenticator assertions', () => {
  it('answers assertions the verifier accepts, the counter stepping by one', async () => {
    const authenticator = new SoftAuthenticator();
    const { credential } = await register(authenticator);

    for (const expected of [1, 2]) {
      const options = await generateAuthenticationOptions({
        rpID,
        allowCredentials: [{ id: credential.id }],
      });
      const response = authenticator.get(options, { origin });
      const result = await verifyAssertion(response, options.challenge, credential);
      expect(result.verified).toBe(true);
      expect(result.authenticationInfo).toMatchObject({
        newCounter: expected,
        userVerified: true,
        credentialID: credential.id,
        origin,
        rpID,
      });
      expect(authenticator.credentials[0].counter).toBe(expected);
      credential.counter = result.authenticationInfo.newCounter;
    }
  });

  it('writes the response members a browser writes, without a userHandle for a non-discoverable credential', async () => {
    const authenticator = new SoftAuthenticator();
    const { credential } = await register(authenticator, { discoverable: false });
    const options = await generateAuthenticationOptions({ rpID, allowCredentials: [{ id: credential.id }] });

    const response = authenticator.get(options, { origin });

    expect(response).toMatchObject({ id: credential.id, rawId: credential.id, type: 'public-key' });
    expect(response.authenticatorAttachment).toBe('platform');
    expect(response.clientExtensionResults).toEqual({});
    expect(response.response).not.toHaveProperty('userHandle');
    expect(decodeClientDataJSON(response.response.clientDataJSON)).toEqual({
      type: 'webauthn.get',
      challenge: options.challenge,
      origin,
      crossOrigin: false,
    });
    const authData = parseAuthenticatorData(isoBase64URL.toBuffer(response.response.authenticatorData));
    expect(authData.flags).toMatchObject({ up: true, uv: true, at: false, be: false, bs: false });
    expect(authData.counter).toBe(1);
  });

  it('steps the counter by counterStep', async () => {
    const authenticator = new SoftAuthenticator({ counterStep: 5 });
    const { credential } = await register(authenticator);
    const options = await generateAuthenticationOptions({ rpID });

    const result = await verifyAssertion(
      authenticator.get(options, { origin }),
      options.challenge,
      credential,
    );

    expect(result.authenticationInfo.newCounter).toBe(5);
  });

  it('reports 0 every time as an authenticator without a counter (counterStep 0), which the verifier accepts', async () => {
    const authenticator = new SoftAuthenticator({ counterStep: 0 });
    const { credential } = await register(authenticator);
    expect(credential.counter).toBe(0);

    for (let i = 0; i < 2; i++) {
      const options = await generateAuthenticationOptions({ rpID });
      const result = await verifyAssertion(
        authenticator.get(options, { origin }),
        options.challenge,
        credential,
      );
      expect(result.verified).toBe(true);
      expect(result.authenticationInfo.newCounter).toBe(0);
    }
  });

  it('echoes the backup flags of a synced passkey', async () => {
    const authenticator = new SoftAuthenticator();
    const { credential } = await register(authenticator, { backupEligible: true, backedUp: true });
    const options = await generateAuthenticationOptions({ rpID });

    const result = await verifyAssertion(
      authenticator.get(options, { origin }),
      options.challenge,
      credential,
    );

    expect(result.authenticationInfo).toMatchObject({
      credentialDeviceType: 'multiDevice',
      credentialBackedUp: true,
    });
  });

  it('signs in usernameless (empty allowCredentials) with the discoverable credential, sending its userHandle', async () => {
    const authenticator = new SoftAuthenticator();
    await register(authenticator, { discoverable: false });
    const { credential, userHandle } = await register(authenticator, { discoverable: true });
    const options = await generateAuthenticationOptions({ rpID, allowCredentials: [] });
    expect(options.allowCredentials ?? []).toEqual([]);

    const response = authenticator.get(options, { origin });

    expect(response.id).toBe(credential.id);
    expect(response.response.userHandle).toBe(userHandle);
    expect((await verifyAssertion(response, options.challenge, credential)).verified).toBe(true);
  });

  it('chooses the held credential that allowCredentials names, and the one o.credentialId names', async () => {
    const authenticator = new SoftAuthenticator();
    const first = await register(authenticator);
    const second = await register(authenticator);
    const options = await generateAuthenticationOptions({
      rpID,
      allowCredentials: [{ id: 'AAAAAAAAAAAAAAAAAAAAAA' }, { id: second.credential.id }],
    });

    expect(authenticator.get(options, { origin }).id).toBe(second.credential.id);
    const chosen = authenticator.get(options, { origin, credentialId: first.credential.id });
    expect(chosen.id).toBe(first.credential.id);
    expect((await verifyAssertion(chosen, options.challenge, first.credential)).verified).toBe(true);
  });

  it('sends the userHandle it is told to, or none', async () => {
    const authenticator = new SoftAuthenticator();
    await register(authenticator);
    const options = await generateAuthenticationOptions({ rpID });

    expect(authenticator.get(options, { origin, userHandle: 'b3RoZXI' }).response.userHandle).toBe('b3RoZXI');
    expect(authenticator.get(options, { origin, userHandle: null }).response).not.toHaveProperty(
      'userHandle',
    );
  });

  it('throws NotAllowedError when no held credential fits', async () => {
    const authenticator = new SoftAuthenticator();
    await register(authenticator, { discoverable: false });
    const notAllowed = expect.objectContaining({ name: 'NotAllowedError' });

    const usernameless = await generateAuthenticationOptions({ rpID });
    expect(() => authenticator.get(usernameless, { origin })).toThrow(notAllowed);
    const unknown = await generateAuthenticationOptions({
      rpID,
      allowCredentials: [{ id: 'AAAAAAAAAAAAAAAAAAAAAA' }],
    });
    expect(() => authenticator.get(unknown, { origin })).toThrow(notAllowed);
    const otherRp = await generateAuthenticationOptions({
      rpID: 'other.example',
      allowCredentials: [{ id: authenticator.credentials[0].id }],
    });
    expect(() => authenticator.get(otherRp, { origin: 'https://other.example' })).toThrow(notAllowed);
    expect(() => authenticator.get(usernameless, { origin, credentialId: 'AAAAAAAAAAAAAAAAAAAAAA' })).toThrow(
      notAllowed,
    );
  });

  const refusals: [string, Partial<SoftGetOptions>, RegExp][] = [
    ['another origin', { origin: 'http://evil.example:3000' }, /origin/],
    ['another RP ID', { rpId: 'evil.example' }, /RP ID/],
    ['another challenge', { challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' }, /challenge/],
    ['a registration type', { type: 'webauthn.create' }, /type/],
    ['no user verification', { userVerified: false }, /User verification required/],
    ['no user presence', { userPresent: false }, /User not present/],
  ];
  it.each(refusals)(
    'gives an assertion the verifier refuses on request: %s',
    async (_, misbehaviour, error) => {
      const authenticator = new SoftAuthenticator();
      const { credential } = await register(authenticator);
      const options = await generateAuthenticationOptions({ rpID });

      const response = authenticator.get(options, { origin, ...misbehaviour });

      await expect(verifyAssertion(response, options.challenge, credential)).rejects.toThrow(error);
    },
  );

  it('signs without user verification, which the verifier accepts only when it does not require it', async () => {
    const authenticator = new SoftAuthenticator();
    const { credential } = await register(authenticator);
    const options = await generateAuthenticationOptions({ rpID });

    const result = await verifyAssertion(
      authenticator.get(options, { origin, userVerified: false }),
      options.challenge,
      credential,
      false,
    );

    expect(result.verified).toBe(true);
    expect(result.authenticationInfo.userVerified).toBe(false);
  });

  it('forges an assertion signed with another key, which the verifier finds unverified', async () => {
    const authenticator = new SoftAuthenticator();
    const { credential } = await register(authenticator);
    const options = await generateAuthenticationOptions({ rpID });
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

    const result = await verifyAssertion(
      authenticator.get(options, { origin, signWith: privateKey }),
      options.challenge,
      credential,
    );

    expect(result.verified).toBe(false);
  });

  it('tampers with the signature, which the verifier finds unverified', async () => {
    const authenticator = new SoftAuthenticator();
    const { credential } = await register(authenticator);
    const options = await generateAuthenticationOptions({ rpID });
    const genuine = authenticator.get(options, { origin, counter: 1 });
    const tampered = authenticator.get(options, { origin, counter: 1, tamperSignature: true });
    // the same signed bytes (ECDSA signatures differ each time, so only the verdict can be compared)
    expect(tampered.response.authenticatorData).toBe(genuine.response.authenticatorData);
    expect(tampered.response.clientDataJSON).toBe(genuine.response.clientDataJSON);

    expect((await verifyAssertion(genuine, options.challenge, credential)).verified).toBe(true);
    expect((await verifyAssertion(tampered, options.challenge, credential)).verified).toBe(false);
  });

  it('reports a counter going backwards on request, which the verifier refuses; the held counter is kept', async () => {
    const authenticator = new SoftAuthenticator();
    const { credential } = await register(authenticator);
    for (let i = 0; i < 2; i++) {
      const options = await generateAuthenticationOptions({ rpID });
      const result = await verifyAssertion(
        authenticator.get(options, { origin }),
        options.challenge,
        credential,
      );
      credential.counter = result.authenticationInfo.newCounter;
    }
    expect(credential.counter).toBe(2);

    for (const replayed of [2, 1]) {
      const options = await generateAuthenticationOptions({ rpID });
      const response = authenticator.get(options, { origin, counter: replayed });
      await expect(verifyAssertion(response, options.challenge, credential)).rejects.toThrow(/counter/);
    }
    expect(authenticator.credentials[0].counter).toBe(2);
    const options = await generateAuthenticationOptions({ rpID });
    const result = await verifyAssertion(
      authenticator.get(options, { origin }),
      options.challenge,
      credential,
    );
    expect(result.authenticationInfo.newCounter).toBe(3);
  });

  it('clone() holds the same credentials, whose counters then diverge (a cloned authenticator is caught)', async () => {
    const authenticator = new SoftAuthenticator({ aaguid: 'adce0002-35bc-c60a-648b-0b25f1f05503' });
    const { credential } = await register(authenticator);
    await register(authenticator, { discoverable: false });

    const copy = authenticator.clone();

    expect(copy.credentials.map((c) => c.id)).toEqual(authenticator.credentials.map((c) => c.id));
    expect(copy.credentials[0].privateKey).toBe(authenticator.credentials[0].privateKey);
    const first = await generateAuthenticationOptions({ rpID });
    const byCopy = await verifyAssertion(copy.get(first, { origin }), first.challenge, credential);
    expect(byCopy.verified).toBe(true);
    credential.counter = byCopy.authenticationInfo.newCounter;
    expect(authenticator.credentials[0].counter).toBe(0);
    // the original reports the counter the copy already used
    const second = await generateAuthenticationOptions({ rpID });
    await expect(
      verifyAssertion(authenticator.get(second, { origin }), second.challenge, credential),
    ).rejects.toThrow(/counter/);
    const options = await creationOptions();
    const result = await verifyRegistration(copy.create(options, { origin }), options.challenge);
    expect(result.registrationInfo!.aaguid).toBe('adce0002-35bc-c60a-648b-0b25f1f05503');
    expect(authenticator.credentials).toHaveLength(2);
  });
});

describe('cbor', () => {
  it('encodes integers, strings and maps as RFC 8949 appendix A does', () => {
    const hex = (v: Parameters<typeof cbor>[0]) => cbor(v).toString('hex');
    expect(hex(0)).toBe('00');
    expect(hex(23)).toBe('17');
    expect(hex(24)).toBe('1818');
    expect(hex(1000)).toBe('1903e8');
    expect(hex(1000000)).toBe('1a000f4240');
    expect(hex(1000000000000)).toBe('1b000000e8d4a51000');
    expect(hex(-1)).toBe('20');
    expect(hex(-7)).toBe('26');
    expect(hex(-1000)).toBe('3903e7');
    expect(hex('IETF')).toBe('6449455446');
    expect(hex('\u00fc')).toBe('62c3bc');
    expect(hex(Buffer.from('01020304', 'hex'))).toBe('4401020304');
    expect(hex(new Map())).toBe('a0');
    expect(hex(new Map<number, number>([[1, 2]]))).toBe('a10102');
    expect(hex(new Map([['a', new Map<number, number>([[3, 4]])]]))).toBe('a16161a10304');
  });
});
