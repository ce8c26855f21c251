import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Clock } from '../../src/base/common/clock.js';
import { WebhookDeliveryEntity } from '../../src/base/model/webhook-delivery.entity.js';
import { WebhookEventEntity } from '../../src/base/model/webhook-event.entity.js';
import { type WebhookEvent, WebhookEventsService } from '../../src/delivery/events/webhook-events.service.js';
import { WebhookEntity } from '../../src/base/model/webhook.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { WebhookWorker } from '../../src/delivery/webhooks/webhook-worker.service.js';
import { WebhookReceiver } from '../utils/webhook-receiver.js';
import { waitFor } from '../utils/wait-for.js';

const HOOKS = '/API/notifications/v1/webhooks';
/** Fast retries so the failure paths take milliseconds; the disable period is moved with the Clock. */
const FAST = {
  WEBHOOK_POLL_INTERVAL_MS: '20',
  WEBHOOK_RETRY_BASE_MS: '20',
  WEBHOOK_RETRY_MAX_MS: '60',
  WEBHOOK_TIMEOUT_MS: '2000',
};

describe('webhook delivery', () => {
  let t: TestApp;
  let h: Record<string, string>;
  let receiver: WebhookReceiver;

  const register = async (path: string, extra: Record<string, unknown> = {}) =>
    (
      await t.http
        .post(HOOKS)
        .set(h)
        .send({ url: receiver.url(path), event_type: 'assets', status: 'ENABLED', ...extra })
        .expect(201)
    ).body as { id: string; secret: string };
  const event = (extra: Partial<WebhookEvent> = {}): WebhookEvent => ({
    systemDomainId: t.domainId,
    objectId: randomUUID(),
    realm: 'metadata',
    operation: 'update',
    eventType: 'assets',
    data: { version_id: randomUUID(), object_type: 'assets' },
    requestId: null,
    ...extra,
  });
  /** What a feature does: record inside the change's own transaction. */
  const record = (e: WebhookEvent) => t.ds.transaction((em) => t.get(WebhookEventsService).record(em, e));
  const webhookRow = (id: string) => t.ds.getRepository(WebhookEntity).findOneByOrFail({ id });
  const deliveriesOf = (webhookId: string) =>
    t.ds
      .getRepository(WebhookDeliveryEntity)
      .find({ where: { webhook_id: webhookId }, order: { date_created: 'ASC' } });

  beforeAll(async () => {
    t = await createTestApp(FAST);
    h = bearer((await tokenFor(t, await createUser(t, { isAdmin: true }))).token);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('posts the spec’s message, signed so that standardwebhooks’ Webhook.verify accepts it with the secret', async () => {
    const w = await register('/signed', {
      realm: 'metadata',
      operation: 'update',
      headers: { Authorization: 'Bearer for-the-receiver', 'X-Team': 'media' },
    });
    const e = event({ requestId: 'req-from-the-caller' });
    await record(e);
    await receiver.waitFor(() => receiver.at('/signed').length === 1);
    const [got] = receiver.at('/signed');
    expect(JSON.parse(got.body)).toEqual({
      system_domain_id: t.domainId,
      object_id: e.objectId,
      realm: 'metadata',
      operation: 'update',
      event_type: 'assets',
      request_id: 'req-from-the-caller',
      data: e.data,
    });
    const verified = new Webhook(w.secret).verify(got.body, got.headers as Record<string, string>);
    expect(verified).toEqual(JSON.parse(got.body));
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        got.body,
        got.headers as Record<string, string>,
      ),
    ).toThrow();
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer for-the-receiver',
      'x-team': 'media',
      'user-agent': expect.stringMatching(/^Portcullis-Webhooks\//),
    });
    const [delivery] = await deliveriesOf(w.id);
    expect(got.headers['webhook-id']).toBe(delivery.id);
    // the delivery log
    const log = await t.http.get(`${HOOKS}/${w.id}/deliveries/`).set(h).expect(200);
    expect(log.body).toMatchObject({ total: 1, page: 1 });
    expect(log.body.objects[0]).toEqual({
      id: delivery.id,
      webhook_id: w.id,
      event_id: delivery.event_id,
      event_type: 'assets',
      realm: 'metadata',
      operation: 'update',
      object_id: e.objectId,
      request_id: 'req-from-the-caller',
      status: 'DELIVERED',
      attempts: 1,
      response_code: 200,
      duration_ms: expect.any(Number),
      error: null,
      next_attempt_at: null,
      last_attempt_at: expect.any(String),
      delivered_at: expect.any(String),
      date_created: expect.any(String),
    });
  });

  it('delivers only what matches: domain, event_type, and realm, operation and object_id where the webhook sets them', async () => {
    const objectId = randomUUID();
    const other = await createDomain(t);
    const any = await register('/match-any', { event_type: 'match' });
    await register('/match-narrow', {
      event_type: 'match',
      realm: 'metadata',
      operation: 'update',
      object_id: objectId,
    });
    const sent = [
      event({ eventType: 'match', objectId }), // both
      event({ eventType: 'match', realm: 'files' }), // any only
      event({ eventType: 'match', operation: 'delete', objectId }), // any only
      event({ eventType: 'match', realm: null, objectId: null }), // any only
      event({ eventType: 'other' }), // neither
      event({ eventType: 'match', systemDomainId: other.id, objectId }), // neither: another domain
    ];
    for (const e of sent) await record(e);
    await record(event({ eventType: 'match', requestId: 'last' }));
    await receiver.waitFor(() => receiver.at('/match-any').length === 5);
    await t.get(WebhookWorker).afterRounds(2); // the worker has looked again since
    expect(receiver.at('/match-any')).toHaveLength(5);
    expect(receiver.at('/match-narrow').map((r) => JSON.parse(r.body).object_id)).toEqual([objectId]);
    expect((await deliveriesOf(any.id)).every((d) => d.status === 'DELIVERED')).toBe(true);
    // nothing is written for a change nobody listens to
    expect(await t.ds.getRepository(WebhookEventEntity).countBy({ event_type: 'other' })).toBe(0);
  });

  it('a change rolled back emits nothing; the committed one after it is delivered', async () => {
    const w = await register('/rollback', { event_type: 'rollback' });
    const rolledBack = event({ eventType: 'rollback', requestId: 'rolled-back' });
    await expect(
      t.ds.transaction(async (em) => {
        await t.get(WebhookEventsService).record(em, rolledBack);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await record(event({ eventType: 'rollback', requestId: 'committed' }));
    await receiver.waitFor(() => receiver.at('/rollback').length >= 1);
    await t.get(WebhookWorker).afterRounds(2); // the worker has looked again since
    expect(receiver.at('/rollback').map((r) => JSON.parse(r.body).request_id)).toEqual(['committed']);
    expect(await t.ds.getRepository(WebhookEventEntity).countBy({ event_type: 'rollback' })).toBe(1);
    expect(await deliveriesOf(w.id)).toHaveLength(1);
  });

  it('fills request_id from the request being served: webhook changes are events too', async () => {
    const watcher = await register('/changes', { event_type: 'webhooks' });
    const target = await register('/unused', { event_type: 'nothing' });
    const res = await t.http
      .patch(`${HOOKS}/${target.id}`)
      .set(h)
      .set('X-Request-Id', 'req-patch-0001')
      .send({ name: 'renamed' })
      .expect(200);
    expect(res.headers['x-request-id']).toBe('req-patch-0001');
    await receiver.waitFor(() =>
      receiver.at('/changes').some((r) => JSON.parse(r.body).request_id === 'req-patch-0001'),
    );
    const msg = receiver
      .at('/changes')
      .map((r) => JSON.parse(r.body))
      .find((m) => m.request_id === 'req-patch-0001');
    expect(msg).toMatchObject({
      event_type: 'webhooks',
      operation: 'update',
      realm: null,
      object_id: target.id,
      data: { id: target.id, name: 'renamed', event_type: 'nothing' },
    });
    expect(msg.data.secret).toBeUndefined();
    // its own creation reached it too (it listens to webhook changes from the moment it exists)
    expect(receiver.at('/changes').map((r) => JSON.parse(r.body))).toContainEqual(
      expect.objectContaining({ operation: 'create', object_id: watcher.id }),
    );
  });

  it('receiver failing: retries with backoff, FAILING after 3 failures with last_error and last_payload; back up: delivered, ENABLED', async () => {
    receiver.statusByPath.set('/flaky', 503);
    const w = await register('/flaky', { event_type: 'flaky' });
    const e = event({ eventType: 'flaky' });
    await record(e);
    await receiver.waitFor(() => receiver.at('/flaky').length >= 4);
    const failing = await waitFor(async () => {
      const row = await webhookRow(w.id);
      return row.status === 'FAILING' && row;
    });
    expect(failing.last_error).toBe('HTTP 503: receiver says no');
    expect(failing.last_payload).toMatchObject({ object_id: e.objectId, event_type: 'flaky' });
    expect(failing.first_failed_at).toBeInstanceOf(Date);
    const shown = await t.http.get(`${HOOKS}/${w.id}`).set(h).expect(200);
    expect(shown.body).toMatchObject({ status: 'FAILING', last_error: 'HTTP 503: receiver says no' });
    expect(shown.body.first_failed_at).toEqual(expect.any(String));
    const [pending] = await deliveriesOf(w.id);
    expect(pending).toMatchObject({
      status: 'PENDING',
      response_code: 503,
      error: 'HTTP 503: receiver says no',
    });
    expect(pending.attempts).toBeGreaterThanOrEqual(3);
    // every attempt carries the same webhook-id, signed anew
    const ids = new Set(receiver.at('/flaky').map((r) => r.headers['webhook-id']));
    expect([...ids]).toEqual([pending.id]);

    receiver.statusByPath.set('/flaky', 200);
    await receiver.waitFor(() => receiver.delivered('/flaky').length === 1);
    const back = await waitFor(async () => {
      const row = await webhookRow(w.id);
      return row.status === 'ENABLED' && row;
    });
    expect(back).toMatchObject({ consecutive_failures: 0, first_failed_at: null });
    expect((await deliveriesOf(w.id))[0]).toMatchObject({
      status: 'DELIVERED',
      response_code: 200,
      error: null,
    });

    // replay: queued again (202), sent again with the same webhook-id
    const replay = await t.http.post(`${HOOKS}/${w.id}/deliveries/${pending.id}/replay/`).set(h).expect(202);
    expect(replay.body).toMatchObject({ id: pending.id, status: 'PENDING' });
    await receiver.waitFor(() => receiver.delivered('/flaky').length === 2);
    expect(receiver.delivered('/flaky')[1].headers['webhook-id']).toBe(pending.id);
  });

  it('receiver down (connection refused): retried until it listens again', async () => {
    const down = await WebhookReceiver.startBelowEphemeralRange();
    const port = down.port;
    await down.close();
    const w = (
      await t.http
        .post(HOOKS)
        .set(h)
        .send({ url: `http://127.0.0.1:${port}/down`, event_type: 'down', status: 'ENABLED' })
        .expect(201)
    ).body as { id: string };
    await record(event({ eventType: 'down' }));
    const refused = await waitFor(async () => {
      const [d] = await deliveriesOf(w.id);
      return d?.attempts >= 2 && d;
    });
    expect(refused.error).toMatch(/ECONNREFUSED/);
    expect(refused.response_code).toBeNull();
    await down.listen(port);
    try {
      await down.waitFor(() => down.delivered('/down').length === 1);
      await waitFor(async () => (await deliveriesOf(w.id))[0].status === 'DELIVERED');
    } finally {
      await down.close();
    }
  });

  it('deleting a webhook stops its deliveries; disabling one gives up its pending deliveries', async () => {
    receiver.statusByPath.set('/deleted', 500);
    receiver.statusByPath.set('/disabled', 500);
    const del = await register('/deleted', { event_type: 'stop' });
    const dis = await register('/disabled', { event_type: 'stop' });
    await record(event({ eventType: 'stop' }));
    await receiver.waitFor(() => receiver.at('/deleted').length >= 1 && receiver.at('/disabled').length >= 1);
    await t.http.delete(`${HOOKS}/${del.id}`).set(h).expect(204);
    await t.http.patch(`${HOOKS}/${dis.id}`).set(h).send({ status: 'DISABLED' }).expect(200);
    const seen = receiver.at('/deleted').length + receiver.at('/disabled').length;
    await t.get(WebhookWorker).afterRounds(2); // the worker has looked again since
    expect(receiver.at('/deleted').length + receiver.at('/disabled').length).toBeLessThanOrEqual(seen + 2); // in flight
    for (const id of [del.id, dis.id]) {
      const [d] = await deliveriesOf(id);
      expect(d.status).toBe('FAILED');
      expect(d.error).toMatch(/given up: the webhook was (deleted|disabled)/);
    }
    const settled = receiver.at('/deleted').length + receiver.at('/disabled').length;
    await t.get(WebhookWorker).afterRounds(2); // the worker has looked again since
    expect(receiver.at('/deleted').length + receiver.at('/disabled').length).toBe(settled);
    // a DISABLED webhook's delivery cannot be replayed until it is enabled
    const [d] = await deliveriesOf(dis.id);
    await t.http.post(`${HOOKS}/${dis.id}/deliveries/${d.id}/replay`).set(h).expect(409);
  });

  it('DISABLED after failing continuously for WEBHOOK_DISABLE_AFTER_SECONDS (a day by default); its pending deliveries are given up', async () => {
    receiver.statusByPath.set('/dead', 500);
    const w = await register('/dead', { event_type: 'dead' });
    await record(event({ eventType: 'dead' }));
    await record(event({ eventType: 'dead' }));
    await waitFor(async () => (await webhookRow(w.id)).status === 'FAILING');
    const clock = t.get(Clock);
    try {
      clock.advance(86_400_000 + 1000);
      const row = await waitFor(async () => {
        const r = await webhookRow(w.id);
        return r.status === 'DISABLED' && r;
      });
      expect(row.last_error).toBe('HTTP 500: receiver says no');
      const deliveries = await deliveriesOf(w.id);
      expect(deliveries.map((d) => d.status)).toEqual(['FAILED', 'FAILED']);
      const count = receiver.at('/dead').length;
      await t.get(WebhookWorker).afterRounds(2); // the worker has looked again since
      expect(receiver.at('/dead')).toHaveLength(count);
    } finally {
      clock.reset();
    }
    // an administrator turns it back on: ENABLED, failure count cleared
    const on = await t.http.patch(`${HOOKS}/${w.id}`).set(h).send({ status: 'ENABLED' }).expect(200);
    expect(on.body).toMatchObject({ status: 'ENABLED', first_failed_at: null });
  });
});

describe('webhook delivery with WEBHOOK_ALLOW_PRIVATE=false (the default): the SSRF rule', () => {
  let t: TestApp;
  let h: Record<string, string>;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({ ...FAST, WEBHOOK_ALLOW_PRIVATE: 'false' });
    h = bearer((await tokenFor(t, await createUser(t, { isAdmin: true }))).token);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it.each([
    'http://127.0.0.1/',
    'http://10.0.0.1/',
    'http://[::1]/',
    'http://192.168.1.10:8080/hook',
    'http://172.16.5.4/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[::]/',
    'http://2130706433/', // 127.0.0.1 as one number: the URL parser normalises it
    'http://0x7f.1/',
  ])('refuses %s at registration (400 naming url)', async (url) => {
    const res = await t.http
      .post(HOOKS)
      .set(h)
      .send({ url, event_type: 'assets', status: 'ENABLED' })
      .expect(400);
    expect(res.body).toEqual({
      errors: { url: 'url must not target a private, loopback, link-local or otherwise non-public address' },
    });
  });

  it('refuses it on update too, and takes a public address', async () => {
    const w = await t.http
      .post(HOOKS)
      .set(h)
      .send({ url: 'https://93.184.216.34/hook', event_type: 'assets', status: 'ENABLED' })
      .expect(201);
    await t.http.patch(`${HOOKS}/${w.body.id}`).set(h).send({ url: 'http://10.1.2.3/' }).expect(400);
  });

  it('a name resolving to loopback (localhost) is refused at delivery, after DNS: nothing reaches the receiver', async () => {
    const w = await t.http
      .post(HOOKS)
      .set(h)
      .send({ url: `http://localhost:${receiver.port}/ssrf`, event_type: 'ssrf', status: 'ENABLED' })
      .expect(201);
    await t.ds.transaction((em) =>
      t.get(WebhookEventsService).record(em, {
        systemDomainId: t.domainId,
        objectId: null,
        realm: null,
        operation: 'create',
        eventType: 'ssrf',
        data: {},
        requestId: null,
      }),
    );
    const d = await waitFor(async () => {
      const [row] = await t.ds.getRepository(WebhookDeliveryEntity).findBy({ webhook_id: w.body.id });
      return row?.attempts >= 2 && row;
    });
    expect(d.status).toBe('PENDING');
    expect(d.error).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address/);
    expect(receiver.received).toHaveLength(0);
  });
});
