import { jest } from '@jest/globals';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { EMAIL_LOGIN_TTL_MS, EmailLoginService } from './email-login.service.js';
import { fixedClock, repoWithTransaction } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { linkReplaced } from '../../../test/utils/fakes/accounts.js';

const SECRET = 'A'.repeat(43);
const config = { http: { publicBaseUrl: 'https://auth.example' } } as BaseConfig;
const active = { id: 'u1', email: 'a@example.test', status: 'ACTIVE' } as UserEntity;

function setup(user: UserEntity | null = active) {
  const repo = repoWithTransaction(EM, {
    userBy: jest.fn(async () => user),
    replaceEmailLink: jest.fn(async () => undefined),
    consumeEmailLink: jest.fn(async (): Promise<string | undefined> => 'u1'),
    emailLinkKnown: jest.fn(async () => false),
    markEmailVerified: jest.fn(async (..._a: unknown[]) => undefined),
  });
  const mail = {
    recipientAllows: jest.fn(async () => true),
    queue: jest.fn(async (_em: unknown, _m: { to: string; body: string; kind: string }) => undefined),
  };
  const signIns = { signIn: jest.fn(async () => ({ token: 'jwt' })) };
  const service = construct(EmailLoginService, config, fixedClock(NOW), mail, signIns, repo);
  return { service, repo, mail, signIns };
}

describe('EmailLoginService.request (mail a single-use link)', () => {
  it('an active account: one new link (its hash), older ones retired, the mail queued, in one transaction', async () => {
    const s = setup();
    await s.service.request(' A@Example.test ');
    expect(s.repo.userBy).toHaveBeenCalledWith({ email: 'a@example.test' });
    expect(s.repo.transaction).toHaveBeenCalledTimes(1);
    const [em, userId, hash, now, expires, dropBefore] = linkReplaced(s.repo.replaceEmailLink);
    expect([em, userId, now]).toEqual([EM, 'u1', NOW]);
    expect(expires).toEqual(new Date(NOW.getTime() + EMAIL_LOGIN_TTL_MS));
    expect(dropBefore).toEqual(new Date(NOW.getTime() - 24 * 3600 * 1000));
    const [mailEm, message] = s.mail.queue.mock.calls[0];
    expect(mailEm).toBe(EM);
    expect(message.to).toBe('a@example.test');
    // the mail carries the secret whose hash was stored, on the page's address
    const secret = /https:\/\/auth\.example\/login\/email\/([A-Za-z0-9_-]{43})/.exec(message.body)?.[1];
    expect(sha256Hex(secret as string)).toBe(hash);
  });

  it.each([
    ['an unknown address', null],
    ['an inactive account', { ...active, status: 'INACTIVE' } as UserEntity],
  ])('%s: the same answer, nothing written or mailed', async (_w, user) => {
    const s = setup(user);
    await expect(s.service.request('a@example.test')).resolves.toBeUndefined();
    expect(s.repo.transaction).not.toHaveBeenCalled();
    expect(s.mail.queue).not.toHaveBeenCalled();
  });

  it('past the recipient’s mail limit: nothing changes (the links already mailed keep working)', async () => {
    const s = setup();
    s.mail.recipientAllows.mockResolvedValueOnce(false);
    await s.service.request('a@example.test');
    expect(s.repo.replaceEmailLink).not.toHaveBeenCalled();
    expect(s.mail.queue).not.toHaveBeenCalled();
  });

  it('answers no sooner than the floor, known address or not', async () => {
    const s = setup(null);
    const started = Date.now();
    await s.service.request('nobody@example.test');
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });
});

describe('EmailLoginService.complete (follow the link)', () => {
  it('a live link: used up by its hash, the address proved, its user signed in by the authority (method email_link)', async () => {
    const s = setup();
    await expect(s.service.complete(SECRET)).resolves.toEqual({ token: 'jwt' });
    expect(s.repo.consumeEmailLink).toHaveBeenCalledWith(EM, sha256Hex(SECRET), NOW);
    expect(s.repo.userBy).toHaveBeenCalledWith({ id: 'u1' }, EM);
    // in the transaction that used the link up, for the address the account has now
    expect(s.repo.markEmailVerified).toHaveBeenCalledWith(EM, 'u1', 'a@example.test');
    expect(s.signIns.signIn).toHaveBeenCalledWith(active, 'email_link', expect.any(Function));
  });

  it('a secret not shaped as one: 404 without a lookup', async () => {
    const s = setup();
    await expect(s.service.complete('short')).rejects.toMatchObject({ status: 404 });
    expect(s.repo.consumeEmailLink).not.toHaveBeenCalled();
  });

  it('not live: 419 when it was ever issued (used, expired, replaced), else 404', async () => {
    const s = setup();
    s.repo.consumeEmailLink.mockResolvedValue(undefined);
    await expect(s.service.complete(SECRET)).rejects.toMatchObject({ status: 404 });
    s.repo.emailLinkKnown.mockResolvedValue(true);
    await expect(s.service.complete(SECRET)).rejects.toMatchObject({ status: 419 });
    expect(s.signIns.signIn).not.toHaveBeenCalled();
    expect(s.repo.markEmailVerified).not.toHaveBeenCalled();
  });

  it('a user deactivated since the link was mailed: 419, no sign-in', async () => {
    const s = setup({ ...active, status: 'INACTIVE' } as UserEntity);
    await expect(s.service.complete(SECRET)).rejects.toMatchObject({ status: 419 });
    expect(s.signIns.signIn).not.toHaveBeenCalled();
    expect(s.repo.markEmailVerified).not.toHaveBeenCalled();
  });

  it('no domain left to sign in to: the authority answers 401 NO_DOMAIN', async () => {
    const s = setup();
    await s.service.complete(SECRET);
    const unauthorized = (s.signIns.signIn.mock.calls[0] as unknown[])[2] as () => {
      status: number;
      code: string;
    };
    expect(unauthorized()).toMatchObject({ status: 401, code: 'email_login.NO_DOMAIN' });
  });
});

describe('EmailLoginService.page (what the mailed link opens)', () => {
  it('200, a button posting the (encoded) secret to the API, the form allowed to post to the service', () => {
    const s = setup();
    const page = s.service.page('a b');
    expect(page.status).toBe(200);
    expect(page.formTarget).toBe('https://auth.example');
    expect(page.html).toContain('action="https://auth.example/API/auth/v1/auth/email/login/a%20b/"');
    expect(page.redirect).toBeUndefined();
    expect(page.cookies).toBeUndefined();
  });

  it('looks nothing up and consumes nothing (mail scanners prefetch links)', () => {
    const s = setup();
    s.service.page(SECRET);
    expect(s.repo.consumeEmailLink).not.toHaveBeenCalled();
    expect(s.repo.emailLinkKnown).not.toHaveBeenCalled();
  });
});
