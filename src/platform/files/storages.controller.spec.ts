import { jest } from '@jest/globals';
import { expectFieldErrors, useControllerSpec } from '../../../test/utils/controller-spec-suite.js';
import { StoragesController } from './storages.controller.js';
import { StoragesService } from './storages.service.js';

const STORAGES = '/API/files/v1/storages';
const STORAGE = '55555555-5555-4555-8555-555555555555';
const body = { name: 'Archive', method: 'FILE', purpose: 'ARCHIVE' };

describe('StoragesController (HTTP layer, faked service)', () => {
  const service = {
    list: jest.fn(async () => ({ objects: [] })),
    create: jest.fn(async () => ({ id: STORAGE })),
    matchingView: jest.fn(async () => ({ id: STORAGE })),
    get: jest.fn(async () => ({ id: STORAGE })),
    update: jest.fn(async () => ({ id: STORAGE })),
  };
  const s = useControllerSpec({
    controllers: [StoragesController],
    providers: [{ provide: StoragesService, useValue: service }],
    callers: { reader: { roles: ['can_read_assets'] } },
  });

  it('needs a token (401)', async () => {
    await s.http.get(`${STORAGES}/`).expect(401);
    await s.http.post(`${STORAGES}/`).send(body).expect(401);
  });

  it('reads need can_read_assets (an assets:read token reads); writes need an administrator', async () => {
    await s.http.get(`${STORAGES}/`).set(s.as('user')).expect(403);
    await s.http.get(`${STORAGES}/`).set(s.as('reader')).expect(200);
    await s.http.get(`${STORAGES}/${STORAGE}/`).set(s.as('oauth')).expect(200);
    for (const who of ['reader', 'pat'] as const) {
      const res = await s.http.post(`${STORAGES}/`).set(s.as(who)).send(body).expect(403);
      expect(res.body).toEqual({ errors: ['Requires an administrator'] });
      await s.http.patch(`${STORAGES}/${STORAGE}/`).set(s.as(who)).send({ name: 'x' }).expect(403);
    }
    // an administrator's OAuth token without user_impersonation: the route needs no role
    const res = await s.http.post(`${STORAGES}/`).set(s.as('oauth')).send(body).expect(403);
    expect(res.body).toEqual({ errors: ['This route needs the user_impersonation scope'] });
    expect(service.create).not.toHaveBeenCalled();
  });

  it('passes the caller and the parsed body to the service', async () => {
    await s.http
      .post(`${STORAGES}/`)
      .set(s.as('admin'))
      .send({ ...body, default: true })
      .expect(201);
    expect(service.create).toHaveBeenCalledWith(s.callers.admin, { ...body, default: true });
    await s.http.patch(`${STORAGES}/${STORAGE}/`).set(s.as('admin')).send({ status: 'INACTIVE' }).expect(200);
    expect(service.update).toHaveBeenCalledWith(s.callers.admin, STORAGE, { status: 'INACTIVE' });
    await s.http.get(`${STORAGES}/matching/EXPORTS/`).set(s.as('reader')).expect(200);
    expect(service.matchingView).toHaveBeenCalledWith(s.callers.reader, 'EXPORTS');
  });

  it.each([
    [{}, ['name', 'method', 'purpose']],
    [{ ...body, method: 'FTP' }, ['method']],
    [{ ...body, default: 'yes' }, ['default']],
    [{ ...body, settings: 'x' }, ['settings']],
    [{ ...body, name: 'a\u0000b' }, ['name']],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    await expectFieldErrors(
      s.http.post(`${STORAGES}/`).set(s.as('admin')).send(sent),
      fields,
      'in any order',
    );
    expect(service.create).not.toHaveBeenCalled();
  });

  it('a malformed storage id or an unknown purpose is a 404, before the service', async () => {
    const res = await s.http.get(`${STORAGES}/nonsense/`).set(s.as('reader')).expect(404);
    expect(res.body).toEqual({ errors: ['Storage not found'] });
    await s.http.patch(`${STORAGES}/nonsense/`).set(s.as('admin')).send({ name: 'x' }).expect(404);
    await s.http.get(`${STORAGES}/matching/nonsense/`).set(s.as('reader')).expect(404);
    expect(service.get).not.toHaveBeenCalled();
    expect(service.matchingView).not.toHaveBeenCalled();
  });
});
