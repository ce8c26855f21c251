import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { SigningKeysService } from '../../src/base/keys/signing-keys.service.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const JWKS = '/API/auth/v1/oauth/jwks/';
const VALIDATE = '/API/auth/v1/auth/token/';

describe('signing keys and JWKS', () => {
  let t: TestApp;
  let user: UserEntity;

  const jwks = async (): Promise<JWK[]> => (await t.http.get(JWKS).expect(200)).body.keys;
  const kidOf = (token: string) => decodeProtectedHeader(token).kid as string;

  /** What a third party does: find the key by kid in the published set and verify the signature. */
  async function verifyAsThirdParty(token: string, keys: JWK[]) {
    const jwk = keys.find((k) => k.kid === kidOf(token));
    if (!jwk) throw new Error(`kid ${kidOf(token)} is not published`);
    return jwtVerify(token, await importJWK(jwk, 'ES256'), { algorithms: ['ES256'] });
  }

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
  });
  afterAll(() => t.close());

  it('publishes ES256 EC public keys with kid, no private members, without credentials', async () => {
    const res = await t.http.get(JWKS).expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body.keys.length).toBeGreaterThanOrEqual(1);
    for (const k of res.body.keys) {
      expect(k).toEqual({
        kty: 'EC',
        crv: 'P-256',
        x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        y: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        kid: expect.any(String),
        alg: 'ES256',
        use: 'sig',
      });
    }
    await t.http.get('/API/auth/v1/oauth/jwks').set(bearer('garbage')).expect(200);
  });

  it('issued JWTs name a published kid and verify with the published key (jose)', async () => {
    const { token, id, appId } = await tokenFor(t, user);
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    const keys = await jwks();
    expect(keys.map((k) => k.kid)).toContain(header.kid);
    const { payload } = await verifyAsThirdParty(token, keys);
    expect(payload).toMatchObject({ id, app_id: appId, sys: t.domainId, user_id: user.id });
    expect(payload.exp).toEqual(expect.any(Number));
    expect(payload.iat).toEqual(expect.any(Number));
  });

  it('keeps private keys encrypted at rest', async () => {
    const rows = await t.ds.query('SELECT public_key_pem, private_key_encrypted FROM signing_keys');
    for (const r of rows) {
      expect(r.public_key_pem).toContain('BEGIN PUBLIC KEY');
      expect(r.private_key_encrypted).not.toMatch(/PRIVATE KEY|BEGIN/);
    }
  });

  it('rotation: new tokens carry the new kid; older tokens keep working; JWKS lists both; retiring the old key ends them', async () => {
    const keys = t.get(SigningKeysService);
    const before = await tokenFor(t, user);
    const oldKid = kidOf(before.token);
    expect(keys.currentKid()).toBe(oldKid);

    const newKid = await keys.rotate();
    expect(newKid).not.toBe(oldKid);
    expect(keys.currentKid()).toBe(newKid);

    const after = await tokenFor(t, user);
    expect(kidOf(after.token)).toBe(newKid);
    await t.http.get(VALIDATE).set(bearer(before.token)).expect(200);
    await t.http.get(VALIDATE).set(bearer(after.token)).expect(200);

    const published = await jwks();
    expect(published.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    await verifyAsThirdParty(before.token, published);
    await verifyAsThirdParty(after.token, published);

    // the signing key cannot be retired; the previous one can
    expect(await keys.retire(newKid)).toBe(false);
    expect(await keys.retire(oldKid)).toBe(true);
    const res = await t.http.get(VALIDATE).set(bearer(before.token)).expect(401);
    expect(res.body).toEqual({ errors: ['Invalid token'] });
    await t.http.get(VALIDATE).set(bearer(after.token)).expect(200);
    const remaining = await jwks();
    expect(remaining.map((k) => k.kid)).not.toContain(oldKid);
    expect(remaining.map((k) => k.kid)).toContain(newKid);
    await expect(verifyAsThirdParty(before.token, remaining)).rejects.toThrow(/not published/);
  });

  it('a token from the real login endpoint verifies against the JWKS too', async () => {
    const login = await t.http
      .post('/API/auth/v1/auth/simple/login/')
      .send({ email: user.email, password: DEFAULT_PASSWORD })
      .expect(201);
    const keys = await jwks();
    for (const item of login.body.auth_system_domains as { token: string }[]) {
      const { payload } = await verifyAsThirdParty(item.token, keys);
      expect(payload.user_id).toBe(user.id);
    }
  });
});
