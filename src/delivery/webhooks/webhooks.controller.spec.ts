import { jest } from '@jest/globals';
import {
  crudServiceFake,
  expectFieldErrors,
  expectNotFound,
  hiddenFromCallers,
  useControllerSpec,
} from '../../../test/utils/controller-spec-suite.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

const HOOKS = '/API/notifications/v1/webhooks';
const LEGACY = '/API/webhooks/v1/webhooks';
const HOOK = '11111111-1111-4111-8111-111111111111';
const OTHER_HOOK = '22222222-2222-4222-8222-222222222222';
const body = { url: 'https://hooks.example.com/portcullis', event_type: 'assets', status: 'ENABLED' };

describe('WebhooksController (HTTP layer, faked service)', () => {
  const service = crudServiceFake(HOOK, {
    rotateSecret: jest.fn(async () => ({ id: HOOK })),
    deliveries: jest.fn(async () => ({ objects: [] })),
    replay: jest.fn(async () => ({ id: HOOK })),
  });
  const s = useControllerSpec({
    controllers: [WebhooksController],
    providers: [{ provide: WebhooksService, useValue: service }],
    entities: { webhook: { label: 'Webhook', ids: [HOOK], otherIds: [OTHER_HOOK] } },
  });

  it('needs a token (401), and carries RateLimit-Remaining', async () => {
    const res = await s.http.get(HOOKS).expect(401);
    expect(res.body).toEqual({ errors: ['Authentication credentials were not provided'] });
    expect(res.headers['ratelimit-remaining']).toBeDefined();
    await s.http.post(HOOKS).send(body).expect(401);
  });

  it('is for domain administrators only, reads included (403 for a plain user and a capped PAT)', async () => {
    for (const who of ['user', 'pat'] as const) {
      for (const call of [
        s.http.get(HOOKS),
        s.http.post(HOOKS).send(body),
        s.http.get(`${HOOKS}/${HOOK}`),
        s.http.patch(`${HOOKS}/${HOOK}`).send({ name: 'x' }),
        s.http.delete(`${HOOKS}/${HOOK}`),
        s.http.post(`${HOOKS}/${HOOK}/secret/rotate`),
        s.http.get(`${LEGACY}/${HOOK}/deliveries`),
      ]) {
        const res = await call.set(s.as(who)).expect(403);
        expect(res.body).toEqual({ errors: ['Requires an administrator'] });
      }
    }
    expect(Object.values(service).every((f) => f.mock.calls.length === 0)).toBe(true);
  });

  it('refuses the temporary sign-in token (401)', async () => {
    await s.http.get(HOOKS).set(s.as('temp')).expect(401);
  });

  it('passes the caller and the validated body to the service; unknown fields are dropped', async () => {
    await s.http
      .post(HOOKS)
      .set(s.as('admin'))
      .send({ ...body, secret: 'whsec_chosen' })
      .expect(201);
    expect(service.create).toHaveBeenCalledWith(s.callers.admin, body);
    await s.http.patch(`${LEGACY}/${HOOK}`).set(s.as('admin')).send({ name: 'renamed' }).expect(200);
    expect(service.update).toHaveBeenCalledWith(s.callers.admin, HOOK, { name: 'renamed' });
  });

  it.each([
    [{}, ['url', 'event_type', 'status']],
    [{ url: 'https://h.example/', event_type: '', status: 'ON' }, ['event_type', 'status']],
    [{ ...body, object_id: 'nope', headers: 'x' }, ['object_id', 'headers']],
    [{ ...body, query: 5 }, ['query']],
    [{ ...body, name: 'a\u0000b' }, ['name']],
  ])('refuses the body %j with 400 naming %j, before the service', async (sent, fields) => {
    await expectFieldErrors(s.http.post(HOOKS).set(s.as('admin')).send(sent), fields, 'in any order');
    expect(service.create).not.toHaveBeenCalled();
  });

  it('another domain’s webhook is a 404, as an unknown or malformed id is', async () => {
    // and the webhook of another domain, asked for by this domain's administrator
    const hidden = [['admin', OTHER_HOOK], ...hiddenFromCallers(HOOK)] as const;
    await expectNotFound(s, hidden, 'Webhook not found', (id) => [
      s.http.get(`${HOOKS}/${id}`),
      s.http.patch(`${HOOKS}/${id}`).send({ name: 'x' }),
      s.http.delete(`${HOOKS}/${id}`),
      s.http.get(`${LEGACY}/${id}/deliveries`),
    ]);
    expect(service.get).not.toHaveBeenCalled();
  });

  it('a malformed delivery id is a 404 naming the delivery', async () => {
    const res = await s.http
      .post(`${HOOKS}/${HOOK}/deliveries/not-a-uuid/replay`)
      .set(s.as('admin'))
      .expect(404);
    expect(res.body).toEqual({ errors: ['Webhook delivery not found'] });
    expect(service.replay).not.toHaveBeenCalled();
  });
});
