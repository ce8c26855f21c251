import { jest } from '@jest/globals';
import type { BaseConfig } from '../../base/config/config.js';
import type { MailRepository } from './mail.repository.js';
import { MailService } from './mail.service.js';
import { EM } from '../../../test/utils/fakes/fixtures.js';

const CONFIG = { auth: { keyEncryptionSecret: 's'.repeat(32) } } as BaseConfig;

function setup({ recent = 0, unsealed = [] as { id: string; body: string }[] } = {}) {
  const repo = {
    unsealedBodies: jest.fn(async () => unsealed),
    replaceBody: jest.fn(async () => undefined),
    lockRecipient: jest.fn(async () => undefined),
    recentCount: jest.fn(async () => recent),
    insert: jest.fn(async (_em: unknown, _m: Record<string, unknown>) => undefined),
    markSent: jest.fn(async () => undefined),
    markFailed: jest.fn(async () => undefined),
  };
  const service = new MailService(repo as unknown as MailRepository, CONFIG, {
    recipientLimit: 3,
    recipientWindowSeconds: 900,
  } as never);
  return { service, repo };
}

describe('MailService', () => {
  it('queues in the caller’s transaction with the bodies sealed, never in clear', async () => {
    const s = setup();
    await s.service.queue(EM as never, {
      kind: 'invitation',
      to: 'a@example.test',
      subject: 'Join',
      body: 'https://x.example/link?token=abc',
      html: '<a href="https://x.example/link?token=abc">join</a>',
    });
    const [em, row] = s.repo.insert.mock.calls[0];
    expect(em).toBe(EM);
    expect(row).toMatchObject({ to_address: 'a@example.test', subject: 'Join', kind: 'invitation' });
    expect(row.body).toMatch(/^sealed:v1:/);
    expect(row.body).not.toContain('token=abc');
    expect(row.html_body).toMatch(/^sealed:v1:/);
    // the worker opens what was sealed
    expect(s.service.readBody(row as never)).toBe('https://x.example/link?token=abc');
    expect(s.service.readHtml(row as never)).toBe('<a href="https://x.example/link?token=abc">join</a>');
  });

  it('a mail without an HTML part stores none', async () => {
    const s = setup();
    await s.service.queue(EM as never, { kind: 'code', to: 'a@example.test', subject: 'S', body: 'b' });
    expect(s.repo.insert.mock.calls[0][1].html_body).toBeNull();
    expect(s.service.readHtml({ html_body: null })).toBeNull();
  });

  it('recipientAllows: under the limit per recipient and kind, serialised by a lock taken first', async () => {
    let s = setup({ recent: 2 });
    await expect(s.service.recipientAllows(EM as never, 'signin', 'a@example.test')).resolves.toBe(true);
    expect(s.repo.lockRecipient).toHaveBeenCalledWith(EM, 'mail-recipient:signin:a@example.test');
    expect(s.repo.recentCount).toHaveBeenCalledWith(EM, 'a@example.test', 'signin', 900);
    expect(s.repo.lockRecipient.mock.invocationCallOrder[0]).toBeLessThan(
      s.repo.recentCount.mock.invocationCallOrder[0],
    );
    s = setup({ recent: 3 });
    await expect(s.service.recipientAllows(EM as never, 'signin', 'a@example.test')).resolves.toBe(false);
  });

  it('at start, seals the bodies stored in clear, each only while it is still the one read', async () => {
    const s = setup({ unsealed: [{ id: 'm1', body: 'old body' }] });
    await s.service.onModuleInit();
    expect(s.repo.replaceBody).toHaveBeenCalledWith('m1', expect.stringMatching(/^sealed:v1:/), 'old body');
    const [, sealed] = s.repo.replaceBody.mock.calls[0] as unknown as [string, string];
    expect(s.service.readBody({ body: sealed })).toBe('old body');
  });

  it('a body written before sealing reads as it is; a delivered one reads as none', () => {
    const s = setup();
    expect(s.service.readBody({ body: 'plain' })).toBe('plain');
    expect(s.service.readBody({ body: null })).toBeNull();
  });
});
