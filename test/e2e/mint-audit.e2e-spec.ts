import { decodeJwt } from 'jose';
import { InactiveMemberError, TokenIssuer, type MintAudit } from '../../src/credentials/mint/token-issuer.js';
import { tokenMinted } from '../../src/delivery/audit/audit-entries.js';
import { OUTSIDE_REQUEST } from '../../src/delivery/audit/audit-origin.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser } from '../factories/index.js';
import { bearer } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  createOAuthApp,
  domainAdminToken,
  obtainTokens,
  type OAuthApp,
  refreshGrant,
} from '../utils/oauth.js';

/**
 * Every token is written with its audit record (and the record's webhook event and deliveries) by one
 * statement (TokenIssuer, the refresh rotation): both commit or neither does, however they are batched.
 */
describe('a token and its audit record commit together', () => {
  let t: TestApp;
  let member: UserEntity;
  let inactive: UserEntity;
  let appId: string;

  const minted: MintAudit = { origin: OUTSIDE_REQUEST, entry: tokenMinted };
  const issue = (user: UserEntity, audit: MintAudit | undefined = minted) =>
    t.get(TokenIssuer).issue(
      {
        userId: user.id,
        appId,
        systemDomainId: t.domainId,
        kind: 'OAUTH',
        scopes: ['assets:read'],
        expires: new Date(Date.now() + 3600_000),
        requireMember: true,
      },
      undefined,
      audit,
    );
  const tokenRows = async (ids: string[]): Promise<string[]> =>
    ((await t.ds.query('SELECT id FROM tokens WHERE id = ANY($1::uuid[])', [ids])) as { id: string }[]).map(
      (r) => r.id,
    );
  const records = async (ids: string[]): Promise<{ id: string; target_id: string }[]> =>
    t.ds.query(
      "SELECT id, target_id FROM audit_events WHERE action = 'token.minted' AND target_id = ANY($1::text[])",
      [ids],
    );
  const deliveriesFor = async (auditIds: string[]): Promise<number> => {
    const [{ n }]: { n: number }[] = await t.ds.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE e.event_type = 'audit' AND e.data->>'id' = ANY($1::text[])`,
      [auditIds],
    );
    return n;
  };

  beforeAll(async () => {
    t = await createTestApp();
    member = await createUser(t);
    inactive = await createUser(t, { status: 'INACTIVE' });
    const backend: OAuthApp = await createOAuthApp(t, { kind: 'backend', scopes: ['assets:read'] });
    appId = backend.id;
    // a webhook on the audit trail: every record written is also an event with one delivery
    await t.http
      .post('/API/notifications/v1/webhooks/')
      .set(bearer(await domainAdminToken(t)))
      .send({ url: 'https://hooks.example.com/mint-audit', event_type: 'audit', status: 'ENABLED' })
      .expect(201);
  });
  afterAll(() => t.close());

  it('tokens issued in one turn: each stored with its record, event and delivery; a refused member leaves neither', async () => {
    const settled = await Promise.allSettled([
      ...Array.from({ length: 6 }, () => issue(member)),
      issue(inactive),
    ]);
    const ok = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.record.id] : []));
    expect(ok).toHaveLength(6);
    const refused = settled[6];
    expect(refused.status === 'rejected' && refused.reason).toBeInstanceOf(InactiveMemberError);
    expect((await tokenRows(ok)).sort()).toEqual([...ok].sort());
    const written = await records(ok);
    expect(written.map((r) => r.target_id).sort()).toEqual([...ok].sort());
    expect(await deliveriesFor(written.map((r) => r.id))).toBe(6);
    // nothing at all for the inactive user: no token, no record naming them
    const [{ tokens }]: { tokens: number }[] = await t.ds.query(
      'SELECT count(*)::int AS tokens FROM tokens WHERE user_id = $1',
      [inactive.id],
    );
    expect(tokens).toBe(0);
    const about: unknown[] = await t.ds.query(
      "SELECT id FROM audit_events WHERE action = 'token.minted' AND details->>'user_id' = $1",
      [inactive.id],
    );
    expect(about).toEqual([]);
  });

  it('a record that cannot be written takes its token with it; its neighbours are stored with theirs', async () => {
    let badToken = '';
    const bad = issue(member, {
      origin: OUTSIDE_REQUEST,
      entry: (row) => {
        badToken = row.id;
        return { ...tokenMinted(row), systemDomainId: 'not-a-uuid' };
      },
    });
    const good = await Promise.all(Array.from({ length: 4 }, () => issue(member)));
    await expect(bad).rejects.toThrow();
    expect(badToken).not.toBe('');
    expect(await tokenRows([badToken])).toEqual([]);
    const ids = good.map((g) => g.record.id);
    expect((await tokenRows(ids)).sort()).toEqual([...ids].sort());
    expect(await records(ids)).toHaveLength(4);
  });

  it('inside a transaction that rolls back, neither the token nor its record stays', async () => {
    let id = '';
    await expect(
      t.ds.transaction(async (em) => {
        id = (
          await t.get(TokenIssuer).issue(
            {
              userId: member.id,
              appId,
              systemDomainId: t.domainId,
              kind: 'OAUTH',
              expires: new Date(Date.now() + 3600_000),
            },
            em,
            minted,
          )
        ).record.id;
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await tokenRows([id])).toEqual([]);
    expect(await records([id])).toEqual([]);
  });

  it('a refresh rotation writes the new token’s record in its own statement; a presentation that loses writes none', async () => {
    const browser = await createOAuthApp(t, { kind: 'browser', scopes: ['assets:read'] });
    const mintedCount = async (): Promise<number> =>
      (
        (await t.ds.query(
          "SELECT count(*)::int AS n FROM audit_events WHERE action = 'token.minted' AND actor_app_id = $1",
          [browser.id],
        )) as { n: number }[]
      )[0].n;
    const first = await obtainTokens(t, browser, member);
    const before = await mintedCount();
    // two presentations of one refresh token at once: on PostgreSQL both pass the checks before the
    // statement, which lets one claim it; the other's claims nothing and must write nothing (PGlite's one
    // connection runs them one after the other, and the second is refused as a replay before it)
    const both = await Promise.all([
      refreshGrant(t, browser, first.refresh_token),
      refreshGrant(t, browser, first.refresh_token),
    ]);
    const won = both.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(both.filter((r) => r.status === 400)).toHaveLength(1);
    const accessId = decodeJwt(won[0].body.access_token as string).id as string;
    const written = await records([accessId]);
    expect(written).toHaveLength(1);
    expect(await deliveriesFor(written.map((r) => r.id))).toBe(1);
    expect(await mintedCount()).toBe(before + 1);
    // a later replay mints nothing either (it revokes the chain)
    await refreshGrant(t, browser, first.refresh_token).expect(400);
    expect(await mintedCount()).toBe(before + 1);
  });
});
