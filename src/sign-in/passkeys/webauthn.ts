import { createHash, createHmac } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeysConfig } from './passkeys-config.js';

/**
 * The WebAuthn ceremonies, over @simplewebauthn/server (the options, the verification of attestations and
 * assertions: challenge, origin, RP ID hash, flags, signature). What they are for, and who may run them,
 * is the services' (PasskeysService, PasskeySignIn).
 */

/** A challenge's lifetime, and the timeout the options ask the browser for. */
export const CEREMONY_MS = 5 * 60_000;
/** ES256 and RS256, the algorithms every platform authenticator and security key offers. */
const ALGORITHMS = [-7, -257];

/** The key a challenge is kept and claimed by (its SHA-256, hex). */
export const challengeKey = (challenge: string): string =>
  createHash('sha256').update(challenge, 'utf8').digest('hex');

/**
 * The challenge the client data of a response names, or null (not base64url JSON, no challenge): the
 * response is matched to its ceremony by it before anything else is checked.
 */
export function clientChallenge(clientDataJSON: string): string | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(clientDataJSON)) return null;
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 256
      ? challenge
      : null;
  } catch {
    return null;
  }
}

export function creationOptions(
  config: PasskeysConfig,
  user: { handle: string; email: string; displayName: string },
  exclude: { credential_id: string; transports: string[] }[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: config.rpName,
    rpID: config.rpId,
    userName: user.email,
    userID: new Uint8Array(Buffer.from(user.handle, 'base64url')),
    userDisplayName: user.displayName,
    timeout: CEREMONY_MS,
    attestationType: 'none',
    excludeCredentials: exclude.map((p) => ({ id: p.credential_id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
}

export function requestOptions(
  config: PasskeysConfig,
  allow: { credential_id: string; transports: string[] }[],
  userVerification: 'required' | 'preferred',
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: config.rpId,
    timeout: CEREMONY_MS,
    userVerification,
    allowCredentials: allow.map((p) => ({ id: p.credential_id, transports: p.transports })),
  });
}

/** What a response must answer to: this ceremony's challenge, from one of our origins, for our RP ID. */
function expectedCeremony(config: PasskeysConfig, challenge: string) {
  return { expectedChallenge: challenge, expectedOrigin: config.origins, expectedRPID: config.rpId };
}

/** A new passkey's verified facts, or the verifier's reason for refusing it. */
export async function verifyRegistration(
  config: PasskeysConfig,
  response: RegistrationResponseJSON,
  challenge: string,
): Promise<
  | {
      ok: true;
      credentialId: string;
      publicKey: Buffer;
      counter: number;
      transports: string[];
      aaguid: string;
      deviceType: string;
      backedUp: boolean;
    }
  | { ok: false; reason: string }
> {
  try {
    const v = await verifyRegistrationResponse({
      response,
      ...expectedCeremony(config, challenge),
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!v.verified) return { ok: false, reason: 'The attestation could not be verified' };
    const { credential, aaguid, credentialDeviceType, credentialBackedUp } = v.registrationInfo;
    return {
      ok: true,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: [...(credential.transports ?? response.response.transports ?? [])].slice(0, 10),
      aaguid,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message.slice(0, 300) : 'Malformed response' };
  }
}

/**
 * Whether an assertion is the passkey's own over this challenge (origin, RP ID hash, user presence, user
 * verification when `requireUv`, signature): its counter and user-verified flag, or null. The counter is
 * the caller's to judge against the stored one (a counter that went back means a cloned authenticator).
 */
export async function verifyAssertion(
  config: PasskeysConfig,
  response: AuthenticationResponseJSON,
  challenge: string,
  passkey: { credential_id: string; public_key: Buffer; transports: string[] },
  requireUv: boolean,
): Promise<{ counter: number; userVerified: boolean } | null> {
  try {
    const v = await verifyAuthenticationResponse({
      response,
      ...expectedCeremony(config, challenge),
      // the stored counter is compared by the caller, which flags a passkey whose counter went back
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: 0,
        transports: passkey.transports as never,
      },
      requireUserVerification: requireUv,
    });
    if (!v.verified) return null;
    return { counter: v.authenticationInfo.newCounter, userVerified: v.authenticationInfo.userVerified };
  } catch {
    return null;
  }
}

/**
 * The credential ids offered for an email without passkeys (or without an account): derived from the
 * email under a key of the service's, so the answer is the same at every request and has the shape of an
 * account's, and the options tell nobody which emails have accounts or passkeys.
 */
export function decoyCredential(key: Buffer, email: string): { credential_id: string; transports: string[] } {
  const id = createHmac('sha256', key).update(email, 'utf8').digest().subarray(0, 16).toString('base64url');
  return { credential_id: id, transports: ['internal', 'hybrid'] };
}
