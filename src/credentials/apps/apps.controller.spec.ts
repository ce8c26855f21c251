import { jest } from '@jest/globals';
import {
  crudServiceFake,
  expectFieldErrors,
  expectNotFound,
  hiddenFromCallers,
  useControllerSpec,
} from '../../../test/utils/controller-spec-suite.js';
import { AppsController } from './apps.controller.js';
import { AppsService } from './apps.service.js';

const APPS = '/API/auth/v1/apps';
const APP = '88888888-8888-4888-8888-888888888888';

describe('AppsController (HTTP layer, faked service)', () => {
  const service = crudServiceFake(APP, {
    rotateSecret: jest.fn(async () => ({ id: APP })),
    issueCurrentUserToken: jest.fn(async () => ({ token: 't' })),
    issuePat: jest.fn(async () => ({ token: 't' })),
  });
  const s = useControllerSpec({
    controllers: [AppsController],
    providers: [{ provide: AppsService, useValue: service }],
    callers: {
      appWriter: { roles: ['can_read_apps', 'can_write_apps'] },
      appReader: { roles: ['can_read_apps'] },
    },
    entities: { app: { label: 'App', ids: [APP] } },
  });

  it('needs a token (401)', async () => {
    await s.http.get(`${APPS}/`).expect(401);
    await s.http.post(`${APPS}/`).send({ name: 'x' }).expect(401);
  });

  it('registering needs an administrator (the role alone is not enough); reading needs can_read_apps', async () => {
    const res = await s.http.post(`${APPS}/`).set(s.as('appWriter')).send({ name: 'x' }).expect(403);
    expect(res.body).toEqual({ errors: ['Requires an administrator'] });
    const read = await s.http.get(`${APPS}/`).set(s.as('user')).expect(403);
    expect(read.body).toEqual({ errors: ['Missing role: can_read_apps'] });
    await s.http.delete(`${APPS}/${APP}/`).set(s.as('appWriter')).expect(403);
    expect(service.create).not.toHaveBeenCalled();
    expect(service.remove).not.toHaveBeenCalled();
  });

  it('a token for the signed-in person takes only a sign-in token: a PAT or an OAuth token is a 401', async () => {
    for (const who of ['pat', 'impersonation'] as const) {
      await s.http.post(`${APPS}/${APP}/current_user_token`).set(s.as(who)).expect(401);
    }
    await s.http.post(`${APPS}/${APP}/current_user_token`).set(s.as('user')).expect(200);
    expect(service.issueCurrentUserToken).toHaveBeenCalledTimes(1);
    expect(service.issueCurrentUserToken).toHaveBeenCalledWith(s.callers.user, APP);
  });

  it('passes the caller and the parsed body to the service', async () => {
    const body = { name: 'Sync', type: 'PAT', allowed_scopes: ['assets:read'] };
    await s.http.post(`${APPS}/`).set(s.as('admin')).send(body).expect(201);
    expect(service.create).toHaveBeenCalledWith(s.callers.admin, body);
    await s.http.patch(`${APPS}/${APP}/`).set(s.as('appWriter')).send({ description: 'd' }).expect(200);
    expect(service.update).toHaveBeenCalledWith(s.callers.appWriter, APP, { description: 'd' });
  });

  it('PUT is the same handler as PATCH under its own operation: same policy, pipes and service call', async () => {
    await s.http.put(`${APPS}/${APP}/`).set(s.as('appWriter')).send({ description: 'd' }).expect(200);
    expect(service.update).toHaveBeenCalledWith(s.callers.appWriter, APP, { description: 'd' });
    // the twin's body is validated against the same DTO, and its path parameter by the same pipe
    await expectFieldErrors(
      s.http.put(`${APPS}/${APP}/`).set(s.as('appWriter')).send({ type: 'ROBOT' }),
      ['type'],
      'in order',
    );
    await s.http.put(`${APPS}/not-a-uuid/`).set(s.as('appWriter')).send({}).expect(404);
    await s.http.put(`${APPS}/${APP}/`).set(s.as('user')).send({}).expect(403);
    await s.http.put(`${APPS}/${APP}/`).send({}).expect(401);
    expect(service.update).toHaveBeenCalledTimes(1);
  });

  it.each([
    [{}, ['name']],
    [{ name: 'x', type: 'ROBOT' }, ['type']],
    [{ name: 'x', allowed_scopes: ['everything'] }, ['allowed_scopes']],
    [{ name: 'x', default_user_id: 'me' }, ['default_user_id']],
    [{ name: 'x\u0000' }, ['name']],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    await expectFieldErrors(s.http.post(`${APPS}/`).set(s.as('admin')).send(sent), fields, 'in any order');
    expect(service.create).not.toHaveBeenCalled();
  });

  it('another domain’s app, an unknown or a malformed id is a 404 “App not found”', async () => {
    await expectNotFound(s, hiddenFromCallers(APP), 'App not found', (id) => [
      s.http.get(`${APPS}/${id}/`),
      s.http.patch(`${APPS}/${id}/`).send({ name: 'x' }),
      s.http.post(`${APPS}/${id}/token`),
    ]);
    expect(service.get).not.toHaveBeenCalled();
  });
});
