import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { AppConfig } from '../../app/config.js';
import { PasswordPolicyService } from './password-policy.service.js';
import { PasswordsService } from './passwords.service.js';
import type { AccountRow, LinkRow, PasswordsRepository } from './passwords.repository.js';
import { fixedClock, repoWithTransaction } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { linkReplaced } from '../../../test/utils/fakes/accounts.js';

const SECRET = 'a'.repeat(43);
const GOOD = 'Quartz-Lantern-91-Obelisk';
const config = {
  passwords: { resetTtlSeconds: 3600 },
  http: { publicBaseUrl: 'https://auth.example.test' },
} as unknown as AppConfig;

function link(over: Partial<LinkRow> = {}): LinkRow {
  return {
    id: 'l1',
    user_id: 'u1',
    expires: new Date(NOW.getTime() + 60_000),
    used_at: null,
    superseded_at: null,
    status: 'ACTIVE',
    email: 'ada@example.test',
    first_name: 'Ada',
    last_name: 'Lovelace',
    ...over,
  };
}

function setup(o: { link?: LinkRow; account?: AccountRow; stored?: unknown[] } = {}) {
  const repo = repoWithTransaction(EM, {
    manager: EM,
    lockAccountByEmail: jest.fn(async () => o.account),
    replaceLink: jest.fn(async () => undefined),
    link: jest.fn(async () => o.link),
    markLinkUsed: jest.fn(async () => undefined),
    markEmailVerified: jest.fn(async (..._a: unknown[]) => undefined),
    setPasswordHash: jest.fn(async () => undefined),
    revokeRefreshTokens: jest.fn(async () => undefined),
    storedChecks: jest.fn(async () => o.stored ?? [null]),
    domainsOf: jest.fn(async () => ['d1']),
    setChecks: jest.fn(async () => undefined),
  });
  const mail = { recipientAllows: jest.fn(async () => true), queue: jest.fn(async () => undefined) };
  const tokens = { revokeWhere: jest.fn(async () => 3) };
  const guessing = { clearFactor: jest.fn(async () => undefined) };
  const audit = { record: jest.fn(async () => undefined) };
  const r = repo as unknown as PasswordsRepository;
  const service = construct(
    PasswordsService,
    r,
    config,
    config.passwords,
    fixedClock(NOW),
    mail,
    tokens,
    new PasswordPolicyService(r),
    guessing,
    audit,
  );
  return { service, repo, mail, tokens, guessing };
}

// passwordReset(em, id) reads the account's home domain through em: a fake manager that answers it
Object.assign(EM, { getRepository: () => ({ findOne: async () => ({ system_domain_id: 'd1' }) }) });
Object.assign(EM, { query: async () => [{ system_domain_id: 'd1' }] });

describe('PasswordsService.reset', () => {
  const body = { password: GOOD, repeat_password: GOOD };

  it('sets the hash, uses the link once and revokes every credential of the account, in one transaction', async () => {
    const { service, repo, tokens, guessing } = setup({ link: link() });
    await service.reset(SECRET, body, 'r1');
    expect(repo.link).toHaveBeenLastCalledWith(EM, sha256Hex(SECRET), true);
    const [, userId, hash] = repo.setPasswordHash.mock.calls[0] as unknown as [unknown, string, string];
    expect(userId).toBe('u1');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(hash).not.toContain(GOOD);
    expect(repo.markLinkUsed).toHaveBeenCalledWith(EM, 'l1', NOW);
    // the mailed link proved the account's address (as the locked row has it), in the same transaction
    expect(repo.markEmailVerified).toHaveBeenCalledWith(EM, 'u1', 'ada@example.test');
    expect(tokens.revokeWhere).toHaveBeenCalledWith({ user_id: 'u1' }, { em: EM, requestId: 'r1' });
    expect(repo.revokeRefreshTokens).toHaveBeenCalledWith(EM, 'u1');
    expect(guessing.clearFactor).toHaveBeenCalledWith(EM, 'u1', 'password');
  });

  it.each([
    ['used', { used_at: NOW }],
    ['superseded', { superseded_at: NOW }],
    ['expired', { expires: NOW }],
    ['of a deactivated account', { status: 'INACTIVE' }],
  ])('refuses a link that was %s with 419 and changes nothing', async (_what, over) => {
    const { service, repo } = setup({ link: link(over) });
    await expect(service.reset(SECRET, body, null)).rejects.toMatchObject({ status: 419 });
    expect(repo.setPasswordHash).not.toHaveBeenCalled();
    expect(repo.markEmailVerified).not.toHaveBeenCalled();
  });

  it('answers 404 for an unknown link and never looks up a secret of the wrong shape', async () => {
    const unknown = setup();
    await expect(unknown.service.reset(SECRET, body, null)).rejects.toMatchObject({ status: 404 });
    const odd = setup({ link: link() });
    await expect(odd.service.reset("' OR 1=1 --", body, null)).rejects.toMatchObject({ status: 404 });
    expect(odd.repo.link).not.toHaveBeenCalled();
  });

  it("refuses a password the account's domains do not accept before touching the link", async () => {
    const { service, repo } = setup({ link: link(), stored: [{ min_length: 40 }] });
    await expect(service.reset(SECRET, body, null)).rejects.toMatchObject({ status: 400 });
    await expect(
      service.reset(SECRET, { password: GOOD, repeat_password: `${GOOD}x` }, null),
    ).rejects.toMatchObject({ status: 400 });
    expect(repo.transaction).not.toHaveBeenCalled();
  });
});

describe('PasswordsService.forgot and checks', () => {
  const auth = { systemDomainId: 'd1' } as AuthContext;

  it('replaces the link of an active account and mails only its hash-less secret', async () => {
    const account = {
      id: 'u1',
      email: 'ada@example.test',
      status: 'ACTIVE',
      first_name: null,
      last_name: null,
    };
    const { service, repo, mail } = setup({ account });
    await service.forgot({ email: 'ada@example.test' });
    const [, userId, hash, now, expires, dropBefore] = linkReplaced(repo.replaceLink);
    expect([userId, now]).toEqual(['u1', NOW]);
    expect(expires.getTime() - NOW.getTime()).toBe(3600_000);
    expect(dropBefore.getTime()).toBeLessThan(NOW.getTime());
    const sent = JSON.stringify((mail.queue.mock.calls[0] as unknown[])[1]);
    const secret = /password\/reset\/([A-Za-z0-9_-]{43})/.exec(sent)![1];
    expect(sha256Hex(secret)).toBe(hash);
  }, 10_000);

  it('queues nothing for an inactive or unknown account', async () => {
    const inactive = setup({
      account: { id: 'u1', email: 'a@x.test', status: 'INACTIVE', first_name: null, last_name: null },
    });
    await inactive.service.forgot({ email: 'a@x.test' });
    const unknown = setup();
    await unknown.service.forgot({ email: 'b@x.test' });
    expect(inactive.repo.replaceLink).not.toHaveBeenCalled();
    expect(unknown.mail.queue).not.toHaveBeenCalled();
  }, 10_000);

  it('stores checks as JSON, all-null as null, and refuses inconsistent ones', async () => {
    const { service, repo } = setup();
    const checks = await service.setChecks(auth, { min_length: 12 } as never);
    expect(checks.min_length).toBe(12);
    expect(JSON.parse((repo.setChecks.mock.calls[0] as unknown[])[1] as string)).toMatchObject({
      min_length: 12,
    });
    await service.setChecks(auth, {} as never);
    expect((repo.setChecks.mock.calls[1] as unknown[])[1]).toBeNull();
    await expect(service.setChecks(auth, { min_length: 30, max_length: 10 } as never)).rejects.toMatchObject({
      status: 400,
    });
    expect(repo.setChecks).toHaveBeenCalledTimes(2);
  });
});
