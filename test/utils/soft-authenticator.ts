// A WebAuthn authenticator in software, for the suites that register and sign in with passkeys without a
// browser: it answers creation and request options (JSON, as the service hands them out) the way a platform
// passkey does through navigator.credentials, and each answer can be made to misbehave in one respect so that
// the suites can prove every refusal. test/utils/soft-authenticator.spec.ts proves it against the verifier
// the service uses (@simplewebauthn/server).
//
// The formats (WebAuthn Level 3): clientDataJSON §5.8.1, authenticator data §6.1 (rpIdHash, flags, signCount,
// attested credential data), the 'none' attestation statement format §8.7, COSE EC2 keys RFC 9053 §7.1.1.
import { createHash, generateKeyPairSync, randomBytes, randomInt, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/** A credential the authenticator holds: its key pair and signature counter, for the relying party `rpId`. */
export interface SoftCredential {
  /** base64url credential id (16 to 32 random bytes) */
  id: string;
  rpId: string;
  /** base64url user handle, options.user.id at registration */
  userHandle: string | null;
  /** the last signature counter reported (0 at registration) */
  counter: number;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** a discoverable (resident) credential: offered for usernameless sign-in, with its user handle */
  discoverable: boolean;
  /** the BE flag, set for the credential's life (§6.1.3) */
  backupEligible: boolean;
  /** the BS flag, reported in every answer */
  backedUp: boolean;
}

/** The construction options of {@link SoftAuthenticator}. */
export interface SoftAuthenticatorOptions {
  /** the authenticator's AAGUID as a UUID; all zeros (as a platform authenticator without attestation) by default */
  aaguid?: string;
  /** how much each assertion raises a credential's counter: 1 by default; 0 for an authenticator without one */
  counterStep?: number;
}

/** How {@link SoftAuthenticator.create} answers: the client's origin, and the misbehaviours to commit. */
export interface SoftCreateOptions {
  origin: string;
  /** the RP ID hashed into the authenticator data (and kept with the credential); options.rp.id by default */
  rpId?: string;
  /** the challenge written into clientDataJSON instead of options.challenge */
  challenge?: string;
  /** clientDataJSON's type; 'webauthn.create' by default */
  type?: string;
  /** the UV flag; true by default */
  userVerified?: boolean;
  /** the UP flag; true by default */
  userPresent?: boolean;
  /** keep a discoverable credential; true by default */
  discoverable?: boolean;
  /** the transports reported; ['internal', 'hybrid'] by default */
  transports?: string[];
  /** the BE flag; false by default (a device-bound passkey) */
  backupEligible?: boolean;
  /** the BS flag; false by default */
  backedUp?: boolean;
}

/** How {@link SoftAuthenticator.get} answers: the client's origin, the credential, and the misbehaviours. */
export interface SoftGetOptions {
  origin: string;
  /** sign with this held credential, whatever options.allowCredentials and the RP ID say */
  credentialId?: string;
  /** the RP ID hashed into the authenticator data; options.rpId by default (the origin's host without one) */
  rpId?: string;
  /** the challenge written into clientDataJSON instead of options.challenge */
  challenge?: string;
  /** clientDataJSON's type; 'webauthn.get' by default */
  type?: string;
  /** the UV flag; true by default */
  userVerified?: boolean;
  /** the UP flag; true by default */
  userPresent?: boolean;
  /** report this counter instead of stepping (a replayed or cloned authenticator); the held counter is kept */
  counter?: number;
  /** the userHandle sent (null: none); by default the credential's for a discoverable credential, else none */
  userHandle?: string | null;
  /** sign with this key instead of the credential's (a forged assertion) */
  signWith?: KeyObject;
  /** alter the signature after signing (one bit of its last byte; the DER structure stays valid) */
  tamperSignature?: boolean;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;
const ES256 = -7;

/**
 * An in-process WebAuthn authenticator holding ES256 (P-256) credentials: `create()` and `get()` play
 * navigator.credentials.create() and .get() with 'none' attestation, as a platform passkey answers; their
 * options make one answer misbehave (origin, RP ID, challenge, type, flags, counter, signature) for the
 * suites that prove the service refuses it.
 */
export class SoftAuthenticator {
  /** the credentials held, in the order they were created */
  readonly credentials: SoftCredential[] = [];
  private readonly aaguid: Buffer;
  private readonly counterStep: number;

  constructor(o: SoftAuthenticatorOptions = {}) {
    this.aaguid = aaguidBytes(o.aaguid ?? '00000000-0000-0000-0000-000000000000');
    this.counterStep = o.counterStep ?? 1;
    if (!Number.isInteger(this.counterStep) || this.counterStep < 0)
      throw new Error(`counterStep must be a non-negative integer, not ${this.counterStep}`);
  }

  /**
   * navigator.credentials.create(): makes and keeps a new credential, and answers its registration ('none'
   * attestation, ES256). Throws an InvalidStateError when the authenticator holds one of
   * options.excludeCredentials for the RP, a NotSupportedError when options.pubKeyCredParams lacks ES256.
   */
  create(options: PublicKeyCredentialCreationOptionsJSON, o: SoftCreateOptions): RegistrationResponseJSON {
    const rpId = o.rpId ?? options.rp.id ?? new URL(o.origin).hostname;
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => c.rpId === rpId && excluded.has(c.id)))
      throw domError('InvalidStateError', 'The authenticator already holds one of excludeCredentials');
    if (!options.pubKeyCredParams.some((p) => p.type === 'public-key' && p.alg === ES256))
      throw domError('NotSupportedError', 'pubKeyCredParams does not offer ES256 (-7)');

    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rawId = randomBytes(randomInt(16, 33));
    const credential: SoftCredential = {
      id: rawId.toString('base64url'),
      rpId,
      userHandle: options.user.id,
      counter: 0,
      privateKey,
      publicKey,
      discoverable: o.discoverable ?? true,
      backupEligible: o.backupEligible ?? false,
      backedUp: o.backedUp ?? false,
    };
    this.credentials.push(credential);

    const clientDataJSON = clientData(
      o.type ?? 'webauthn.create',
      o.challenge ?? options.challenge,
      o.origin,
    );
    const flags = userFlags(o) | backupFlags(credential) | FLAG_AT;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const authData = Buffer.concat([
      authenticatorDataHead(rpId, flags, credential.counter),
      this.aaguid,
      idLength,
      rawId,
      coseKey(publicKey),
    ]);
    const attestationObject = cbor(
      new Map<string, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: o.transports ?? ['internal', 'hybrid'],
        publicKeyAlgorithm: ES256,
        publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64url'),
        authenticatorData: authData.toString('base64url'),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * navigator.credentials.get(): answers an assertion signed by o.credentialId, else by the first held
   * credential for the RP that options.allowCredentials names, else (no allowCredentials: usernameless) by
   * the first discoverable one for the RP. Throws a NotAllowedError when no credential fits. Each answer
   * raises the credential's counter by counterStep unless o.counter forces the value reported.
   */
  get(options: PublicKeyCredentialRequestOptionsJSON, o: SoftGetOptions): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(o.origin).hostname;
    const credential = this.choose(rpId, options, o.credentialId);

    let counter = o.counter;
    if (counter === undefined) {
      credential.counter += this.counterStep;
      counter = credential.counter;
    }
    const clientDataJSON = clientData(o.type ?? 'webauthn.get', o.challenge ?? options.challenge, o.origin);
    const authData = authenticatorDataHead(o.rpId ?? rpId, userFlags(o) | backupFlags(credential), counter);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]);
    const signature = sign('sha256', signed, o.signWith ?? credential.privateKey);
    if (o.tamperSignature) signature[signature.length - 1] ^= 0x01;

    const userHandle =
      o.userHandle === undefined ? (credential.discoverable ? credential.userHandle : null) : o.userHandle;
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        ...(userHandle === null ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** A copy holding the same credentials (keys and counters); the two counters then go their own ways. */
  clone(): SoftAuthenticator {
    const copy = new SoftAuthenticator({ aaguid: aaguidString(this.aaguid), counterStep: this.counterStep });
    copy.credentials.push(...this.credentials.map((c) => ({ ...c })));
    return copy;
  }

  private choose(rpId: string, options: PublicKeyCredentialRequestOptionsJSON, id?: string): SoftCredential {
    let credential: SoftCredential | undefined;
    if (id !== undefined) {
      credential = this.credentials.find((c) => c.id === id);
    } else if (options.allowCredentials?.length) {
      const allowed = new Set(options.allowCredentials.map((c) => c.id));
      credential = this.credentials.find((c) => c.rpId === rpId && allowed.has(c.id));
    } else {
      credential = this.credentials.find((c) => c.rpId === rpId && c.discoverable);
    }
    if (!credential)
      throw domError('NotAllowedError', `The authenticator holds no fitting credential for ${rpId}`);
    return credential;
  }
}

/** clientDataJSON, its members in the order browsers write them (§5.8.1.1). */
function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

/** rpIdHash ‖ flags ‖ signCount, the 37 bytes every authenticator data starts with. */
function authenticatorDataHead(rpId: string, flags: number, counter: number): Buffer {
  const head = Buffer.alloc(37);
  createHash('sha256').update(rpId, 'utf8').digest().copy(head, 0);
  head.writeUInt8(flags, 32);
  head.writeUInt32BE(counter, 33);
  return head;
}

function userFlags(o: { userPresent?: boolean; userVerified?: boolean }): number {
  return (o.userPresent === false ? 0 : FLAG_UP) | (o.userVerified === false ? 0 : FLAG_UV);
}

function backupFlags(c: SoftCredential): number {
  return (c.backupEligible ? FLAG_BE : 0) | (c.backedUp ? FLAG_BS : 0);
}

/** The credential public key as a COSE EC2 key: {kty: EC2, alg: ES256, crv: P-256, x, y}. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  return cbor(
    new Map<number, CborValue>([
      [1, 2],
      [3, ES256],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}

function aaguidBytes(uuid: string): Buffer {
  const hex = uuid.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`aaguid must be a UUID, not ${uuid}`);
  return Buffer.from(hex, 'hex');
}

function aaguidString(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

/** An Error named as the DOMException a browser would throw, so that callers can tell the cases apart. */
function domError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** What the CBOR encoder below writes: integers, byte strings, text strings and maps of them. */
export type CborValue = number | string | Uint8Array | Map<number | string, CborValue>;

/**
 * Encodes `value` as CBOR (RFC 8949): just the major types WebAuthn's structures need, map entries in the
 * order given (callers give them in CTAP2 canonical order).
 */
export function cbor(value: CborValue): Buffer {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`CBOR: ${value} is not an integer`);
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  const entries = [...value].flatMap(([k, v]) => [cbor(k), cbor(v)]);
  return Buffer.concat([cborHead(5, value.size), ...entries]);
}

/** A data item's head: the major type and its argument, in the shortest form (RFC 8949 §3). */
function cborHead(major: number, argument: number): Buffer {
  const type = major << 5;
  if (argument < 24) return Buffer.from([type | argument]);
  if (argument < 0x100) return Buffer.from([type | 24, argument]);
  if (argument < 0x10000) {
    const head = Buffer.from([type | 25, 0, 0]);
    head.writeUInt16BE(argument, 1);
    return head;
  }
  if (argument < 0x100000000) {
    const head = Buffer.from([type | 26, 0, 0, 0, 0]);
    head.writeUInt32BE(argument, 1);
    return head;
  }
  const head = Buffer.from([type | 27, 0, 0, 0, 0, 0, 0, 0, 0]);
  head.writeBigUInt64BE(BigInt(argument), 1);
  return head;
}
