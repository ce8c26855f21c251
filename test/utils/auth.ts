import { AppEntity } from '../../src/base/model/app.entity.js';
import { Clock } from '../../src/base/common/clock.js';
import type { TokenKind } from '../../src/base/model/token.entity.js';
import { TokenIssuer } from '../../src/credentials/mint/token-issuer.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import type { TestApp } from './create-test-app.js';

/** The six roles of the assets and collections services, for a member who may do anything there. */
export const ASSET_ROLES: string[] = [
  'can_read_assets',
  'can_write_assets',
  'can_delete_assets',
  'can_read_collections',
  'can_write_collections',
  'can_delete_collections',
];

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * Mints a real token through the service's generator (never hard-coded). Default: a login token under the
 * built-in app, as a sign-in would issue it.
 */
export async function tokenFor(
  t: TestApp,
  user: UserEntity,
  o: {
    kind?: TokenKind;
    appId?: string;
    domainId?: string;
    scopes?: string[] | null;
    expiresInSeconds?: number;
  } = {},
): Promise<{ token: string; id: string; appId: string }> {
  const domainId = o.domainId ?? user.system_domain_id;
  const appId =
    o.appId ??
    (await t.ds.getRepository(AppEntity).findOneByOrFail({ system_domain_id: domainId, is_builtin: true }))
      .id;
  const { token, record } = await t.get(TokenIssuer).issue({
    userId: user.id,
    appId,
    systemDomainId: domainId,
    kind: o.kind ?? 'LOGIN',
    scopes: o.scopes ?? null,
    expires: new Date(Date.now() + (o.expiresInSeconds ?? 3600) * 1000),
    // a login token stands for a sign-in that just happened (account changes need a recent one)
    authTime: (o.kind ?? 'LOGIN') === 'LOGIN' ? t.get(Clock).now() : null,
  });
  return { token, id: record.id, appId };
}

/** Signs in through the real endpoint and returns the top-level token. */
export async function login(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.http.post('/API/auth/v1/auth/simple/login/').send({ email, password }).expect(201);
  return res.body.token as string;
}
