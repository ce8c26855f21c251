import { jest } from '@jest/globals';
import { expectFieldErrors, useControllerSpec } from '../../../test/utils/controller-spec-suite.js';
import { ReferralCodesController } from './referral-codes.controller.js';
import { ReferralCodesService } from './referral-codes.service.js';

const CODES = '/API/auth/v1/referral_codes';
const body = { code: 'SPRING-2027', valid_to: '2027-06-01T00:00:00Z', value: 100 };

describe('ReferralCodesController (HTTP layer, faked service)', () => {
  const service = {
    list: jest.fn(async () => ({ objects: [] })),
    create: jest.fn(async () => ({ code: body.code })),
    get: jest.fn(async () => ({ code: body.code })),
    remove: jest.fn(async () => undefined),
  };
  const s = useControllerSpec({
    controllers: [ReferralCodesController],
    providers: [{ provide: ReferralCodesService, useValue: service }],
  });

  it('needs a token (401)', async () => {
    await s.http.get(`${CODES}/`).expect(401);
    await s.http.post(`${CODES}/`).send(body).expect(401);
  });

  it('is for super administrators only: a domain administrator gets 403 on every route', async () => {
    for (const call of [
      s.http.get(`${CODES}/`),
      s.http.get(`${CODES}/SPRING-2027/`),
      s.http.post(`${CODES}/`).send(body),
      s.http.delete(`${CODES}/SPRING-2027/`),
    ]) {
      const res = await call.set(s.as('admin')).expect(403);
      expect(res.body).toEqual({ errors: ['Requires a super administrator'] });
    }
    expect(Object.values(service).every((f) => f.mock.calls.length === 0)).toBe(true);
  });

  it('passes the parsed body and the code to the service', async () => {
    await s.http.post(`${CODES}/`).set(s.as('super')).send(body).expect(201);
    expect(service.create).toHaveBeenCalledWith(body);
    await s.http.delete(`${CODES}/SPRING-2027/`).set(s.as('super')).expect(204);
    expect(service.remove).toHaveBeenCalledWith('SPRING-2027');
  });

  it.each([
    [{}, ['code', 'valid_to', 'value']],
    [{ ...body, code: 'a b' }, ['code']],
    [{ ...body, valid_to: 'soon' }, ['valid_to']],
    [{ ...body, value: '100' }, ['value']],
    [{ ...body, do_not_delete: 'yes' }, ['do_not_delete']],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    await expectFieldErrors(s.http.post(`${CODES}/`).set(s.as('super')).send(sent), fields, 'in any order');
    expect(service.create).not.toHaveBeenCalled();
  });

  it('a NUL byte in the path is a 400 naming the parameter', async () => {
    const res = await s.http.get(`${CODES}/A%00B/`).set(s.as('super')).expect(400);
    expect(res.body).toEqual({ errors: { code: 'must not contain NUL characters' } });
    expect(service.get).not.toHaveBeenCalled();
  });
});
