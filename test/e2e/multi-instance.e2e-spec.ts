import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/config.js';
import { SigningKeysService } from '../../src/keys/signing-keys.service.js';
import { UserEntity } from '../../src/users/user.entity.js';
import { createTestDatabase } from '../utils/test-database.js';

/**
 * Two instances of the service on one PostgreSQL database behave as one (revocation is a database fact, and
 * key rotations reach the other instance's key service). Needs a shared database server, so
 * it runs in CI's PostgreSQL pass (DATABASE_URL set); embedded PGlite is one process's database.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
(onPostgres ? describe : describe.skip)('several instances on one database', () => {
  let a: NestExpressApplication;
  let b: NestExpressApplication;
  let drop: () => Promise<void>;
  const password = 'multi-instance-password';

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    const config = loadConfig({
      DATABASE_URL: db.url as string,
      KEY_ENCRYPTION_SECRET: 'shared-key-encryption-secret-0123456789',
      BOOTSTRAP_ADMIN_EMAIL: 'admin@multi.test',
      BOOTSTRAP_ADMIN_PASSWORD: password,
      LOG_LEVEL: 'silent',
    });
    // started together: the advisory lock serialises the migrations, the unique email the bootstrap
    [a, b] = await Promise.all([createApp(config), createApp(config)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await drop?.();
  });

  it('bootstrapped exactly one administrator, and signing keys both instances share', async () => {
    const ds = a.get(DataSource);
    expect(await ds.getRepository(UserEntity).count()).toBe(1);
    const keys: { n: string }[] = await ds.query(
      "SELECT count(*)::text AS n FROM signing_keys WHERE status = 'ACTIVE'",
    );
    expect(Number(keys[0].n)).toBeGreaterThanOrEqual(1);
  });

  it('a token revoked through one instance is refused by the other on its next request', async () => {
    const login = await request(a.getHttpServer())
      .post('/API/auth/v1/auth/simple/login/')
      .send({ email: 'admin@multi.test', password })
      .expect(201);
    const token = login.body.token as string;
    await request(b.getHttpServer())
      .get('/API/auth/v1/auth/token/')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    await request(b.getHttpServer())
      .delete('/API/auth/v1/auth/token/')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const refused = await request(a.getHttpServer())
      .get('/API/auth/v1/auth/token/')
      .set('Authorization', `Bearer ${token}`)
      .expect(401);
    expect(refused.body).toEqual({ errors: ['Token has been revoked'] });
  });

  it('after a rotation on one instance, the other verifies the new key and the old one', async () => {
    // Checked on b's own key service: passport's strategy registry is process-wide, so over HTTP both
    // in-process apps verify through whichever JwtStrategy was created last (one app per process in production).
    const keysA = a.get(SigningKeysService);
    const keysB = b.get(SigningKeysService);
    const oldKid = keysA.currentKid() as string;
    // b re-reads its keys just before the rotation: a rotation right after any reload must still be seen
    await (keysB as unknown as { reload(): Promise<void> }).reload();
    const newKid = await keysA.rotate();
    expect(newKid).not.toBe(oldKid);
    expect(await keysB.verificationKey(newKid)).not.toBeNull();
    expect(await keysB.verificationKey(oldKid)).not.toBeNull();
    const after = await request(a.getHttpServer())
      .post('/API/auth/v1/auth/simple/login/')
      .send({ email: 'admin@multi.test', password })
      .expect(201);
    const kidOf = (jwt: string) =>
      JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()).kid as string;
    expect(kidOf(after.body.token)).toBe(newKid);
    await request(b.getHttpServer())
      .get('/API/auth/v1/auth/token/')
      .set('Authorization', `Bearer ${after.body.token}`)
      .expect(200);
  });
});
