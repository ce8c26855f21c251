import { jest } from '@jest/globals';
import { expectFieldErrors, useControllerSpec } from '../../../test/utils/controller-spec-suite.js';
import { InvitationsController } from './invitations.controller.js';
import { InvitationsService } from './invitations.service.js';

const LINK = '/API/auth/v1/invitation';
const body = { password: 'a-good-password-1', repeat_password: 'a-good-password-1' };

describe('InvitationsController (HTTP layer, faked service): public routes', () => {
  const service = {
    verify: jest.fn(async () => ({ new_user_email: 'new@example.com' })),
    complete: jest.fn(async () => ({ token: 't' })),
  };
  const s = useControllerSpec({
    controllers: [InvitationsController],
    providers: [{ provide: InvitationsService, useValue: service }],
  });

  it('needs no token: the secret in the path is the credential, charged to the address', async () => {
    const res = await s.http.get(`${LINK}/the-secret/`).expect(200);
    expect(res.headers['ratelimit-remaining']).toBeDefined();
    expect(service.verify).toHaveBeenCalledWith('the-secret');
  });

  it('passes the secret and the parsed body to the service; unknown fields are dropped', async () => {
    await s.http
      .put(`${LINK}/complete/the-secret/`)
      .send({ ...body, last_name: 'Comer', is_admin: true })
      .expect(200);
    expect(service.complete).toHaveBeenCalledWith('the-secret', { ...body, last_name: 'Comer' }, null);
  });

  it.each([
    [{}, ['password', 'repeat_password']],
    [{ ...body, password: 12345678 }, ['password']],
    [{ ...body, email_marketing_consent: 'yes' }, ['email_marketing_consent']],
    [{ ...body, first_name: 'a\u0000' }, ['first_name']],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    await expectFieldErrors(s.http.put(`${LINK}/complete/the-secret/`).send(sent), fields, 'in any order');
    expect(service.complete).not.toHaveBeenCalled();
  });

  it('a NUL byte in the secret is a 400 naming the parameter, before the service', async () => {
    const res = await s.http.get(`${LINK}/a%00b/`).expect(400);
    expect(res.body).toEqual({ errors: { reset_hash: 'must not contain NUL characters' } });
    expect(service.verify).not.toHaveBeenCalled();
  });
});
