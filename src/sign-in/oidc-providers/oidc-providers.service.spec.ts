import { jest } from '@jest/globals';
import { loadConfig } from '../../app/config.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { OidcProviderEntity } from '../../base/model/federation.entity.js';
import type { CreateOidcProviderDto } from './dto/oidc-provider.dto.js';
import { OidcProvidersService } from './oidc-providers.service.js';
import { authContext, repoWithTransaction, wire } from '../../../test/utils/fakes.js';
import { EM } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { expectAudited } from '../../../test/utils/fakes/expect.js';

// A domain's OpenID providers over a fake repository: what an administrator may save, and that the client
// secret only ever reaches the repository sealed.

const SECRET = 'client-secret-of-the-provider';
const auth = authContext({ systemDomainId: 'd1' });
const BODY: CreateOidcProviderDto = {
  name: 'Corp SSO',
  issuer: 'https://login.corp.example/realms/staff',
  client_id: 'portcullis',
  client_secret: SECRET,
};

function setup(env: Record<string, string> = {}) {
  const config = loadConfig({
    PUBLIC_BASE_URL: 'https://auth.example.com/',
    KEY_ENCRYPTION_SECRET: 'k'.repeat(40),
    ...env,
  });
  const rows = new Map<string, OidcProviderEntity>();
  /** Every row the repository was handed, as it was handed (a copy). */
  const saved: Record<string, unknown>[] = [];
  let n = 0;
  const repo = repoWithTransaction(EM, {
    save: jest.fn(async (_em: unknown, row: OidcProviderEntity) => {
      saved.push({ ...row });
      const now = new Date('2026-05-01T12:00:00Z');
      const out = Object.assign(row, {
        id: row.id ?? `o${++n}`,
        date_created: row.date_created ?? now,
        date_modified: now,
      });
      rows.set(out.id, out);
      return out;
    }),
    inDomain: jest.fn(async (id: string, d: string) => {
      const r = rows.get(id);
      return r && r.system_domain_id === d ? r : null;
    }),
    domainsOf: jest.fn(async (ids: string[]) =>
      ids.includes('o1') ? [{ id: 'o1', domain: 'corp.example' }] : [],
    ),
  });
  const audit = { change: jest.fn(async (..._a: unknown[]) => undefined) };
  const service = construct(OidcProvidersService, config as BaseConfig, config.federation, repo, audit);
  return { service, repo, audit, saved, rows };
}

/** The 400 of a refused body: its per-field problems (the test fails when the body is accepted). */
async function refusal(p: Promise<unknown>): Promise<Record<string, string>> {
  const e = await p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: unknown) => err,
  );
  expect(wire(e)).toMatchObject({ status: 400, code: 'oidc_providers.INVALID' });
  return wire(e).errors as Record<string, string>;
}

describe('OidcProvidersService.create: the client secret', () => {
  it('is sealed: the view says one is set and never shows it; the repository sees only the sealed value', async () => {
    const s = setup();
    const view = await s.service.create(auth, BODY);
    expect(view.client_secret_set).toBe(true);
    expect(JSON.stringify(view)).not.toContain(SECRET);
    expect(s.saved).toHaveLength(1);
    const sealed = s.saved[0].client_secret_sealed as string;
    expect(sealed).toEqual(expect.any(String));
    expect(sealed).not.toBe(SECRET);
    expect(JSON.stringify(s.saved)).not.toContain(SECRET);
    // sealed under the service secret: the service (only) gets it back
    expect(s.service.unsealSecret(sealed)).toBe(SECRET);
    // the audit record names the change, not its values
    expect(JSON.stringify(s.audit.change.mock.calls)).not.toContain(SECRET);
    expectAudited(
      s.audit,
      EM,
      'oidc_provider.changed',
      { type: 'oidc_provider', id: view.id },
      { operation: 'create' },
      auth,
    );
  });

  it('sealing the same secret twice gives two different values (a fresh IV each time)', async () => {
    const s = setup();
    await s.service.create(auth, BODY);
    await s.service.create(auth, BODY);
    expect(s.saved[0].client_secret_sealed).not.toBe(s.saved[1].client_secret_sealed);
  });

  it('refuses an empty secret on change, and saves nothing', async () => {
    const s = setup();
    const { id } = await s.service.create(auth, BODY);
    const errors = await refusal(s.service.update(auth, id, { client_secret: '' }));
    expect(errors).toEqual({ client_secret: 'must not be empty' });
    expect(s.repo.save).toHaveBeenCalledTimes(1);
  });
});

describe('OidcProvidersService.create: the view and its redirect URI', () => {
  it('answers the provider in the caller’s domain with its defaults and redirect URI', async () => {
    const s = setup();
    const view = await s.service.create(auth, {
      ...BODY,
      issuer: 'https://login.corp.example/realms/staff//',
    });
    expect(view.public_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(view).toMatchObject({
      id: 'o1',
      system_domain_id: 'd1',
      name: 'Corp SSO',
      issuer: 'https://login.corp.example/realms/staff',
      client_id: 'portcullis',
      scopes: ['openid', 'email', 'profile'],
      enabled: true,
      settings: {
        claims: { email: 'email', first_name: 'given_name', last_name: 'family_name', groups: 'groups' },
        jit_provisioning: false,
      },
      domains: ['corp.example'],
      date_created: '2026-05-01T12:00:00.000000+00:00',
    });
    expect(view.redirect_uri).toBe(
      `https://auth.example.com/API/auth/v1/auth/oauth/callback/${view.public_id}/`,
    );
  });

  it('each provider gets its own public id', async () => {
    const s = setup();
    const a = await s.service.create(auth, BODY);
    const b = await s.service.create(auth, BODY);
    expect(a.public_id).not.toBe(b.public_id);
    expect(s.service.redirectUri('p1')).toBe('https://auth.example.com/API/auth/v1/auth/oauth/callback/p1/');
  });
});

describe('OidcProvidersService: scopes', () => {
  it('always include openid, first, once; trimmed and de-duplicated', async () => {
    const s = setup();
    const view = await s.service.create(auth, {
      ...BODY,
      scopes: ['email', ' email ', 'groups', 'openid', 'offline_access'],
    });
    expect(view.scopes).toEqual(['openid', 'email', 'groups', 'offline_access']);
    const bare = await s.service.create(auth, { ...BODY, scopes: [] });
    expect(bare.scopes).toEqual(['openid']);
  });

  it.each([['two words'], ['quote"d'], ['back\\slash'], [''], ['ünï']])(
    'refuses the scope %j (not an RFC 6749 scope token)',
    async (bad) => {
      const s = setup();
      const errors = await refusal(s.service.create(auth, { ...BODY, scopes: ['email', bad] }));
      expect(errors).toEqual({ scopes: 'each scope must be a scope token (RFC 6749 §3.3)' });
      expect(s.repo.save).not.toHaveBeenCalled();
    },
  );
});

describe('OidcProvidersService: the issuer', () => {
  it.each([
    ['plain http', 'http://login.corp.example', 'must be an https URL'],
    ['another scheme', 'ftp://login.corp.example', 'must be an https URL'],
    ['not a URL', 'login.corp.example', 'must be an absolute https URL'],
    ['a query', 'https://login.corp.example/?tenant=1', /no credentials, query or fragment/],
    ['a fragment', 'https://login.corp.example/#x', /no credentials, query or fragment/],
    ['credentials', 'https://u:p@login.corp.example', /no credentials, query or fragment/],
    ['a private address', 'https://10.0.0.8/realms/x', /non-public address/],
    ['the metadata address', 'https://169.254.169.254', /non-public address/],
    ['a loopback IPv6 address', 'https://[::1]:8443', /non-public address/],
  ])('refuses %s', async (_what, issuer, why) => {
    const s = setup();
    const errors = await refusal(s.service.create(auth, { ...BODY, issuer }));
    expect(errors.issuer).toMatch(why);
    expect(s.repo.save).not.toHaveBeenCalled();
  });

  it('takes plain http only with OIDC_ALLOW_HTTP_ISSUERS', async () => {
    const s = setup({ OIDC_ALLOW_HTTP_ISSUERS: 'true' });
    const view = await s.service.create(auth, { ...BODY, issuer: 'http://login.corp.example/' });
    expect(view.issuer).toBe('http://login.corp.example');
    // still no private literal without FEDERATION_ALLOW_PRIVATE
    const errors = await refusal(s.service.create(auth, { ...BODY, issuer: 'http://127.0.0.1:8080' }));
    expect(errors.issuer).toMatch(/non-public address/);
  });

  it('takes a private address with FEDERATION_ALLOW_PRIVATE (https still required)', async () => {
    const s = setup({ FEDERATION_ALLOW_PRIVATE: 'true' });
    const view = await s.service.create(auth, { ...BODY, issuer: 'https://10.0.0.8/realms/x' });
    expect(view.issuer).toBe('https://10.0.0.8/realms/x');
    const errors = await refusal(s.service.create(auth, { ...BODY, issuer: 'http://10.0.0.8' }));
    expect(errors.issuer).toBe('must be an https URL');
  });
});

describe('OidcProvidersService: the claim mapping', () => {
  it('merges a partial mapping over the standard claims; jit_provisioning as set', async () => {
    const s = setup();
    const view = await s.service.create(auth, {
      ...BODY,
      settings: {
        claims: { email: 'upn', groups: 'https://corp.example/claims/roles' },
        jit_provisioning: true,
      },
    });
    expect(view.settings).toEqual({
      claims: {
        email: 'upn',
        first_name: 'given_name',
        last_name: 'family_name',
        groups: 'https://corp.example/claims/roles',
      },
      jit_provisioning: true,
    });
  });

  it('a change merges over the stored settings', async () => {
    const s = setup();
    const { id } = await s.service.create(auth, { ...BODY, settings: { claims: { email: 'upn' } } });
    const view = await s.service.update(auth, id, { settings: { jit_provisioning: true } });
    expect(view.settings).toMatchObject({ claims: { email: 'upn' }, jit_provisioning: true });
  });

  it('refuses what is not a mapping, naming each problem', async () => {
    const s = setup();
    const errors = await refusal(
      s.service.create(auth, {
        ...BODY,
        settings: {
          claims: { email: 'has space', first_name: 7, phone: 'phone_number' },
          jit_provisioning: 'yes',
          sync: true,
        },
      }),
    );
    expect(errors).toEqual({
      'settings.claims.email': 'must be a claim name',
      'settings.claims.first_name': 'must be a claim name',
      'settings.claims.phone': 'is not a mapped claim',
      'settings.jit_provisioning': 'must be true or false',
      'settings.sync': 'is not a provider setting',
    });
    const notObject = await refusal(s.service.create(auth, { ...BODY, settings: { claims: ['email'] } }));
    expect(notObject).toEqual({ 'settings.claims': 'must be an object' });
    expect(s.repo.save).not.toHaveBeenCalled();
  });

  it('collects the problems of every field in one refusal', async () => {
    const s = setup();
    const errors = await refusal(
      s.service.create(auth, { ...BODY, issuer: 'http://x.example', scopes: ['a b'], settings: { x: 1 } }),
    );
    expect(Object.keys(errors).sort()).toEqual(['issuer', 'scopes', 'settings.x']);
  });
});

describe('OidcProvidersService: another domain’s provider', () => {
  it('is NOT_FOUND', async () => {
    const s = setup();
    const { id } = await s.service.create(auth, BODY);
    const other = authContext({ systemDomainId: 'd2' });
    await expect(s.service.get(other, id)).rejects.toMatchObject({ code: 'oidc_providers.NOT_FOUND' });
    await expect(s.service.update(other, id, { name: 'x' })).rejects.toMatchObject({
      code: 'oidc_providers.NOT_FOUND',
    });
  });
});
