import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { ConsentMemoryService } from './consent-memory.service.js';
import type { OidcRepository } from './oidc.repository.js';

const EM = { em: true } as unknown as EntityManager;

function setup(remembered: string[] = []) {
  const repo = {
    rememberedScopes: jest.fn(async (_u: string, _a: string) => remembered),
    rememberConsent: jest.fn(async (_em: unknown, _u: string, _a: string, _s: string[]) => undefined),
  };
  return { repo, service: new ConsentMemoryService(repo as unknown as OidcRepository) };
}

describe('ConsentMemoryService.covers', () => {
  it('every scope remembered: covered (same or fewer scopes)', async () => {
    const s = setup(['email', 'openid', 'profile']);
    expect(await s.service.covers('u1', 'app1', ['openid', 'email', 'profile'])).toBe(true);
    expect(await s.service.covers('u1', 'app1', ['openid'])).toBe(true);
    expect(s.repo.rememberedScopes).toHaveBeenCalledWith('u1', 'app1');
  });

  it('one scope more than remembered: not covered', async () => {
    const s = setup(['openid']);
    expect(await s.service.covers('u1', 'app1', ['openid', 'email'])).toBe(false);
  });

  it('nothing remembered: not covered', async () => {
    expect(await setup([]).service.covers('u1', 'app1', ['openid'])).toBe(false);
  });

  it('a plain OAuth request (no openid) is never covered, and nothing is read', async () => {
    const s = setup(['read', 'openid']);
    expect(await s.service.covers('u1', 'app1', ['read'])).toBe(false);
    expect(await s.service.covers('u1', 'app1', [])).toBe(false);
    expect(s.repo.rememberedScopes).not.toHaveBeenCalled();
  });

  it('scope names are compared exactly (no prefix or case folding)', async () => {
    const s = setup(['openid', 'assets:read']);
    expect(await s.service.covers('u1', 'app1', ['openid', 'assets'])).toBe(false);
    expect(await s.service.covers('u1', 'app1', ['OPENID'])).toBe(false);
  });
});

describe('ConsentMemoryService.remember', () => {
  it('an OpenID Connect request: its scopes, in the caller’s transaction', async () => {
    const s = setup();
    const scopes = ['openid', 'email'];
    await s.service.remember(EM, 'u1', 'app1', scopes);
    expect(s.repo.rememberConsent).toHaveBeenCalledWith(EM, 'u1', 'app1', ['openid', 'email']);
    // a copy: the repository never holds the caller's array
    expect(s.repo.rememberConsent.mock.calls[0][3]).not.toBe(scopes);
  });

  it('a plain OAuth request: nothing remembered', async () => {
    const s = setup();
    await s.service.remember(EM, 'u1', 'app1', ['read', 'write']);
    expect(s.repo.rememberConsent).not.toHaveBeenCalled();
  });
});
