import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app/app.factory.js';
import { InvalidationBus } from '../../src/base/common/cache/invalidation-bus.js';
import { loadConfig } from '../../src/app/config.js';
import { SigningKeysService } from '../../src/base/keys/signing-keys.service.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { recordContract } from '../utils/contract/recorder.js';
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
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    });
    // started together: the advisory lock serialises the migrations, the unique email the bootstrap
    [a, b] = await Promise.all([createApp(config), createApp(config)]);
    for (const app of [a, b]) recordContract(app.getHttpServer());
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

  /**
   * OAuth client registrations are cached in each instance; a change committed through one instance reaches
   * the other's cache through Redis before the change's response is sent. Without Redis the cache is off
   * on PostgreSQL, so this needs CI's PostgreSQL pass with REDIS_URL.
   */
  (process.env.REDIS_URL ? describe : describe.skip)(
    'OAuth client registrations (cached, Redis fan-out)',
    () => {
      let admin: string;
      const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
      const grant = (app: NestExpressApplication, id: string, secret: string, scope?: string) =>
        request(app.getHttpServer())
          .post('/API/auth/v1/oauth/token/')
          .set('Content-Type', 'application/x-www-form-urlencoded')
          .auth(id, secret)
          .send(form({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }));
      const update = (id: string, body: Record<string, unknown>) =>
        request(a.getHttpServer())
          .patch(`/API/auth/v1/apps/${id}/`)
          .set('Authorization', `Bearer ${admin}`)
          .send(body)
          .expect(200);

      beforeAll(async () => {
        expect(await a.get(InvalidationBus).ready()).toBe(true);
        expect(await b.get(InvalidationBus).ready()).toBe(true);
        const login = await request(a.getHttpServer())
          .post('/API/auth/v1/auth/simple/login/')
          .send({ email: 'admin@multi.test', password })
          .expect(201);
        admin = login.body.token as string;
      });

      async function backend(): Promise<{ id: string; secret: string }> {
        const me = await request(a.getHttpServer())
          .get('/API/auth/v1/auth/token/')
          .set('Authorization', `Bearer ${admin}`)
          .expect(200);
        const created = await request(a.getHttpServer())
          .post('/API/auth/v1/apps/')
          .set('Authorization', `Bearer ${admin}`)
          .send({
            name: `backend ${Math.random()}`,
            type: 'OAUTH',
            oauth_client_type: 'confidential',
            default_user_id: me.body.user_id,
            allowed_scopes: ['assets:read', 'assets:write'],
          })
          .expect(201);
        return { id: created.body.id as string, secret: created.body.client_secret as string };
      }

      it('a secret replaced through one instance stops working on the other at once', async () => {
        const client = await backend();
        // b has the registration cached now (and serves it from memory on the second grant)
        await grant(b, client.id, client.secret).expect(200);
        await grant(b, client.id, client.secret).expect(200);
        // a new secret: through public (which needs a redirect URI) and back to confidential, on instance a
        await update(client.id, { oauth_client_type: 'public', redirect_uris: ['https://app.example/cb'] });
        const renewed = await update(client.id, { oauth_client_type: 'confidential' });
        const secret2 = renewed.body.client_secret as string;
        expect(secret2).toEqual(expect.any(String));
        const old = await grant(b, client.id, client.secret).expect(401);
        expect(old.body.error).toBe('invalid_client');
        await grant(b, client.id, secret2).expect(200);
      });

      it('a scope withdrawn through one instance is refused by the other at once', async () => {
        const client = await backend();
        await grant(b, client.id, client.secret, 'assets:write').expect(200);
        await update(client.id, { allowed_scopes: ['assets:read'] });
        const refused = await grant(b, client.id, client.secret, 'assets:write').expect(400);
        expect(refused.body.error).toBe('invalid_scope');
        await grant(b, client.id, client.secret, 'assets:read').expect(200);
      });

      it('an app deleted through one instance is an unknown client on the other', async () => {
        const client = await backend();
        await grant(b, client.id, client.secret).expect(200);
        await request(a.getHttpServer())
          .delete(`/API/auth/v1/apps/${client.id}/`)
          .set('Authorization', `Bearer ${admin}`)
          .expect(204);
        const gone = await grant(b, client.id, client.secret).expect(401);
        expect(gone.body).toEqual({ error: 'invalid_client', error_description: 'Unknown client' });
      });
    },
  );
});
