import { jest } from '@jest/globals';
import {
  crudServiceFake,
  expectFieldErrors,
  expectNotFound,
  useControllerSpec,
} from '../../../test/utils/controller-spec-suite.js';
import { DomainBindingsService } from './domain-bindings.service.js';
import { IdpErrors } from './identity-providers.errors.js';
import { IdentityProvidersController } from './identity-providers.controller.js';
import { IdentityProvidersService } from './identity-providers.service.js';

const SAML = '/API/auth/v1/auth/saml';
const IDP = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const bind = { domain: 'example.com', identity_provider_id: IDP };

describe('IdentityProvidersController (HTTP layer, faked services)', () => {
  const idps = crudServiceFake(IDP);
  const bindings = { bind: jest.fn(async () => bind) };
  const s = useControllerSpec({
    controllers: [IdentityProvidersController],
    providers: [
      { provide: IdentityProvidersService, useValue: idps },
      { provide: DomainBindingsService, useValue: bindings },
    ],
    callers: { userAdmin: { roles: ['can_read_users', 'can_write_users'] } },
    entities: {
      identity_provider: { label: 'Identity provider', ids: [IDP], notFound: () => IdpErrors.NOT_FOUND() },
    },
  });

  it('needs a token (401)', async () => {
    await s.http.get(`${SAML}/idp/`).expect(401);
    await s.http.post(`${SAML}/domains/`).send(bind).expect(401);
  });

  it('is for domain administrators: roles or a PAT capped below are not enough (403)', async () => {
    for (const who of ['userAdmin', 'pat'] as const) {
      for (const call of [
        s.http.get(`${SAML}/idp/`),
        s.http.get(`${SAML}/idp/${IDP}/`),
        s.http.post(`${SAML}/domains/`).send(bind),
        s.http.delete(`${SAML}/idp/${IDP}/`),
      ]) {
        expect((await call.set(s.as(who)).expect(403)).body).toEqual({
          errors: ['Requires an administrator'],
        });
      }
    }
    expect(idps.get).not.toHaveBeenCalled();
    expect(bindings.bind).not.toHaveBeenCalled();
  });

  it('passes the caller and the parsed body to the services', async () => {
    await s.http
      .post(`${SAML}/domains/`)
      .set(s.as('admin'))
      .send({ ...bind, force: true })
      .expect(201);
    expect(bindings.bind).toHaveBeenCalledWith(s.callers.admin, { ...bind, force: true });
    await s.http.get(`${SAML}/idp/${IDP}/`).set(s.as('admin')).expect(200);
    expect(idps.get).toHaveBeenCalledWith(s.callers.admin, IDP);
  });

  it.each([
    // which authenticator (exactly one of three ids) is the service's to judge (DomainBindingsService.bind)
    [{}, ['domain']],
    [{ ...bind, identity_provider_id: 'okta' }, ['identity_provider_id']],
    [{ ...bind, force: 'yes' }, ['force']],
    [{ ...bind, domain: 'example.com\u0000' }, ['domain']],
  ])('refuses the binding %j with 400 naming %j', async (sent, fields) => {
    await expectFieldErrors(
      s.http.post(`${SAML}/domains/`).set(s.as('admin')).send(sent),
      fields,
      'in any order',
    );
    expect(bindings.bind).not.toHaveBeenCalled();
  });

  it('another domain’s identity provider, or a malformed id, is the 404 “Identity provider does not exist”', async () => {
    const hidden = [
      ['otherAdmin', IDP],
      ['admin', 'nonsense'],
    ] as const;
    await expectNotFound(s, hidden, 'Identity provider does not exist', (id) => [
      s.http.get(`${SAML}/idp/${id}/`),
      s.http.patch(`${SAML}/idp/${id}/`).send({ name: 'x' }),
      s.http.delete(`${SAML}/idp/${id}/`),
    ]);
    expect(idps.update).not.toHaveBeenCalled();
  });
});
