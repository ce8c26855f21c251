import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { LoginAttemptEntity } from '../../src/base/model/guessing-defence.entity.js';
import { TokensRepository } from '../../src/credentials/tokens/tokens.repository.js';
import { TokenEntity } from '../../src/base/model/token.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const LOGIN = '/API/auth/v1/auth/simple/login/';
const VALIDATE = '/API/auth/v1/auth/token/';

/**
 * Issue 23's shared round trips: the token lookups of one turn of the event loop are one statement, and the
 * writes that follow a password check (the guessing defence's clear, `last_login`) ride on the sign-ins' token
 * statement, a group commit (issue 41: TokenIssuer's signInWrites). Sharing
 * a trip must never share a result: each request gets its own token's row, a revocation committed before the
 * batch is seen, and concurrent sign-ins each get their own answer and their own writes.
 */
describe('hot-path batching', () => {
  let t: TestApp;
  let repo: TokensRepository;

  beforeAll(async () => {
    t = await createTestApp();
    repo = t.get(TokensRepository);
  });
  afterAll(() => t.close());

  /**
   * Token lookups the service sends to the database while `work` runs (through its pg pool, else the data
   * source); other statements (background pollers) are not counted.
   */
  async function lookupsDuring<T>(work: () => Promise<T>): Promise<{ out: T; statements: number }> {
    // on PostgreSQL the lookup is a prepared statement on the pg pool; on PGlite it goes through the data source
    const master = (t.ds.driver as unknown as { master?: { query: (...a: unknown[]) => unknown } }).master;
    const onPool = Boolean((t.ds.options as { url?: string }).url) && typeof master?.query === 'function';
    const spies = [onPool ? (jest.spyOn(master!, 'query') as never) : jest.spyOn(t.ds, 'query')];
    const isLookup = (q: unknown) =>
      (typeof q === 'string' ? q : ((q as { text?: string })?.text ?? '')).includes(
        'FROM tokens t\nJOIN apps a',
      );
    try {
      const out = await work();
      const statements = spies.reduce((n, s) => n + s.mock.calls.filter((c) => isLookup(c[0])).length, 0);
      return { out, statements };
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
  }

  it('lookups of one turn are one statement, each caller with its own row', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const a = await tokenFor(t, alice, { kind: 'PAT', scopes: ['assets:read'] });
    const b = await tokenFor(t, bob, { kind: 'PAT', scopes: ['assets:write'] });
    const { out, statements } = await lookupsDuring(() =>
      Promise.all([
        repo.lookup(a.id),
        repo.lookup(b.id),
        repo.lookup(a.id),
        repo.lookup(randomUUID()),
        repo.lookup(a.id.toUpperCase()),
      ]),
    );
    expect(statements).toBe(1);
    const [a1, b1, a2, unknown, a3] = out;
    expect([a1?.id, a1?.user_id, a1?.scopes]).toEqual([a.id, alice.id, ['assets:read']]);
    expect([b1?.id, b1?.user_id, b1?.scopes]).toEqual([b.id, bob.id, ['assets:write']]);
    expect(a2?.id).toBe(a.id);
    expect(a3?.id).toBe(a.id);
    expect(unknown).toBeUndefined();
    // the same token twice in one batch: two objects, two arrays (one caller's change is not the other's)
    expect(a2).not.toBe(a1);
    a1!.scopes!.push('admin');
    expect(a2!.scopes).toEqual(['assets:read']);
    expect(a3!.scopes).toEqual(['assets:read']);
  });

  it('an id that is not a UUID has no record and costs no statement', async () => {
    const { out, statements } = await lookupsDuring(() =>
      Promise.all([repo.lookup("x' OR '1'='1"), repo.lookup(''), repo.lookup('0'.repeat(36))]),
    );
    expect(out).toEqual([undefined, undefined, undefined]);
    expect(statements).toBe(0);
  });

  it('concurrent validations each answer for their own token; a revoked one in the same turn is refused', async () => {
    const users = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const other = await createDomain(t);
    const outsider = await createUser(t, { domainId: other.id });
    const tokens = await Promise.all(
      [...users, outsider].map((u, i) => tokenFor(t, u, { kind: 'PAT', scopes: [`scope-${i}`] })),
    );
    const revoked = await tokenFor(t, users[0], { kind: 'PAT' });
    await t.ds.getRepository(TokenEntity).update({ id: revoked.id }, { revoked_at: new Date() });
    const answers = await Promise.all([
      ...tokens.map((tk) => t.http.get(VALIDATE).set(bearer(tk.token))),
      t.http.get(VALIDATE).set(bearer(revoked.token)),
      ...tokens.map((tk) => t.http.get(VALIDATE).set(bearer(tk.token))),
    ]);
    const expected = [...users, outsider];
    for (const [i, res] of answers.entries()) {
      if (i === tokens.length) {
        expect(res.status).toBe(401);
        continue;
      }
      const k = i < tokens.length ? i : i - tokens.length - 1;
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: tokens[k].id,
        user_id: expected[k].id,
        system_domain_id: expected[k].system_domain_id,
        scopes: [`scope-${k}`],
      });
    }
  });

  it('a revocation committed between two turns is seen by the next lookup', async () => {
    const user = await createUser(t);
    const tk = await tokenFor(t, user, { kind: 'PAT' });
    await t.http.get(VALIDATE).set(bearer(tk.token)).expect(200);
    await t.ds.getRepository(TokenEntity).update({ id: tk.id }, { revoked_at: new Date() });
    await t.http.get(VALIDATE).set(bearer(tk.token)).expect(401);
  });

  it('concurrent password sign-ins each get their own token, last_login and cleared failures', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
    // one failure on record for each, which the successful sign-in must forget
    for (const u of users)
      await t.http
        .post(LOGIN)
        .send({ email: u.email, password: `wrong-${randomUUID()}` })
        .expect(401);
    const before = new Date(Date.now() - 1000);
    const answers = await Promise.all(
      users.map((u) => t.http.post(LOGIN).send({ email: u.email, password: DEFAULT_PASSWORD })),
    );
    for (const [i, res] of answers.entries()) {
      expect(res.status).toBe(201);
      expect(res.body.user_id).toBe(users[i].id);
      // the token answers for its own user
      const me = await t.http
        .get(VALIDATE)
        .set(bearer(res.body.token as string))
        .expect(200);
      expect(me.body.user_id).toBe(users[i].id);
    }
    const stored = await t.ds.getRepository(UserEntity).findBy(users.map((u) => ({ id: u.id })));
    expect(stored).toHaveLength(users.length);
    for (const u of stored) expect(new Date(u.last_login!).getTime()).toBeGreaterThan(before.getTime());
    const attempts = await t.ds
      .getRepository(LoginAttemptEntity)
      .findBy(users.map((u) => ({ user_id: u.id, factor: 'password' as const })));
    expect(attempts).toEqual([]);
  });

  it('a wrong password among concurrent sign-ins is refused and counted, the others are not', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    const answers = await Promise.all(
      users.map((u, i) =>
        t.http
          .post(LOGIN)
          .send({ email: u.email, password: i === 2 ? 'not-the-password' : DEFAULT_PASSWORD }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201, 401, 201]);
    const attempts = await t.ds
      .getRepository(LoginAttemptEntity)
      .findBy(users.map((u) => ({ user_id: u.id })));
    expect(attempts.map((a) => [a.user_id, a.failures])).toEqual([[users[2].id, 1]]);
  });
});
