import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { APPS_TOPIC } from '../../base/common/cache/topics.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { SystemDomainAdminService } from './system-domain-admin.service.js';
import {
  authContext,
  fixedClock,
  PIXEL_PNG as PNG,
  recordingAudit,
  recordingEvents,
  SCRIPT_SVG as SVG,
  transactionalRepo,
  uploadedFile,
} from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { err, expectAudited, expectEvent } from '../../../test/utils/fakes/expect.js';

const EM = { em: true } as unknown as EntityManager;
const MANAGER = { manager: true } as unknown as EntityManager;
const BASE = 'https://auth.example.test';
const file = (buffer: Buffer, fieldname = 'logo') => uploadedFile(buffer, fieldname);

const domain = (over: Partial<SystemDomainEntity> = {}) =>
  ({
    id: 'd2',
    name: 'Acme',
    base_url: 'https://acme.example.test',
    status: 'ACTIVE',
    type: 'CUSTOMER',
    industry: null,
    features: ['a'],
    discount_percent: null,
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as SystemDomainEntity;

const caller = (over: Partial<AuthContext> = {}) =>
  authContext({ isAdmin: true, isSuperAdmin: true, ...over });

function setup(o: { stored?: SystemDomainEntity | null; strands?: boolean; hadLogo?: boolean } = {}) {
  const stored = 'stored' in o ? o.stored : domain();
  const order: string[] = [];
  const repo = transactionalRepo(order, EM, {
    manager: MANAGER,
    domain: jest.fn(async () => (stored ? { ...stored } : null)),
    saveDomain: jest.fn(async (_em: unknown, d: SystemDomainEntity) => {
      order.push('save');
      return d;
    }),
    logoHashes: jest.fn(async () => new Map<string, string>()),
    saveLogo: jest.fn(async () => void order.push('saveLogo')),
    deleteLogo: jest.fn(async () => o.hadLogo ?? true),
    logo: jest.fn(async () => null as object | null),
    exists: jest.fn(async () => true),
    strandsSuperAdmin: jest.fn(async () => o.strands ?? false),
    rehomeMembers: jest.fn(async () => void order.push('rehome')),
    deleteOnlyMembers: jest.fn(async () => void order.push('deleteMembers')),
    deleteDomain: jest.fn(async () => void order.push('deleteDomain')),
  });
  const domains = {
    create: jest.fn(async (_em: unknown, f: Partial<SystemDomainEntity>) => domain({ ...f, id: 'new' })),
  };
  const events = recordingEvents(order);
  const audit = recordingAudit(order);
  const bus = { publish: jest.fn(async () => void order.push('publish')) };
  const service = construct(
    SystemDomainAdminService,
    { http: { publicBaseUrl: BASE } } as BaseConfig,
    domains,
    events,
    audit,
    fixedClock(NOW),
    bus,
    repo,
  );
  return { service, repo, domains, events, audit, bus, order };
}

describe('SystemDomainAdminService reads', () => {
  it('get: the full form with the logo’s URL from its hash; 404 in the wire’s words', async () => {
    const s = setup();
    s.repo.logoHashes.mockResolvedValueOnce(new Map([['d2', 'ab'.repeat(32)]]));
    const view = await s.service.get('d2');
    expect(s.repo.domain).toHaveBeenCalledWith(MANAGER, 'd2', false);
    expect(view).toEqual(
      expect.objectContaining({
        id: 'd2',
        logo_url: `${BASE}/API/auth/v1/system_domains/d2/logo/?v=abababababab`,
      }),
    );
    await expect(setup({ stored: null }).service.get('d9')).rejects.toEqual(
      err(404, 'system_domains.NOT_FOUND'),
    );
  });

  it('basic: the admin form for the domain’s administrators and super administrators only', async () => {
    const s = setup();
    const member = await s.service.basic(
      caller({ isAdmin: false, isSuperAdmin: false, systemDomainId: 'd2' }),
      'd2',
    );
    const ownAdmin = await s.service.basic(caller({ isSuperAdmin: false, systemDomainId: 'd2' }), 'd2');
    const otherAdmin = await s.service.basic(caller({ isSuperAdmin: false, systemDomainId: 'd1' }), 'd2');
    expect(Object.keys(ownAdmin).length).toBeGreaterThan(Object.keys(member).length);
    expect(otherAdmin).toEqual(member);
  });

  it('logo: the stored image; 404 NO_LOGO for a domain without one, NOT_FOUND for no domain', async () => {
    const s = setup();
    s.repo.logo.mockResolvedValueOnce({ sha256: 'x' });
    await expect(s.service.logo('d2')).resolves.toEqual({ sha256: 'x' });
    await expect(s.service.logo('d2')).rejects.toEqual(err(404, 'system_domains.NO_LOGO'));
    s.repo.exists.mockResolvedValueOnce(false);
    await expect(s.service.logo('d9')).rejects.toEqual(err(404, 'system_domains.NOT_FOUND'));
  });
});

describe('SystemDomainAdminService changes', () => {
  it('create: the domain (with its built-in app, by SystemDomainsService), then the audit and the event, in one transaction', async () => {
    const s = setup();
    const view = await s.service.create(caller(), { name: 'Acme', base_url: 'https://a.test' } as never);
    expect(s.domains.create).toHaveBeenCalledWith(EM, {
      name: 'Acme',
      base_url: 'https://a.test',
      creating_user_id: 'u1',
    });
    expect(view.id).toBe('new');
    expect(s.order).toEqual(['begin', 'audit', 'event', 'event', 'commit']);
  });

  it('update: locks the domain, applies the fields sent (dates parsed), saves, tells both domains', async () => {
    const s = setup();
    await s.service.update(caller(), 'd2', {
      description: 'new',
      freeze_date: '2026-06-01T00:00:00Z',
      deactivate_date: null,
      name: undefined,
    } as never);
    expect(s.repo.domain).toHaveBeenCalledWith(EM, 'd2', true);
    const saved = s.repo.saveDomain.mock.calls[0][1];
    expect(saved).toEqual(
      expect.objectContaining({
        name: 'Acme',
        description: 'new',
        freeze_date: new Date('2026-06-01T00:00:00Z'),
        deactivate_date: null,
      }),
    );
    expectAudited(
      s.audit,
      EM,
      'domain.changed',
      { type: 'system_domain', id: 'd2' },
      { operation: 'update' },
    );
    expect(
      (s.events.record.mock.calls as unknown as [unknown, { systemDomainId: string }][]).map(
        (c) => c[1].systemDomainId,
      ),
    ).toEqual(['d1', 'd2']);
  });

  it('replaceFeatures: a replacement or a function of the current ones, with their parameters', async () => {
    let s = setup();
    await expect(s.service.replaceFeatures(caller(), 'd2', { features: ['x'] })).resolves.toEqual({
      features: ['x'],
      parameters: {},
    });
    await expect(
      s.service.replaceFeatures(caller(), 'd2', (cur) => ({
        features: [...cur.features, 'b'],
        parameters: { b: { n: 1 } },
      })),
    ).resolves.toEqual({ features: ['a', 'b'], parameters: { b: { n: 1 } } });
    expect(s.repo.saveDomain).toHaveBeenLastCalledWith(
      EM,
      expect.objectContaining({ features: ['a', 'b'], feature_parameters: { b: { n: 1 } } }),
    );
    // a PUT keeps the parameters of the features it keeps, and only those
    s = setup({
      stored: domain({ features: ['a', 'b'], feature_parameters: { a: { k: 'v' }, b: { n: 1 } } }),
    });
    await expect(s.service.replaceFeatures(caller(), 'd2', { features: ['b', 'c'] })).resolves.toEqual({
      features: ['b', 'c'],
      parameters: { b: { n: 1 } },
    });
    await expect(s.service.features('d2')).resolves.toEqual({
      features: ['a', 'b'],
      parameters: { a: { k: 'v' }, b: { n: 1 } },
    });
  });

  it('reindex: 404 for no domain; else the request’s id is the event’s', async () => {
    let s = setup({ stored: null });
    await expect(s.service.reindex(caller(), 'd9', {})).rejects.toEqual(err(404, 'system_domains.NOT_FOUND'));
    expect(s.events.record).not.toHaveBeenCalled();
    s = setup();
    const out = await s.service.reindex(caller(), 'd2', {});
    expect(out).toEqual(
      expect.objectContaining({
        system_domain_id: 'd2',
        sync_to_another_dc: false,
        date_created: expect.any(String),
      }),
    );
    expectEvent(s.events, EM, {
      operation: 'reindex',
      data: { reindex_id: out.id, system_domain_id: 'd2', sync_to_another_dc: false },
    });
  });
});

describe('SystemDomainAdminService logo', () => {
  it('stores one image with the type its bytes show, in the domain’s change', async () => {
    const s = setup();
    const out = await s.service.uploadLogo(caller(), 'd2', [file(PNG, 'file')]);
    expect(out.logo).toMatch(new RegExp(`^${BASE}/API/auth/v1/system_domains/d2/logo/\\?v=[0-9a-f]{12}$`));
    expect(s.repo.saveLogo).toHaveBeenCalledWith(EM, {
      system_domain_id: 'd2',
      content_type: 'image/png',
      bytes: PNG,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      date_modified: NOW,
    });
    expect(s.order).toEqual(['begin', 'saveLogo', 'save', 'audit', 'event', 'event', 'commit']);
  });

  it('refuses SVG, HTML, a truncated GIF, empty, missing, misnamed and two files before the transaction', async () => {
    const s = setup();
    // the bytes decide, whatever the upload claims: an SVG, an HTML page, a GIF signature cut short
    for (const bytes of [SVG, Buffer.from('<!doctype html><script>alert(1)</script>'), Buffer.from('GIF8')])
      await expect(s.service.uploadLogo(caller(), 'd2', [file(bytes)])).rejects.toEqual(
        err(400, 'system_domains.LOGO_TYPE', [
          'The logo must be a PNG, JPEG, GIF or WebP image (SVG and other types are refused)',
        ]),
      );
    for (const files of [
      undefined,
      [],
      [file(Buffer.alloc(0))],
      [file(PNG, 'photo')],
      [file(PNG), file(PNG, 'file')],
    ])
      await expect(s.service.uploadLogo(caller(), 'd2', files)).rejects.toEqual(
        err(400, 'system_domains.LOGO_MISSING'),
      );
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('deleteLogo: 404 when there is none, and nothing is saved or told', async () => {
    let s = setup({ hadLogo: false });
    await expect(s.service.deleteLogo(caller(), 'd2')).rejects.toEqual(err(404, 'system_domains.NO_LOGO'));
    expect(s.repo.saveDomain).not.toHaveBeenCalled();
    expect(s.events.record).not.toHaveBeenCalled();
    s = setup();
    await s.service.deleteLogo(caller(), 'd2');
    expect(s.repo.deleteLogo).toHaveBeenCalledWith(EM, 'd2');
    expect(s.repo.saveDomain).toHaveBeenCalled();
  });
});

describe('SystemDomainAdminService.remove', () => {
  it('moves and deletes the members, deletes the domain, tells, all in one transaction; then drops its apps everywhere', async () => {
    const s = setup();
    await s.service.remove(caller(), 'd2');
    expect(s.repo.domain).toHaveBeenCalledWith(EM, 'd2', true);
    expect(s.order).toEqual([
      'begin',
      'rehome',
      'deleteMembers',
      'deleteDomain',
      'audit',
      'event',
      'commit',
      'publish',
    ]);
    expect(s.events.record).toHaveBeenCalledWith(
      EM,
      // the deleted domain's own events go with it: the caller's domain hears of it
      expect.objectContaining({
        systemDomainId: 'd1',
        objectId: 'd2',
        operation: 'delete',
        data: { id: 'd2', name: 'Acme' },
      }),
    );
    expect(s.bus.publish).toHaveBeenCalledWith(APPS_TOPIC, null);
  });

  it('refuses the caller’s own domain before any statement', async () => {
    const s = setup();
    await expect(s.service.remove(caller(), 'd1')).rejects.toEqual(
      err(400, 'system_domains.OWN_DOMAIN', [
        'You cannot delete the system domain your own token belongs to: sign in to another domain first',
      ]),
    );
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('refuses to strand a super administrator, and deletes nothing', async () => {
    const s = setup({ strands: true });
    await expect(s.service.remove(caller(), 'd2')).rejects.toEqual(
      err(400, 'system_domains.LAST_DOMAIN_OF_SUPER_ADMIN'),
    );
    expect(s.repo.rehomeMembers).not.toHaveBeenCalled();
    expect(s.repo.deleteDomain).not.toHaveBeenCalled();
    expect(s.bus.publish).not.toHaveBeenCalled();
  });

  it('404 for no such domain', async () => {
    const s = setup({ stored: null });
    await expect(s.service.remove(caller(), 'd9')).rejects.toEqual(err(404, 'system_domains.NOT_FOUND'));
    expect(s.repo.deleteDomain).not.toHaveBeenCalled();
  });
});
