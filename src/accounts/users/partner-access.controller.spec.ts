import { jest } from '@jest/globals';
import { DOMAIN, OTHER_DOMAIN } from '../../../test/utils/controller-spec.js';
import { expectFieldErrors, useControllerSpec } from '../../../test/utils/controller-spec-suite.js';
import { PartnerAccessController } from './partner-access.controller.js';
import { PartnerAccessService } from './partner-access.service.js';

const PATH = '/API/users/v1/users/partner_domain_access';
const body = { customer_domain_id: DOMAIN, partner_domain_id: OTHER_DOMAIN };

describe('PartnerAccessController (HTTP layer, faked service)', () => {
  const service = { grant: jest.fn(async () => body), revoke: jest.fn(async () => undefined) };
  const s = useControllerSpec({
    controllers: [PartnerAccessController],
    providers: [{ provide: PartnerAccessService, useValue: service }],
    callers: { userWriter: { roles: ['can_read_users', 'can_write_users'] } },
  });

  it('needs a token (401)', async () => {
    await s.http.post(PATH).send(body).expect(401);
    await s.http.delete(PATH).send(body).expect(401);
  });

  it('needs an administrator (can_write_users alone is not enough; nor a PAT capped below)', async () => {
    for (const who of ['userWriter', 'pat'] as const) {
      for (const call of [s.http.post(PATH).send(body), s.http.delete(PATH).send(body)]) {
        expect((await call.set(s.as(who)).expect(403)).body).toEqual({
          errors: ['Requires an administrator'],
        });
      }
    }
    expect(service.grant).not.toHaveBeenCalled();
    expect(service.revoke).not.toHaveBeenCalled();
  });

  it('passes the caller and the parsed body to the service, for a grant and a revocation', async () => {
    await s.http.post(PATH).set(s.as('admin')).send(body).expect(202);
    expect(service.grant).toHaveBeenCalledWith(s.callers.admin, body);
    await s.http.delete(PATH).set(s.as('admin')).send(body).expect(204);
    expect(service.revoke).toHaveBeenCalledWith(s.callers.admin, body);
  });

  it.each([
    [{}, ['customer_domain_id', 'partner_domain_id']],
    [{ ...body, partner_domain_id: 'partner' }, ['partner_domain_id']],
    [{ ...body, customer_domain_id: 7 }, ['customer_domain_id']],
    [{ ...body, customer_domain_id: 'a\u0000' }, ['customer_domain_id']],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    for (const method of ['post', 'delete'] as const) {
      await expectFieldErrors(s.http[method](PATH).set(s.as('admin')).send(sent), fields, 'in any order');
    }
    expect(service.grant).not.toHaveBeenCalled();
  });
});
