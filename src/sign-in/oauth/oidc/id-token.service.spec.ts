import { jest } from '@jest/globals';
import { createHash, createHmac, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { BaseConfig } from '../../../base/config/config.js';
import { deriveKey } from '../../../base/keys/key-encryption.js';
import type { SigningKeysService } from '../../../base/keys/signing-keys.service.js';
import type { OidcGrantEntity } from '../../../base/model/oidc.entity.js';
import type { TokenEntity } from '../../../base/model/token.entity.js';
import type { CredentialMintService } from '../../../credentials/mint/credential-mint.service.js';
import { ASSURANCE_LEVELS } from '../../login/assurance.js';
import { IdTokenService, personClaims } from './id-token.service.js';
import type { NewOidcGrant, OidcRepository, Person } from './oidc.repository.js';

const ISSUER = 'https://auth.example';
const SECRET = 'service-secret-for-the-id-token-spec-0123456789';
const config = (secret = SECRET) =>
  ({ auth: { keyEncryptionSecret: secret }, http: { publicBaseUrl: ISSUER } }) as unknown as BaseConfig;
const EM = { em: true } as unknown as EntityManager;
const KID = '22222222-2222-4222-8222-222222222222';
const APP = '11111111-1111-4111-8111-111111111111';

const person = (over: Partial<Person> = {}): Person => ({
  id: 'u1',
  email: 'ada@example.test',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email_verified_at: new Date('2026-01-01T00:00:00Z'),
  ...over,
});

const SIGNED_IN = new Date('2026-05-01T10:00:00.750Z');
const grantFacts = (over: Partial<OidcGrantEntity> = {}) =>
  ({
    grant_id: 'g1',
    app_id: APP,
    user_id: 'u1',
    session_id: 's1',
    sid: 'sid-of-s1',
    nonce: 'n-0S6',
    auth_time: SIGNED_IN,
    acr: ASSURANCE_LEVELS.mfa,
    amr: ['pwd', 'otp', 'mfa'],
    ...over,
  }) as OidcGrantEntity;

const session = (over: Partial<TokenEntity> = {}) =>
  ({
    id: 'session-1',
    is_mfa_authenticated: false,
    vouched_by_tenant: false,
    auth_time: SIGNED_IN,
    date_created: new Date('2026-05-01T11:00:00Z'),
    ...over,
  }) as TokenEntity;

/** The service's key pair (verificationKey answers its public half for KID) and a stranger's. */
const ours = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const theirs = generateKeyPairSync('ec', { namedCurve: 'P-256' });

function setup(secret = SECRET) {
  const repo = {
    insertGrant: jest.fn(async (_em: unknown, _row: NewOidcGrant) => undefined),
    grant: jest.fn(async (_id: string): Promise<OidcGrantEntity | null> => grantFacts()),
    person: jest.fn(async (_id: string): Promise<Person | null> => person()),
    grantsOfSid: jest.fn(async () => []),
  };
  const mint = { idToken: jest.fn(async (_c: Record<string, unknown>) => 'id.token.jwt') };
  const keys = {
    verificationKey: jest.fn(async (kid: string): Promise<KeyObject | null> =>
      kid === KID ? ours.publicKey : null,
    ),
  };
  const service = new IdTokenService(
    repo as unknown as OidcRepository,
    mint as unknown as CredentialMintService,
    keys as unknown as SigningKeysService,
    config(secret),
  );
  return { service, repo, mint, keys };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A compact JWS as the service signs one (ES256, IEEE P1363 signature), under any header and key. */
function jws(claims: Record<string, unknown>, key: KeyObject = ours.privateKey, header: object = {}): string {
  const input = `${b64({ alg: 'ES256', typ: 'JWT', kid: KID, ...header })}.${b64(claims)}`;
  const sig = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);
const idClaims = (over: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  sub: 'u1',
  aud: APP,
  azp: APP,
  sid: 'sid-1',
  iat: now(),
  exp: now() + 300,
  ...over,
});

describe('personClaims (scopes → claims)', () => {
  it('openid alone: sub only', () => {
    expect(personClaims(person(), ['openid'])).toEqual({ sub: 'u1' });
  });

  it('email: the address and whether it was verified', () => {
    expect(personClaims(person(), ['openid', 'email'])).toEqual({
      sub: 'u1',
      email: 'ada@example.test',
      email_verified: true,
    });
    expect(personClaims(person({ email_verified_at: null }), ['openid', 'email'])).toMatchObject({
      email_verified: false,
    });
  });

  it('profile: name, given_name and family_name', () => {
    expect(personClaims(person(), ['openid', 'profile'])).toEqual({
      sub: 'u1',
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
  });

  it('profile: the claims without a value are left out, never null or empty', () => {
    expect(personClaims(person({ last_name: null }), ['profile'])).toEqual({
      sub: 'u1',
      name: 'Ada',
      given_name: 'Ada',
    });
    expect(personClaims(person({ first_name: '', last_name: 'Lovelace' }), ['profile'])).toEqual({
      sub: 'u1',
      name: 'Lovelace',
      family_name: 'Lovelace',
    });
    expect(personClaims(person({ first_name: null, last_name: null }), ['profile'])).toEqual({ sub: 'u1' });
  });

  it('no scope of its own: nothing of the person beyond sub (other scopes give nothing)', () => {
    for (const scopes of [['read', 'write', 'openid'], []])
      expect(personClaims(person(), scopes)).toEqual({ sub: 'u1' });
  });
});

describe('IdTokenService.recordGrant', () => {
  const expectedSid = (id: string, secret = SECRET) =>
    createHmac('sha256', deriveKey(secret, 'oidc-sid')).update(id).digest('base64url').slice(0, 32);

  it('records the grant’s sign-in in the caller’s transaction: sid, nonce, auth_time, acr and amr', async () => {
    const s = setup();
    await s.service.recordGrant(EM, {
      grantId: 'g1',
      appId: APP,
      userId: 'u1',
      session: session(),
      nonce: 'n-0S6',
    });
    expect(s.repo.insertGrant).toHaveBeenCalledTimes(1);
    expect(s.repo.insertGrant).toHaveBeenCalledWith(EM, {
      grant_id: 'g1',
      app_id: APP,
      user_id: 'u1',
      session_id: 'session-1',
      sid: expectedSid('session-1'),
      nonce: 'n-0S6',
      auth_time: SIGNED_IN,
      acr: ASSURANCE_LEVELS.password,
      amr: ['pwd'],
    });
  });

  it('sid: an HMAC of the session id, stable per session, different per session, never the id itself', () => {
    const s = setup();
    const a = s.service.sidOf('session-1');
    expect(a).toBe(expectedSid('session-1'));
    expect(a).toHaveLength(32);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(s.service.sidOf('session-1')).toBe(a);
    expect(setup().service.sidOf('session-1')).toBe(a);
    expect(s.service.sidOf('session-2')).not.toBe(a);
    expect(a).not.toContain('session-1');
    // keyed by the service secret: another deployment's sids are not ours
    expect(setup('another-secret-entirely-0123456789abcdef').service.sidOf('session-1')).not.toBe(a);
  });

  it('acr and amr from the session’s marks (assuranceOf): a second factor, a tenant’s single sign-on', async () => {
    const s = setup();
    const base = { grantId: 'g1', appId: APP, userId: 'u1', nonce: null };
    await s.service.recordGrant(EM, { ...base, session: session({ is_mfa_authenticated: true }) });
    await s.service.recordGrant(EM, {
      ...base,
      session: session({ is_mfa_authenticated: true, vouched_by_tenant: true }),
    });
    const rows = s.repo.insertGrant.mock.calls.map((c) => c[1]);
    expect(rows.map((r) => [r.acr, r.amr])).toEqual([
      [ASSURANCE_LEVELS.mfa, ['pwd', 'otp', 'mfa']],
      [ASSURANCE_LEVELS.federated, ['sso']],
    ]);
    expect(rows[0].nonce).toBeNull();
  });

  it('auth_time: the session’s sign-in, not its renewal; its creation when the record has none', async () => {
    const s = setup();
    const base = { grantId: 'g1', appId: APP, userId: 'u1', nonce: null };
    await s.service.recordGrant(EM, { ...base, session: session() });
    await s.service.recordGrant(EM, { ...base, session: session({ auth_time: null }) });
    expect(s.repo.insertGrant.mock.calls.map((c) => c[1].auth_time)).toEqual([
      SIGNED_IN,
      new Date('2026-05-01T11:00:00Z'),
    ]);
  });
});

describe('IdTokenService.issue', () => {
  const grant = (over: Partial<{ grantId: string | null; scopes: string[] }> = {}) => ({
    grantId: 'g1',
    appId: APP,
    userId: 'u1',
    scopes: ['openid', 'email', 'profile'],
    ...over,
  });
  const atHash = (token: string) =>
    Buffer.from(createHash('sha256').update(token).digest('hex').slice(0, 32), 'hex').toString('base64url');

  it('without openid: undefined, nothing read or signed', async () => {
    const s = setup();
    expect(await s.service.issue(grant({ scopes: ['read', 'email'] }), 'at', true)).toBeUndefined();
    expect(s.repo.grant).not.toHaveBeenCalled();
    expect(s.mint.idToken).not.toHaveBeenCalled();
  });

  it('without a grant id: undefined, nothing read or signed', async () => {
    const s = setup();
    expect(await s.service.issue(grant({ grantId: null }), 'at', true)).toBeUndefined();
    expect(s.repo.grant).not.toHaveBeenCalled();
    expect(s.mint.idToken).not.toHaveBeenCalled();
  });

  it('the code exchange: the person’s claims, aud = azp = the app, the sign-in’s facts, the nonce, at_hash', async () => {
    const s = setup();
    expect(await s.service.issue(grant(), 'access-token-1', true)).toBe('id.token.jwt');
    expect(s.repo.grant).toHaveBeenCalledWith('g1');
    expect(s.repo.person).toHaveBeenCalledWith('u1');
    expect(s.mint.idToken).toHaveBeenCalledWith({
      sub: 'u1',
      email: 'ada@example.test',
      email_verified: true,
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
      aud: APP,
      azp: APP,
      auth_time: Math.floor(SIGNED_IN.getTime() / 1000),
      nonce: 'n-0S6',
      acr: ASSURANCE_LEVELS.mfa,
      amr: ['pwd', 'otp', 'mfa'],
      sid: 'sid-of-s1',
      at_hash: atHash('access-token-1'),
    });
  });

  it('a refresh: the same claims, no nonce', async () => {
    const s = setup();
    await s.service.issue(grant({ scopes: ['openid'] }), 'access-token-2', false);
    const claims = s.mint.idToken.mock.calls[0][0];
    expect(claims).not.toHaveProperty('nonce');
    expect(claims).toMatchObject({ sub: 'u1', sid: 'sid-of-s1', auth_time: 1777629600 });
    expect(claims).not.toHaveProperty('email');
  });

  it('the code exchange of a request without a nonce: no nonce claim (not null)', async () => {
    const s = setup();
    s.repo.grant.mockResolvedValueOnce(grantFacts({ nonce: null }));
    await s.service.issue(grant(), 'at', true);
    expect(s.mint.idToken.mock.calls[0][0]).not.toHaveProperty('nonce');
  });

  it('at_hash: the left half of the SHA-256 of the access token, base64url (Core §3.1.3.6)', async () => {
    const s = setup();
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl';
    await s.service.issue(grant(), token, true);
    const hash = s.mint.idToken.mock.calls[0][0].at_hash as string;
    expect(hash).toBe(atHash(token));
    expect(hash).toHaveLength(22); // 16 bytes, unpadded
    expect(Buffer.from(hash, 'base64url')).toEqual(
      createHash('sha256').update(token).digest().subarray(0, 16),
    );
    await s.service.issue(grant(), `${token}x`, true);
    expect(s.mint.idToken.mock.calls[1][0].at_hash).not.toBe(hash);
  });

  it('the grant’s sign-in or its person gone: an error, nothing signed', async () => {
    const s = setup();
    s.repo.grant.mockResolvedValueOnce(null);
    await expect(s.service.issue(grant(), 'at', true)).rejects.toThrow(/gone/);
    s.repo.person.mockResolvedValueOnce(null);
    await expect(s.service.issue(grant(), 'at', true)).rejects.toThrow(/gone/);
    expect(s.mint.idToken).not.toHaveBeenCalled();
  });
});

describe('IdTokenService.verifyHint (an id_token_hint, with a real ES256 key pair)', () => {
  it('a token signed by the service’s key, our iss, aud = azp: the client, the user and the sid', async () => {
    const s = setup();
    expect(await s.service.verifyHint(jws(idClaims()))).toEqual({
      clientId: APP,
      userId: 'u1',
      sid: 'sid-1',
    });
    expect(s.keys.verificationKey).toHaveBeenCalledWith(KID);
  });

  it('no sid (or not a string): a hint without one', async () => {
    const s = setup();
    expect(await s.service.verifyHint(jws(idClaims({ sid: undefined })))).toMatchObject({ sid: null });
    expect(await s.service.verifyHint(jws(idClaims({ sid: 42 })))).toMatchObject({ sid: null });
  });

  it('expired long ago: still a hint (a logout may come long after)', async () => {
    const s = setup();
    const old = idClaims({ iat: now() - 90 * 86400, exp: now() - 89 * 86400 });
    expect(await s.service.verifyHint(jws(old))).toEqual({ clientId: APP, userId: 'u1', sid: 'sid-1' });
  });

  it.each<[string, () => string]>([
    ['signed by another key under our kid', () => jws(idClaims(), theirs.privateKey)],
    [
      'an unknown kid',
      () => jws(idClaims(), ours.privateKey, { kid: '33333333-3333-4333-8333-333333333333' }),
    ],
    ['no kid', () => jws(idClaims(), ours.privateKey, { kid: undefined })],
    ['another iss', () => jws(idClaims({ iss: 'https://evil.example' }))],
    ['no iss', () => jws(idClaims({ iss: undefined }))],
    ['no aud', () => jws(idClaims({ aud: undefined }))],
    ['aud a list', () => jws(idClaims({ aud: [APP] }))],
    ['azp ≠ aud', () => jws(idClaims({ azp: '44444444-4444-4444-8444-444444444444' }))],
    ['no azp', () => jws(idClaims({ azp: undefined }))],
    ['no sub', () => jws(idClaims({ sub: undefined }))],
    ['a sub that is not a string', () => jws(idClaims({ sub: 7 }))],
    // the service's own access tokens: no aud, so never a hint
    ['an access token of ours', () => jws({ iss: ISSUER, sub: 'u1', client_id: APP, scope: 'openid' })],
  ])('%s: null', async (_what, token) => {
    expect(await setup().service.verifyHint(token())).toBeNull();
  });

  it('alg none (no signature): null, and no key is looked up', async () => {
    const s = setup();
    const unsigned = `${b64({ alg: 'none', typ: 'JWT', kid: KID })}.${b64(idClaims())}.`;
    expect(await s.service.verifyHint(unsigned)).toBeNull();
    expect(s.keys.verificationKey).not.toHaveBeenCalled();
  });

  it('HS256 keyed with our public key (algorithm confusion): null', async () => {
    const s = setup();
    const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: KID })}.${b64(idClaims())}`;
    const pem = ours.publicKey.export({ type: 'spki', format: 'pem' });
    const mac = createHmac('sha256', pem).update(input).digest('base64url');
    expect(await s.service.verifyHint(`${input}.${mac}`)).toBeNull();
    expect(s.keys.verificationKey).not.toHaveBeenCalled();
  });

  it('a payload changed after signing: null', async () => {
    const [h, , sig] = jws(idClaims()).split('.');
    const forged = `${h}.${b64(idClaims({ sub: 'admin' }))}.${sig}`;
    expect(await setup().service.verifyHint(forged)).toBeNull();
  });

  it.each([
    [''],
    ['garbage'],
    ['a.b.c'],
    ['....'],
    [`${b64({ alg: 'ES256', kid: KID })}.not-json.c2ln`],
    ['x'.repeat(10_000)],
  ])('garbage %#: null', async (hint) => {
    expect(await setup().service.verifyHint(hint)).toBeNull();
  });

  it('a signed payload that is not JSON: null', async () => {
    const input = `${b64({ alg: 'ES256', kid: KID })}.${Buffer.from('not json').toString('base64url')}`;
    const sig = sign('sha256', Buffer.from(input), { key: ours.privateKey, dsaEncoding: 'ieee-p1363' });
    expect(await setup().service.verifyHint(`${input}.${sig.toString('base64url')}`)).toBeNull();
  });

  it('the database down while the key is looked up: thrown on (an outage, not a "no")', async () => {
    const s = setup();
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    s.keys.verificationKey.mockRejectedValueOnce(outage);
    await expect(s.service.verifyHint(jws(idClaims()))).rejects.toBe(outage);
  });

  it('another failure of the key lookup: no hint', async () => {
    const s = setup();
    s.keys.verificationKey.mockRejectedValueOnce(new Error('bug'));
    expect(await s.service.verifyHint(jws(idClaims()))).toBeNull();
  });
});
