import { jest } from '@jest/globals';
import {
  expectFieldErrors,
  expectNotFound,
  hiddenFromCallers,
  useControllerSpec,
} from '../../../test/utils/controller-spec-suite.js';
import { ViewsController } from './views.controller.js';
import { ViewsService } from './views.service.js';

const API = '/API/metadata/v1';
const VIEW = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const body = { name: 'Rights', view_fields: [] };
/** A view as the service answers it (its fields the registered definitions). */
const answer = {
  id: VIEW,
  name: 'Rights',
  description: null,
  view_fields: [],
  system_domain_id: 'd',
  date_created: '2026-01-01T00:00:00.000000+00:00',
  date_modified: '2026-01-01T00:00:00.000000+00:00',
};

describe('ViewsController (HTTP layer, faked service)', () => {
  const service = {
    list: jest.fn(async () => ({ objects: [] })),
    create: jest.fn(async () => ({ id: VIEW })),
    getView: jest.fn(async () => answer),
    replace: jest.fn(async () => ({ id: VIEW })),
    remove: jest.fn(async () => undefined),
    listCategories: jest.fn(async () => ({ objects: [] })),
    createCategory: jest.fn(async () => ({ id: 'c' })),
  };
  const s = useControllerSpec({
    controllers: [ViewsController],
    providers: [{ provide: ViewsService, useValue: service }],
    callers: {
      reader: { roles: ['can_read_assets'] },
      writer: { roles: ['can_read_assets', 'can_write_assets'] },
    },
    entities: { 'metadata-view': { label: 'View', ids: [VIEW] } },
  });

  it('needs a token (401)', async () => {
    await s.http.get(`${API}/views/`).expect(401);
    await s.http.post(`${API}/views/`).send(body).expect(401);
  });

  it('reads need can_read_assets, writes can_write_assets, deletes can_delete_assets (403)', async () => {
    await s.http.get(`${API}/views/`).set(s.as('user')).expect(403);
    const res = await s.http.post(`${API}/views/`).set(s.as('reader')).send(body).expect(403);
    expect(res.body).toEqual({ errors: ['Missing role: can_write_assets'] });
    await s.http.post(`${API}/views/`).set(s.as('oauth')).send(body).expect(403);
    await s.http.delete(`${API}/views/${VIEW}/`).set(s.as('writer')).expect(403);
    const read = await s.http.get(`${API}/views/${VIEW}/`).set(s.as('oauth')).expect(200);
    expect(read.body).toMatchObject({ id: VIEW, date_created: expect.any(String) });
    expect(service.create).not.toHaveBeenCalled();
    expect(service.remove).not.toHaveBeenCalled();
  });

  it('passes the caller, the id and the parsed body to the service', async () => {
    await s.http.post(`${API}/views/`).set(s.as('writer')).send(body).expect(201);
    expect(service.create).toHaveBeenCalledWith(s.callers.writer, body);
    await s.http.put(`${API}/views/${VIEW}/`).set(s.as('writer')).send(body).expect(200);
    expect(service.replace).toHaveBeenCalledWith(s.callers.writer, VIEW, body);
  });

  it.each([
    [{}, ['name', 'view_fields']],
    [{ ...body, view_fields: 'all' }, ['view_fields']],
    [{ ...body, description: 5 }, ['description']],
    [{ ...body, name: 'a\u0000' }, ['name']],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    await expectFieldErrors(
      s.http.post(`${API}/views/`).set(s.as('writer')).send(sent),
      fields,
      'in any order',
    );
    expect(service.create).not.toHaveBeenCalled();
  });

  it('another domain’s view, an unknown or a malformed id is a 404 “View not found”', async () => {
    await expectNotFound(s, hiddenFromCallers(VIEW), 'View not found', (id) => [
      s.http.get(`${API}/views/${id}/`),
      s.http.put(`${API}/views/${id}/`).send(body),
    ]);
    expect(service.getView).not.toHaveBeenCalled();
  });
});
