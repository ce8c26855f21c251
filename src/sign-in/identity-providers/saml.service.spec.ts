import { jest } from '@jest/globals';
import type { BaseConfig } from '../../base/config/config.js';
import type { IdentityProviderEntity } from '../../base/model/identity-provider.entity.js';
import type { IdentityProvidersRepository } from './identity-providers.repository.js';
import type { IdentityProvidersService } from './identity-providers.service.js';

/**
 * node-saml checks signatures, times and audience; what SamlService adds around it is tested here, with
 * node-saml faked: its validation answers what each test says (the assertion it "verified", or an error).
 */
interface FakeOptions {
  idpCert: string[];
  audience: string;
  callbackUrl: string;
  validateInResponseTo: string;
  wantAssertionsSigned: boolean;
  wantAuthnResponseSigned: boolean;
  cacheProvider: { saveAsync(key: string, value: string): Promise<unknown> };
}
const node = {
  options: [] as FakeOptions[],
  validation: jest.fn(async (): Promise<unknown> => ({ profile: null })),
};
class FakeSAML {
  constructor(readonly options: FakeOptions) {
    node.options.push(options);
  }
  validatePostResponseAsync() {
    return node.validation();
  }
  async getAuthorizeUrlAsync(relayState: string) {
    await this.options.cacheProvider.saveAsync('_req1', new Date().toISOString());
    return `https://idp.corp.test/sso?SAMLRequest=x&RelayState=${encodeURIComponent(relayState)}`;
  }
  generateServiceProviderMetadata() {
    return '<EntityDescriptor/>';
  }
}
jest.unstable_mockModule('@node-saml/node-saml', () => ({
  SAML: FakeSAML,
  ValidateInResponseTo: { never: 'never', ifPresent: 'ifPresent', always: 'always' },
}));
const { SamlService, SamlRefusal, CLOCK_SKEW_MS } = await import('./saml.service.js');
const { HostileXmlError } = await import('./saml-xml.js');

const BASE = 'https://auth.example.test';
const ACS = `${BASE}/API/auth/v1/auth/saml/acs/p1/`;
const OLD_ACS = `${BASE}/API/auth/v1/auth/saml/acs/d1/i1/`;
const ISSUER = 'https://idp.corp.test';
const FP = 'ab'.repeat(20);
const config = { http: { publicBaseUrl: BASE } } as unknown as BaseConfig;

const idp = (settings: Record<string, unknown> = {}, over: Partial<IdentityProviderEntity> = {}) =>
  ({
    id: 'i1',
    public_id: 'p1',
    system_domain_id: 'd1',
    type: 'GENERIC',
    settings: {
      idp_entity_id: ISSUER,
      idp_sso_post_url: 'https://idp.corp.test/sso',
      idp_x509cert: 'CERT-PEM',
      ...settings,
    },
    verbose_logging: false,
    enabled: true,
    sp_private_key_sealed: null,
    sp_certificate: null,
    ...over,
  }) as IdentityProviderEntity;

interface Doc {
  destination?: string | null;
  inResponseTo?: string | null;
  id?: string | null;
  issuer?: string;
  nameId?: string;
  recipients?: string[];
  notOnOrAfter?: string;
  attributes?: Record<string, string[]>;
  certificate?: string;
}
const SAMLNS = 'urn:oasis:names:tc:SAML:2.0:assertion';
function assertion(d: Doc): string {
  const attrs = Object.entries(d.attributes ?? {})
    .map(
      ([n, vs]) =>
        `<saml:Attribute Name="${n}">${vs.map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`).join('')}</saml:Attribute>`,
    )
    .join('');
  const confirmations = (d.recipients ?? [ACS])
    .map(
      (r) =>
        `<saml:SubjectConfirmation><saml:SubjectConfirmationData Recipient="${r}"${d.notOnOrAfter ? ` NotOnOrAfter="${d.notOnOrAfter}"` : ''}/></saml:SubjectConfirmation>`,
    )
    .join('');
  return (
    `<saml:Assertion xmlns:saml="${SAMLNS}"${d.id === null ? '' : ` ID="${d.id ?? '_a1'}"`}>` +
    `<saml:Issuer>${d.issuer ?? ISSUER}</saml:Issuer>` +
    `<saml:Subject><saml:NameID>${d.nameId ?? 'Ada@Corp.test'}</saml:NameID>${confirmations}</saml:Subject>` +
    `<saml:AttributeStatement>${attrs}</saml:AttributeStatement></saml:Assertion>`
  );
}
function response(d: Doc = {}): string {
  const dest = d.destination === null ? '' : ` Destination="${d.destination ?? ACS}"`;
  const irt = d.inResponseTo ? ` InResponseTo="${d.inResponseTo}"` : '';
  const sig = d.certificate
    ? `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${d.certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature>`
    : '';
  const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r1"${dest}${irt}>${sig}${assertion(d)}</samlp:Response>`;
  return Buffer.from(xml).toString('base64');
}
/** node-saml's answer: it verified this assertion. */
const verified = (d: Doc = {}) =>
  node.validation.mockResolvedValue({ profile: { getAssertionXml: () => assertion(d) } });

function setup(o: { fresh?: boolean; pending?: { return_to: string | null } } = {}) {
  node.options.length = 0;
  node.validation.mockReset();
  const repo = {
    idpWithKeyByPublicId: jest.fn(async (): Promise<IdentityProviderEntity | null> => idp()),
    idpWithKey: jest.fn(async (): Promise<IdentityProviderEntity | null> => idp()),
    recordAssertion: jest.fn(async (_idp: string, _id: string, _expires: Date) => o.fresh ?? true),
    takeRequest: jest.fn(async (_id: string, _idp: string) => o.pending),
    saveRequest: jest.fn(async (..._a: unknown[]) => undefined),
    sweepExpired: jest.fn(async () => undefined),
  };
  const idps = { unseal: jest.fn((s: string) => `unsealed:${s}`) };
  const service = new SamlService(
    config,
    idps as unknown as IdentityProvidersService,
    repo as unknown as IdentityProvidersRepository,
  );
  return { service, repo };
}

const refused = (why: string | RegExp) =>
  expect.objectContaining({ constructor: SamlRefusal, message: expect.stringMatching(why) as unknown });

describe('SamlService.accept: the document', () => {
  it('refuses what is not base64, or a DTD, as a hostile document before node-saml sees it', async () => {
    const s = setup();
    await expect(s.service.accept(idp(), '<xml/>', null)).rejects.toBeInstanceOf(HostileXmlError);
    const dtd = Buffer.from('<!DOCTYPE r [<!ENTITY x "y">]><r/>').toString('base64');
    await expect(s.service.accept(idp(), dtd, null)).rejects.toBeInstanceOf(HostileXmlError);
    expect(node.options).toHaveLength(0);
  });

  it('refuses any response for a disabled IdP', async () => {
    const s = setup();
    verified();
    await expect(s.service.accept(idp({}, { enabled: false }), response(), null)).rejects.toEqual(
      refused('disabled'),
    );
  });

  it('hands node-saml the configured certificate, the SP entity id as audience, and our ACS', async () => {
    const s = setup();
    verified();
    await s.service.accept(idp({ allow_idp_initiated: true }), response(), null);
    expect(node.options[0]).toMatchObject({
      idpCert: ['CERT-PEM'],
      audience: `${BASE}/API/auth/v1/auth/saml/metadata/p1/`,
      callbackUrl: ACS,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
    });
  });

  it('with a fingerprint only: refuses a response whose embedded certificates match none', async () => {
    const s = setup();
    verified();
    await expect(
      s.service.accept(
        idp({ idp_x509cert: undefined, cert_fingerprint: FP }),
        response({ certificate: 'bm90IGEgY2VydA==' }),
        null,
      ),
    ).rejects.toEqual(refused('no trusted certificate'));
    expect(node.options).toHaveLength(0);
  });

  it('turns node-saml’s refusal (signature, times, audience) into a SamlRefusal with its reason', async () => {
    const s = setup();
    node.validation.mockRejectedValue(new Error('Invalid signature'));
    await expect(s.service.accept(idp(), response(), null)).rejects.toEqual(refused('Invalid signature'));
    node.validation.mockResolvedValue({ profile: {} });
    await expect(s.service.accept(idp(), response(), null)).rejects.toEqual(refused('no assertion'));
  });
});

describe('SamlService.accept: what node-saml leaves to its caller', () => {
  it('refuses an assertion issued by another entity than the IdP’s', async () => {
    const s = setup();
    verified({ issuer: 'https://evil.test' });
    await expect(s.service.accept(idp({ allow_idp_initiated: true }), response(), null)).rejects.toEqual(
      refused('wrong issuer'),
    );
    expect(s.repo.recordAssertion).not.toHaveBeenCalled();
  });

  it('refuses a Destination other than this IdP’s ACS (either path form)', async () => {
    const s = setup();
    verified();
    const lax = idp({ allow_idp_initiated: true });
    await expect(
      s.service.accept(lax, response({ destination: `${BASE}/API/auth/v1/auth/saml/acs/p2/` }), null),
    ).rejects.toEqual(refused('wrong Destination'));
    await expect(s.service.accept(lax, response({ destination: OLD_ACS }), null)).resolves.toBeTruthy();
  });

  it('needs every Recipient to be this IdP’s ACS (either path form), and at least one', async () => {
    const s = setup();
    const lax = idp({ allow_idp_initiated: true });
    verified({ recipients: [ACS, `${BASE}/elsewhere/`] });
    await expect(s.service.accept(lax, response(), null)).rejects.toEqual(refused('Recipient'));
    verified({ recipients: [] });
    await expect(s.service.accept(lax, response(), null)).rejects.toEqual(refused('Recipient'));
    verified({ recipients: [OLD_ACS.replace(/\/$/, ''), ACS] });
    await expect(s.service.accept(lax, response(), null)).resolves.toBeTruthy();
  });

  it('refuses an assertion without ID', async () => {
    const s = setup();
    verified({ id: null });
    await expect(s.service.accept(idp({ allow_idp_initiated: true }), response(), null)).rejects.toEqual(
      refused('without ID'),
    );
  });

  it('refuses an unsolicited response unless the IdP allows IdP-initiated sign-in', async () => {
    const s = setup();
    verified();
    await expect(s.service.accept(idp(), response(), null)).rejects.toEqual(refused('unsolicited'));
    expect(node.options[0].validateInResponseTo).toBe('always');
    const a = await s.service.accept(idp({ allow_idp_initiated: true }), response(), '/relay');
    expect(node.options[1].validateInResponseTo).toBe('ifPresent');
    expect(a).toMatchObject({ spInitiated: false, returnTo: '/relay' });
  });

  it('records each assertion ID once: a second use is a replay', async () => {
    const s = setup({ fresh: false });
    verified({ id: '_seen' });
    await expect(s.service.accept(idp({ allow_idp_initiated: true }), response(), null)).rejects.toEqual(
      refused('replayed'),
    );
    expect(s.repo.recordAssertion.mock.calls[0].slice(0, 2)).toEqual(['i1', '_seen']);
  });

  it('remembers the ID until the assertion’s validity (or the request window) has passed, plus the skew', async () => {
    const s = setup();
    const later = new Date(Date.now() + 3600_000);
    verified({ notOnOrAfter: later.toISOString() });
    await s.service.accept(idp({ allow_idp_initiated: true }), response(), null);
    expect(s.repo.recordAssertion.mock.calls[0][2].getTime()).toBe(later.getTime() + CLOCK_SKEW_MS);
    verified({ id: '_a2', notOnOrAfter: new Date(Date.now() - 60_000).toISOString() });
    const before = Date.now();
    await s.service.accept(idp({ allow_idp_initiated: true }), response(), null);
    const expires = s.repo.recordAssertion.mock.calls[1][2].getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 10 * 60_000 + CLOCK_SKEW_MS);
  });

  it('an answer to a request consumes that request of this IdP and returns where it said, not to the RelayState', async () => {
    const s = setup({ pending: { return_to: '/stored' } });
    verified();
    const a = await s.service.accept(idp(), response({ inResponseTo: '_req1' }), 'https://evil.test/');
    expect(s.repo.takeRequest).toHaveBeenCalledWith('_req1', 'i1');
    expect(a).toMatchObject({ spInitiated: true, returnTo: '/stored' });
  });

  it('refuses an InResponseTo that names no pending request (unknown, used, or another IdP’s)', async () => {
    const s = setup({ pending: undefined });
    verified();
    await expect(s.service.accept(idp(), response({ inResponseTo: '_gone' }), null)).rejects.toEqual(
      refused('no pending request'),
    );
  });
});

describe('SamlService.accept: the person', () => {
  const lax = idp({ allow_idp_initiated: true });

  it('takes the email from the NameID (lower-cased), else from an email attribute', async () => {
    const s = setup();
    verified();
    expect((await s.service.accept(lax, response(), null)).email).toBe('ada@corp.test');
    verified({ id: '_a2', nameId: 'opaque-id-123', attributes: { mail: ['Bob@Corp.test'] } });
    expect((await s.service.accept(lax, response(), null)).email).toBe('bob@corp.test');
  });

  it('refuses an assertion that names no email', async () => {
    const s = setup();
    verified({ nameId: 'opaque-id-123', attributes: { mail: ['not an email'] } });
    await expect(s.service.accept(lax, response(), null)).rejects.toEqual(refused('no email'));
  });

  it('reads the names and the groups from the known attribute names', async () => {
    const s = setup();
    verified({
      attributes: {
        givenName: ['  Ada '],
        'urn:oid:2.5.4.4': ['Lovelace'],
        groups: ['Engineers', 'Admins'],
      },
    });
    expect(await s.service.accept(lax, response(), null)).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      groups: ['Engineers', 'Admins'],
    });
  });
});

describe('SamlService: finding the IdP and starting SSO', () => {
  it('looks an IdP up only by a UUID-shaped public id (with its sealed key); anything else is NOT_FOUND', async () => {
    const s = setup();
    await expect(s.service.byPublicId('../etc')).rejects.toMatchObject({
      code: 'identity_providers.NOT_FOUND',
    });
    expect(s.repo.idpWithKeyByPublicId).not.toHaveBeenCalled();
    s.repo.idpWithKeyByPublicId.mockResolvedValue(null);
    await expect(s.service.byPublicId('7f1d3c9e-0000-4000-8000-000000000001')).rejects.toMatchObject({
      code: 'identity_providers.NOT_FOUND',
    });
    await expect(s.service.byDomainAndId('d1', '7f1d3c9e-0000-4000-8000-000000000001')).rejects.toMatchObject(
      {
        code: 'identity_providers.NOT_FOUND',
      },
    );
    expect(s.repo.idpWithKey).not.toHaveBeenCalled();
  });

  it('refuses to start SSO with a disabled IdP or one without an SSO URL', async () => {
    const s = setup();
    await expect(s.service.authorizeUrl(idp({}, { enabled: false }), null)).rejects.toMatchObject({
      code: 'identity_providers.NOT_CONFIGURED',
    });
    await expect(s.service.authorizeUrl(idp({ idp_sso_post_url: undefined }), null)).rejects.toMatchObject({
      code: 'identity_providers.NOT_CONFIGURED',
    });
  });

  it('remembers the AuthnRequest for this IdP with where to return, and sweeps expired rows at most once a minute', async () => {
    const s = setup();
    const url = await s.service.authorizeUrl(idp(), '/back');
    expect(url).toContain('https://idp.corp.test/sso');
    expect(s.repo.saveRequest).toHaveBeenCalledWith('_req1', 'i1', '/back', expect.any(Date));
    await s.service.authorizeUrl(idp(), null);
    expect(s.repo.sweepExpired).toHaveBeenCalledTimes(1);
  });

  it('signs AuthnRequests with the unsealed SP key only when the IdP asks for it', async () => {
    const s = setup();
    await s.service.authorizeUrl(idp({}, { sp_private_key_sealed: 'sealed' }), null);
    expect(node.options[0]).not.toHaveProperty('privateKey');
    await s.service.authorizeUrl(
      idp({ authn_requests_signed: true }, { sp_private_key_sealed: 'sealed' }),
      null,
    );
    expect(node.options[1]).toMatchObject({ privateKey: 'unsealed:sealed' });
  });
});
