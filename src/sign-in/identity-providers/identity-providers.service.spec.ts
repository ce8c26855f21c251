import { jest } from '@jest/globals';
import type { BaseConfig } from '../../base/config/config.js';
import type {
  IdentityProviderDomainEntity,
  IdentityProviderEntity,
} from '../../base/model/identity-provider.entity.js';
import { IdentityProvidersService } from './identity-providers.service.js';
import { authContext, transactionalRepo } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const FP = 'ab'.repeat(20); // a sha1 fingerprint
const config = {
  http: { publicBaseUrl: 'https://auth.example.test' },
  auth: { keyEncryptionSecret: 'k'.repeat(43) },
  database: { dataDir: 'memory://' },
} as unknown as BaseConfig;
const auth = authContext();
const GENERIC = {
  name: 'Corp IdP',
  idp_entity_id: 'https://idp.corp.test',
  idp_sso_post_url: 'https://idp.corp.test/sso',
  cert_fingerprint: FP,
};

const stored = (over: Partial<IdentityProviderEntity> = {}): IdentityProviderEntity =>
  ({
    id: 'i1',
    public_id: 'p1',
    system_domain_id: 'd1',
    type: 'GENERIC',
    settings: { ...GENERIC },
    verbose_logging: false,
    enabled: true,
    sp_private_key_sealed: null,
    sp_certificate: null,
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as IdentityProviderEntity;

function setup(o: { idp?: IdentityProviderEntity | null; sealedKey?: string | null } = {}) {
  const rows = new Map<string, IdentityProviderEntity>();
  if (o.idp !== null) rows.set('i1', o.idp ?? stored());
  const order: string[] = [];
  const repo = transactionalRepo(order, EM, {
    newIdp: jest.fn((f: object) => ({ ...f }) as IdentityProviderEntity),
    saveIdp: jest.fn(async (_em: unknown, idp: IdentityProviderEntity) => {
      order.push('save');
      idp.id ??= 'i-new';
      rows.set(idp.id, { ...idp, date_created: NOW, date_modified: NOW });
    }),
    deleteIdp: jest.fn(async (_em: unknown, id: string) => {
      order.push('delete');
      rows.delete(id);
    }),
    domainIdp: jest.fn(async (id: string, d: string) => {
      const r = rows.get(id);
      return r && r.system_domain_id === d ? { ...r, sp_private_key_sealed: null } : null;
    }),
    sealedKey: jest.fn(async () => o.sealedKey ?? null),
    bindingsOf: jest.fn(async (): Promise<IdentityProviderDomainEntity[]> => []),
  });
  const audit = {
    change: jest.fn(async (_em: unknown, _a: unknown, _action: string, _t: unknown, _d: unknown) => {
      order.push('audit');
    }),
  };
  const service = construct(IdentityProvidersService, repo, config, audit);
  return { service, repo, audit, order, rows };
}

describe('IdentityProvidersService.create', () => {
  it('stores the validated settings (unknown fields dropped) with the defaults, and audits it in the same transaction', async () => {
    const s = setup({ idp: null });
    const view = await s.service.create(auth, {
      type: 'GENERIC',
      settings: {
        ...GENERIC,
        domain_name: 'corp.test',
        surprise: 1,
        idp_entity_id: '  https://idp.corp.test ',
      },
    });
    const saved = s.repo.saveIdp.mock.calls[0][1];
    expect(saved).toMatchObject({
      system_domain_id: 'd1',
      type: 'GENERIC',
      enabled: true,
      verbose_logging: false,
      sp_private_key_sealed: null,
    });
    expect(saved.settings).toEqual({ ...GENERIC }); // trimmed, read-only and unknown fields gone
    expect(s.order).toEqual(['begin', 'save', 'audit', 'commit']);
    expect(s.audit.change.mock.calls[0][2]).toBe('identity_provider.changed');
    expect(s.audit.change.mock.calls[0][4]).toEqual({ operation: 'create' }); // no setting values
    expect(view).toMatchObject({ id: 'i-new', enabled: true, domains: [] });
  });

  it('refuses a body without type and settings, naming both, and stores nothing', async () => {
    const s = setup({ idp: null });
    await expect(s.service.create(auth, {})).rejects.toMatchObject({
      code: 'identity_providers.INVALID',
      errors: { type: 'is required', settings: 'is required' },
    });
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('refuses an unknown type and non-boolean switches', async () => {
    const s = setup({ idp: null });
    await expect(
      s.service.create(auth, { type: 'OTHER', settings: GENERIC, enabled: 'yes', verbose_logging: 1 }),
    ).rejects.toMatchObject({
      errors: {
        type: expect.stringContaining('must be one of') as unknown,
        enabled: 'must be true or false',
        verbose_logging: 'must be true or false',
      },
    });
  });

  it('refuses a body that is neither an object nor metadata XML', async () => {
    const s = setup({ idp: null });
    await expect(s.service.create(auth, [GENERIC])).rejects.toMatchObject({
      code: 'identity_providers.INVALID',
    });
  });

  it('judges the settings of the type: GENERIC needs its entity id, SSO URL, name and a certificate or fingerprint', async () => {
    const s = setup({ idp: null });
    await expect(s.service.create(auth, { type: 'GENERIC', settings: {} })).rejects.toMatchObject({
      errors: {
        'settings.idp_entity_id': 'is required',
        'settings.idp_sso_post_url': 'is required',
        'settings.name': 'is required',
        'settings.idp_x509cert': 'idp_x509cert or cert_fingerprint is required',
      },
    });
    await expect(
      s.service.create(auth, { type: 'GENERIC', settings: { ...GENERIC, idp_sso_post_url: 'ftp://x' } }),
    ).rejects.toMatchObject({ errors: { 'settings.idp_sso_post_url': 'must be an http(s) URL' } });
    expect(s.repo.saveIdp).not.toHaveBeenCalled();
  });

  it('judges each type’s required fields, the algorithm enums, the certificate, URLs and switches (moved from e2e)', async () => {
    const s = setup({ idp: null });
    const bad = async (body: object, field: string) => {
      const err = (await s.service.create(auth, body).catch((e: unknown) => e)) as { errors: object };
      expect(err).toMatchObject({ code: 'identity_providers.INVALID' });
      expect(Object.keys(err.errors)).toContain(field);
    };
    const generic = (over: object) => ({ type: 'GENERIC', settings: { ...GENERIC, ...over } });
    await bad({ type: 'GENERIC', settings: { name: 'x' } }, 'settings.idp_entity_id');
    await bad({ type: 'VENDOR_A', settings: { vendor_a_name: 'x' } }, 'settings.vendor_a_client_id');
    await bad(
      { type: 'VENDOR_B', settings: { vendor_b_name: 'x', vendor_b_client_id: 'y' } },
      'settings.vendor_b_region',
    );
    await bad({ type: 'VENDOR_C', settings: {} }, 'settings.vendor_c_name');
    await bad({ type: 'SAML', settings: {} }, 'type');
    await bad(generic({ signature_algorithm: 'md5' }), 'settings.signature_algorithm');
    await bad(generic({ digest_algorithm: 'sha256' }), 'settings.digest_algorithm');
    await bad(generic({ idp_x509cert: 'not a certificate' }), 'settings.idp_x509cert');
    await bad(generic({ idp_sso_post_url: 'javascript:alert(1)' }), 'settings.idp_sso_post_url');
    await bad(generic({ want_assertions_signed: 'yes' }), 'settings.want_assertions_signed');
    await bad({ type: 'GENERIC', settings: 'x' }, 'settings');
    expect(s.repo.saveIdp).not.toHaveBeenCalled();
    const vendor = await s.service.create(auth, {
      type: 'VENDOR_B',
      settings: {
        vendor_b_name: 'B',
        vendor_b_client_id: 'c',
        vendor_b_region: 'eu',
        unknown: 1,
        domain_name: 'x',
      },
    });
    expect(vendor.settings).toEqual({
      vendor_b_name: 'B',
      vendor_b_client_id: 'c',
      vendor_b_region: 'eu',
      domain_name: null,
    });
  });

  it('refuses metadata XML with a DTD as INVALID_XML, before anything is stored', async () => {
    const s = setup({ idp: null });
    const xml = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><EntityDescriptor/>';
    await expect(s.service.create(auth, xml)).rejects.toMatchObject({
      code: 'identity_providers.INVALID_XML',
    });
    expect(s.repo.saveIdp).not.toHaveBeenCalled();
  });
});

describe('IdentityProvidersService.update', () => {
  it('merges the settings over the stored ones and judges the whole again', async () => {
    const s = setup();
    await s.service.update(auth, 'i1', { settings: { name: 'Renamed' } });
    expect(s.repo.saveIdp.mock.calls[0][1].settings).toEqual({ ...GENERIC, name: 'Renamed' });
    await expect(
      s.service.update(auth, 'i1', { settings: { cert_fingerprint: 'abcd' } }),
    ).rejects.toMatchObject({ errors: { 'settings.cert_fingerprint': expect.stringContaining('sha1') } });
  });

  it('changes only the switches it is given, and keeps the sealed SP key it did not read with the IdP', async () => {
    const s = setup({ sealedKey: 'sealed-key' });
    await s.service.update(auth, 'i1', { enabled: false, settings: { authn_requests_signed: true } });
    const saved = s.repo.saveIdp.mock.calls[0][1];
    expect(saved).toMatchObject({
      enabled: false,
      verbose_logging: false,
      sp_private_key_sealed: 'sealed-key',
    });
    expect(s.order).toEqual(['begin', 'save', 'audit', 'commit']);
    expect(s.audit.change.mock.calls[0][4]).toEqual({ operation: 'update' });
  });

  it('answers NOT_FOUND for an IdP of another domain, and changes nothing', async () => {
    const s = setup({ idp: stored({ system_domain_id: 'd2' }) });
    await expect(s.service.update(auth, 'i1', { enabled: false })).rejects.toMatchObject({
      code: 'identity_providers.NOT_FOUND',
    });
    await expect(s.service.get(auth, 'i1')).rejects.toMatchObject({ code: 'identity_providers.NOT_FOUND' });
    expect(s.repo.domainIdp).toHaveBeenCalledWith('i1', 'd1');
    expect(s.repo.saveIdp).not.toHaveBeenCalled();
  });
});

describe('IdentityProvidersService.remove', () => {
  it('deletes the IdP and audits it in one transaction', async () => {
    const s = setup();
    await s.service.remove(auth, 'i1');
    expect(s.repo.deleteIdp).toHaveBeenCalledWith(EM, 'i1');
    expect(s.order).toEqual(['begin', 'delete', 'audit', 'commit']);
    expect(s.audit.change.mock.calls[0][3]).toEqual({ type: 'identity_provider', id: 'i1' });
    expect(s.audit.change.mock.calls[0][4]).toEqual({ operation: 'delete' });
  });

  it('answers NOT_FOUND for another domain’s IdP without a transaction', async () => {
    const s = setup({ idp: stored({ system_domain_id: 'd2' }) });
    await expect(s.service.remove(auth, 'i1')).rejects.toMatchObject({
      code: 'identity_providers.NOT_FOUND',
    });
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });
});

describe('IdentityProvidersService views', () => {
  it('lists each IdP with its own bindings, the first as domain_name, and the unverified ones with their challenge', async () => {
    const s = setup();
    s.repo.bindingsOf.mockResolvedValue([
      {
        domain: 'a.test',
        identity_provider_id: 'i1',
        system_domain_id: 'd1',
        verified_at: NOW,
        challenge_token: 't1',
      },
      {
        domain: 'b.test',
        identity_provider_id: 'i1',
        system_domain_id: 'd1',
        verified_at: null,
        challenge_token: 't2',
      },
      {
        domain: 'c.test',
        identity_provider_id: 'i9',
        system_domain_id: 'd1',
        verified_at: NOW,
        challenge_token: 't3',
      },
    ] as IdentityProviderDomainEntity[]);
    const view = await s.service.get(auth, 'i1');
    expect(view.domains).toEqual(['a.test', 'b.test']);
    expect(view.settings.domain_name).toBe('a.test');
    expect(view.domain_bindings[1]).toMatchObject({ verified: false, verification: { type: 'TXT' } });
    expect(view.saml_settings.acs_url).toBe('https://auth.example.test/API/auth/v1/auth/saml/acs/p1/');
  });
});
