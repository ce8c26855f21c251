import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { BaseConfig } from '../../base/config/config.js';
import type { SigningKeysService } from '../../base/keys/signing-keys.service.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { BootstrapService } from './bootstrap.service.js';
import type { SystemDomainsRepository } from './system-domains.repository.js';
import type { SystemDomainsService } from './system-domains.service.js';
import { transactionalRepo } from '../../../test/utils/fakes.js';

const EM = { em: true } as unknown as EntityManager;

function setup(o: { anyUser?: boolean; password?: string | null; insertFails?: unknown } = {}) {
  const order: string[] = [];
  const repo = transactionalRepo(order, EM, {
    anyUser: jest.fn(async () => o.anyUser ?? false),
    insertAdmin: jest.fn(async () => {
      if (o.insertFails) throw o.insertFails;
      order.push('insertAdmin');
      return 'admin1';
    }),
    saveDomain: jest.fn(async (_em: unknown, d: SystemDomainEntity) => {
      order.push('saveDomain');
      return d;
    }),
  });
  const keys = { init: jest.fn(async () => void order.push('keys')) };
  const domains = {
    create: jest.fn(async (_em: unknown, f: object) => {
      order.push('createDomain');
      return { ...f, id: 'd1', creating_user_id: null } as unknown as SystemDomainEntity;
    }),
  };
  const service = new BootstrapService(
    repo as unknown as SystemDomainsRepository,
    { http: { publicBaseUrl: 'https://auth.example.test' } } as BaseConfig,
    { adminEmail: 'root@example.test', adminPassword: 'password' in o ? o.password! : 'Given-Password-1' },
    keys as unknown as SigningKeysService,
    domains as unknown as SystemDomainsService,
  );
  return { service, repo, keys, domains, order };
}

describe('BootstrapService', () => {
  it('with an account in place it only loads the keys', async () => {
    const s = setup({ anyUser: true });
    await s.service.onApplicationBootstrap();
    expect(s.keys.init).toHaveBeenCalled();
    expect(s.repo.transaction).not.toHaveBeenCalled();
    expect(s.service.firstStart).toBeNull();
  });

  it('first start: the domain, the super administrator (hashed password) and the domain’s creator, in one transaction', async () => {
    const s = setup();
    await s.service.onApplicationBootstrap();
    expect(s.order).toEqual(['keys', 'begin', 'createDomain', 'insertAdmin', 'saveDomain', 'commit']);
    expect(s.domains.create).toHaveBeenCalledWith(EM, {
      name: 'Default',
      base_url: 'https://auth.example.test',
      type: 'INTERNAL',
    });
    const account = s.repo.insertAdmin.mock.calls[0] as unknown as [unknown, Record<string, unknown>];
    expect(account[1]).toEqual({
      email: 'root@example.test',
      first_name: 'Super',
      last_name: 'Administrator',
      password_hash: expect.any(String),
      is_super_admin: true,
      system_domain_id: 'd1',
    });
    expect(account[1].password_hash).not.toContain('Given-Password-1');
    expect(s.repo.saveDomain).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({ id: 'd1', creating_user_id: 'admin1' }),
    );
    // a configured password is not shown again
    expect(s.service.firstStart).toEqual({ email: 'root@example.test', password: null });
  });

  it('a generated password is handed to the banner once', async () => {
    const s = setup({ password: null });
    await s.service.onApplicationBootstrap();
    expect(s.service.firstStart).toEqual({
      email: 'root@example.test',
      password: expect.stringMatching(/^[\w-]{20}$/),
    });
  });

  it('another instance bootstrapping first (a unique violation) is no error; any other failure is', async () => {
    const s = setup({ insertFails: Object.assign(new Error('dup'), { code: '23505' }) });
    await expect(s.service.onApplicationBootstrap()).resolves.toBeUndefined();
    expect(s.service.firstStart).toBeNull();
    const boom = new Error('boom');
    await expect(setup({ insertFails: boom }).service.onApplicationBootstrap()).rejects.toBe(boom);
  });
});
